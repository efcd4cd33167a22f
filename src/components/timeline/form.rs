//! The story and the settings, each a field named after Kafka's, with what is wrong with a
//! number typed into one said beside it.

use super::*;

/// A number typed into a field: `Err` says what is wrong with it.
fn typed_number(v: &str, whole: bool) -> Result<(), String> {
    let t = v.trim();
    if t.is_empty() {
        return Err("give a number".into());
    }
    let n: f64 = t.parse().map_err(|_| {
        format!(
            "\"{}\" is not a number",
            t.chars().take(20).collect::<String>()
        )
    })?;
    if !n.is_finite() || n < 0.0 {
        return Err(format!("{t} is not a number of 0 or more"));
    }
    if whole && t.parse::<i64>().is_err() {
        return Err(format!("{t} is not a whole number (digits only)"));
    }
    if n > 4_000_000_000.0 {
        return Err(format!("{t} is too large"));
    }
    Ok(())
}

/// What each member lists and how it rebalances, as the listed protocol runs it: the first
/// few members, then how many more.
fn members_lists(group: &Group) -> String {
    const SHOWN: usize = 6;
    let lists: Vec<String> = (0..group.members.len())
        .take(SHOWN)
        .map(|m| {
            let list = group.strategy(Protocol::Listed, m);
            format!("{} {}", group.members[m].0, strategy::describe(&list))
        })
        .collect();
    let more = group.members.len().saturating_sub(SHOWN);
    let more = if more > 0 {
        format!("; {more} more")
    } else {
        String::new()
    };
    format!(
        "Each member's partition.assignment.strategy, from the group above: {}{more}.",
        lists.join("; ")
    )
}

pub(super) fn settings_form(
    group: &Group,
    spec: &Spec,
    set: impl Fn(fn(&mut Spec, &str), String) + Clone + 'static,
    set_story: Callback<Story>,
    bad: UseStateHandle<Option<(Spec, String)>>,
) -> Html {
    // another story keeps the script written (a script first chosen starts from the example)
    let on_story = {
        let (set_story, story, names) =
            (set_story.clone(), spec.story.clone(), group.member_names());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let Some(kind) = StoryKind::parse(&v) else {
                return;
            };
            let mut next = Story::new(kind);
            next.script = if story.script.is_empty() && kind == StoryKind::Script {
                script::example(&names)
            } else {
                story.script.clone()
            };
            set_story.emit(next);
        })
    };
    let on_script = {
        let story = spec.story.clone();
        Callback::from(move |e: Event| {
            let mut next = story.clone();
            next.script = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            set_story.emit(next);
        })
    };
    let on = |label: &str, whole: bool, f: fn(&mut Spec, &str)| {
        let set = set.clone();
        let bad = bad.clone();
        let label = label.to_string();
        let spec_now = spec.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            match typed_number(&v, whole) {
                Ok(()) => {
                    bad.set(None);
                    set(f, v);
                }
                Err(m) => bad.set(Some((spec_now.clone(), format!("{label}: {m}")))),
            }
        })
    };
    let on_check = |f: fn(&mut Spec, &str)| {
        let set = set.clone();
        Callback::from(move |e: Event| {
            let checked = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            set(f, if checked { "1".into() } else { "0".into() });
        })
    };
    let on_select = |f: fn(&mut Spec, &str)| {
        let set = set.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            set(f, v);
        })
    };
    let c = &spec.settings.client;
    let field = |id: &str, label: &str, value: String, f: fn(&mut Spec, &str), whole: bool| {
        html! {
            <label class="field" for={id.to_string()}>
                <span>{ label.to_string() }</span>
                <input id={id.to_string()} type="number" min="0" step={if whole { "1" } else { "any" }} value={value} onchange={on(label, whole, f)} />
            </label>
        }
    };
    let number = |id: &str, label: &str, value: String, f: fn(&mut Spec, &str)| {
        field(id, label, value, f, true)
    };
    let decimal = |id: &str, label: &str, value: String, f: fn(&mut Spec, &str)| {
        field(id, label, value, f, false)
    };
    let auto = match c.commit {
        CommitPolicy::Auto { interval_ms } => Some(interval_ms),
        _ => None,
    };
    html! {
        <form class="timeline-settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <fieldset>
                <legend>{ "The story" }</legend>
                <label class="field" for="timeline-story">
                    <span>{ "What happens" }</span>
                    <select id="timeline-story" onchange={on_story}>
                        { for StoryKind::ALL.iter().map(|k| html! {
                            <option value={k.name()} selected={*k == spec.story.kind}>{ k.label() }</option>
                        }) }
                    </select>
                </label>
                if spec.story.kind == StoryKind::Script {
                    <label class="field timeline-script" for="timeline-script">
                        <span>{ "The script (runs when you leave the field)" }</span>
                        <textarea id="timeline-script" rows="7" spellcheck="false" value={spec.story.script.clone()} onchange={on_script} />
                    </label>
                    <p class="hint" id="timeline-script-help">{ "One statement a line: a time from the story's start (20s, 1.5s, 500ms, 2m), then close, crash, start, restart … for, slow … for (a batch that long), cut … for (no network) with member names separated by commas, or join N (new members new-1, new-2…). start, restart and join take with and the settings the process starts with, such as with session.timeout.ms=10000 partition.assignment.strategy=cooperative-sticky; initially m1 with … (no time) gives a member's first process its settings. # starts a comment." }</p>
                }
                if spec.story.kind != StoryKind::Script {
                    { number("timeline-downtime", match spec.story.kind {
                        StoryKind::SlowPoll => "The slow batch takes (ms)",
                        StoryKind::NetworkCut => "The cut lasts (ms)",
                        _ => "Down for (ms)",
                    }, spec.story.downtime_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.downtime_ms = n }) }
                }
                if matches!(spec.story.kind, StoryKind::RollingRestart | StoryKind::ToCooperative) {
                    { number("timeline-gap", "Then waits (ms)", spec.story.gap_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.gap_ms = n }) }
                }
                if matches!(spec.story.kind, StoryKind::RollingRestart | StoryKind::ToCooperative | StoryKind::ScaleOut | StoryKind::ScaleIn) {
                    { number("timeline-count", if matches!(spec.story.kind, StoryKind::RollingRestart | StoryKind::ToCooperative) { "Members at once" } else { "Members" }, spec.story.count.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.count = n }) }
                }
            </fieldset>
            <fieldset>
                <legend>{ "The group" }</legend>
                <label class="field" for="timeline-protocol">
                    <span>{ "Protocol" }</span>
                    <select id="timeline-protocol" onchange={on_select(|s, v| if let Some(p) = Protocol::parse(v) { s.settings.protocol = p })}>
                        { for [Protocol::Eager, Protocol::Cooperative, Protocol::Consumer, Protocol::Listed].iter().map(|p| html! {
                            <option value={p.name()} selected={*p == spec.settings.protocol}>{ protocol_label(*p, group.assignor_under(*p).0) }</option>
                        }) }
                    </select>
                </label>
                if spec.settings.protocol == Protocol::Listed {
                    <p class="timeline-lists">{ members_lists(group) }</p>
                }
                <label class="inline" for="timeline-static">
                    <input id="timeline-static" type="checkbox" checked={c.static_membership} onchange={on_check(|s, v| s.settings.client.static_membership = v == "1")} />
                    { " group.instance.id on every member (static)" }
                </label>
                <label class="inline" for="timeline-leave">
                    <input id="timeline-leave" type="checkbox" checked={c.leave_on_close} onchange={on_check(|s, v| s.settings.client.leave_on_close = v == "1")} />
                    { " close() sends LeaveGroup (a Java consumer does; Kafka Streams does not)" }
                </label>
                { number("timeline-session", "session.timeout.ms", c.session_timeout_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.client.session_timeout_ms = n }) }
                { number("timeline-heartbeat", "heartbeat.interval.ms", c.heartbeat_interval_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.client.heartbeat_interval_ms = n }) }
                { number("timeline-max-poll", "max.poll.interval.ms", c.max_poll_interval_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.client.max_poll_interval_ms = n }) }
                <label class="field" for="timeline-commit">
                    <span>{ "Commits" }</span>
                    <select id="timeline-commit" onchange={on_select(|s, v| if let Some(c) = CommitPolicy::parse(v) { s.settings.client.commit = c })}>
                        <option value="auto" selected={auto.is_some()}>{ "enable.auto.commit (every auto.commit.interval.ms)" }</option>
                        <option value="after-batch" selected={c.commit == CommitPolicy::AfterBatch}>{ "commitSync after each batch" }</option>
                        <option value="before-processing" selected={c.commit == CommitPolicy::BeforeProcessing}>{ "commitSync before processing (at most once)" }</option>
                    </select>
                </label>
                if let Some(ms) = auto {
                    { number("timeline-auto-commit", "auto.commit.interval.ms", ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.client.commit = CommitPolicy::Auto { interval_ms: n } }) }
                }
                { decimal("timeline-rate", "Records per second per partition", format!("{}", spec.settings.records_per_second), |s, v| if let Ok(n) = v.parse::<f64>() { if n.is_finite() { s.settings.records_per_second = n } }) }
                { decimal("timeline-processing", "Processing per record (ms)", format!("{}", c.processing_ms_per_record), |s, v| if let Ok(n) = v.parse::<f64>() { if n.is_finite() { s.settings.client.processing_ms_per_record = n } }) }
                { number("timeline-max-poll-records", "max.poll.records", c.max_poll_records.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.client.max_poll_records = n }) }
            </fieldset>
            <fieldset>
                <legend>{ "The brokers" }</legend>
                { number("timeline-initial-delay", "group.initial.rebalance.delay.ms", spec.settings.broker.initial_rebalance_delay_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.broker.initial_rebalance_delay_ms = n }) }
                { number("timeline-consumer-heartbeat", "group.consumer.heartbeat.interval.ms", spec.settings.consumer_group.heartbeat_interval_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.consumer_group.heartbeat_interval_ms = n }) }
                { number("timeline-consumer-session", "group.consumer.session.timeout.ms", spec.settings.consumer_group.session_timeout_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.consumer_group.session_timeout_ms = n }) }
                { number("timeline-round-trip", "A request's round trip (ms)", spec.settings.round_trip_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.settings.round_trip_ms = n }) }
            </fieldset>
        </form>
    }
}
