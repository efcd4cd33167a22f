//! The group over time: a story (a rolling restart, a crash, a scale-out...) run on the
//! group on screen, drawn as a lane per member on a time axis, with its events as a table,
//! its totals, and the same story under each protocol side by side.

use crate::components::grid::slot_class;
use crate::state::Action;
use rebalance_lab_core::scenario::colours::Colours;
use rebalance_lab_core::scenario::Scenario;
use rebalance_lab_core::timeline::compare::{compare, Variant};
use rebalance_lab_core::timeline::spec::{preset, Spec, PRESETS};
use rebalance_lab_core::timeline::{
    simulate, CommitPolicy, Group, Protocol, Run, StoryKind, TimelineError, ASSUMPTIONS,
};
use std::rc::Rc;
use yew::prelude::*;

/// Up to this many partitions the timeline can draw a row per partition.
const PARTITION_ROWS: usize = 500;
/// The page runs a timeline up to this many members and partitions (a rolling restart of
/// 100 members over 10,000 partitions takes a few tenths of a second here; the command line
/// runs larger groups).
const PAGE_MEMBERS: usize = 200;
const PAGE_PARTITIONS: u64 = 20_000;
/// The drawing's width in its own units (the SVG scales to the panel).
const WIDTH: f64 = 1000.0;
const LANE: f64 = 14.0;
/// The drawing's left margin, where each lane's name is written.
const GUTTER: f64 = 110.0;

/// A span of a lane: from, to, the colour slot, and whether the member was down.
struct Span {
    from: i64,
    to: i64,
    slot: u32,
    down: bool,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub scenario: Rc<Scenario>,
    /// The timeline's story and settings; None while it is closed.
    pub spec: Option<Spec>,
    pub colours: Rc<Colours>,
    /// A lesson step asks for a prediction: the run is not shown until it is checked.
    pub asking: bool,
    pub dispatch: Callback<Action>,
}

/// The panel: a button to open it, or the story, the settings and the run.
#[function_component(Timeline)]
pub fn timeline(props: &Props) -> Html {
    let Some(spec) = props.spec else {
        let open = props
            .dispatch
            .reform(|_: MouseEvent| Action::Timeline(Some(Spec::default())));
        return html! {
            <section class="timeline" aria-labelledby="timeline-title">
                <h2 id="timeline-title">{ "Over time" }</h2>
                <p class="hint">{ "How long a deploy, a crash or a scale-out stops consumption, under each protocol and setting, and what gets read twice." }</p>
                <button id="timeline-open" onclick={open}>{ "Run a deploy on this group" }</button>
            </section>
        };
    };
    html! {
        <Open scenario={props.scenario.clone()} {spec} colours={props.colours.clone()}
            asking={props.asking} dispatch={props.dispatch.clone()} />
    }
}

#[derive(Properties, PartialEq)]
struct OpenProps {
    scenario: Rc<Scenario>,
    spec: Spec,
    colours: Rc<Colours>,
    asking: bool,
    dispatch: Callback<Action>,
}

/// The open panel: the story, the settings and the run.
#[function_component(Open)]
fn open(props: &OpenProps) -> Html {
    let spec = props.spec;
    let group = use_memo(props.scenario.clone(), |s| {
        Group::of_input(&s.group_input())
    });
    let run = use_memo((group.clone(), spec), |(g, spec)| {
        let mut settings = spec.settings;
        let partitions: u64 = g.topics.iter().map(|(_, n)| u64::from(*n)).sum();
        if g.members.len() > PAGE_MEMBERS || partitions > PAGE_PARTITIONS {
            return Err(TimelineError::Setting(format!(
                "{} members and {partitions} partitions: the page runs a timeline up to {PAGE_MEMBERS} members and {PAGE_PARTITIONS} partitions, so that it stays responsive. The command line runs this group: export it as JSON (Exports) and run rebalance-lab timeline FILE --event {}.",
                g.members.len(),
                spec.story.kind.name()
            )));
        }
        settings.keep_tenures = partitions as usize <= PARTITION_ROWS;
        simulate(g, &settings, &spec.story)
    });
    // The side-by-side table: four runs, on demand.
    let compared = use_state(|| None::<(Spec, Rc<Vec<(Variant, Result<Run, TimelineError>)>>)>);
    let by_partition = use_state(|| false);
    // a number typed that is not one, said beside the form while the settings are the ones
    // it was typed into (the run keeps the last good one)
    let bad = use_state(|| None::<(Spec, String)>);
    let set = {
        let dispatch = props.dispatch.clone();
        move |f: fn(&mut Spec, &str), value: String| {
            let mut next = spec;
            f(&mut next, &value);
            dispatch.emit(Action::Timeline(Some(next)));
        }
    };
    let on_compare = {
        let compared = compared.clone();
        let group = group.clone();
        Callback::from(move |_: MouseEvent| {
            let mut settings = spec.settings;
            settings.keep_tenures = false;
            compared.set(Some((
                spec,
                Rc::new(compare(&group, &settings, &spec.story)),
            )));
        })
    };
    let close = props
        .dispatch
        .reform(|_: MouseEvent| Action::Timeline(None));
    let presets = PRESETS.iter().map(|p| {
        let dispatch = props.dispatch.clone();
        let key = p.key;
        let chosen = preset(key) == Some(spec);
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Timeline(preset(key)));
        });
        html! {
            <li>
                <button id={format!("timeline-preset-{key}")} aria-pressed={chosen.to_string()} {onclick}>{ p.label }</button>
                <span class="hint">{ format!(" {}", p.about) }</span>
            </li>
        }
    });
    let result = match &*run {
        // (the lesson asks first: the answer is in the run)
        Ok(_) if props.asking => html! {
            <p class="notice" id="timeline-asking">{ "Predict first: the run is shown once your answer is checked." }</p>
        },
        Ok(run) => html! {
            <>
                { totals(run) }
                { lanes(run, &props.scenario, &props.colours, *by_partition) }
                if !run.tenures.is_empty() {
                    <label class="inline">
                        <input type="checkbox" id="timeline-by-partition" checked={*by_partition}
                            onchange={{ let b = by_partition.clone(); Callback::from(move |_: Event| b.set(!*b)) }} />
                        { " A row per partition" }
                    </label>
                }
                { for run.notes.iter().map(|n| html! { <p class="notice timeline-note">{ n.clone() }</p> }) }
                { events(run) }
            </>
        },
        Err(e) => html! { <p class="alert" role="alert" id="timeline-error">{ e.to_string() }</p> },
    };
    let compared_view = compared
        .as_ref()
        .filter(|(s, _)| *s == spec && !props.asking)
        .map(|(_, runs)| side_by_side(&spec, runs));
    html! {
        <section class="timeline" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{ "Over time" }</h2>
            <ul class="timeline-presets">{ for presets }</ul>
            <div id="timeline-run" aria-live="polite">{ result }</div>
            { settings_form(&spec, set, bad.clone()) }
            if let Some((_, m)) = bad.as_ref().filter(|(s, _)| *s == spec) {
                <p class="alert" role="alert" id="timeline-field-error">{ m.clone() }</p>
            }
            <p>
                if run.is_ok() && !props.asking {
                    <button id="timeline-compare" onclick={on_compare}>{ "Compare eager, cooperative, static members and the consumer protocol" }</button>
                    { " " }
                }
                <button id="timeline-close" onclick={close}>{ "Close the timeline" }</button>
            </p>
            { for compared_view }
            <details class="timeline-assumptions">
                <summary>{ "What the run assumes" }</summary>
                <ul>{ for ASSUMPTIONS.iter().map(|a| html! { <li>{ *a }</li> }) }</ul>
            </details>
        </section>
    }
}

fn secs(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// The totals, in numbers a team can act on.
fn totals(run: &Run) -> Html {
    let c = &run.costs;
    let partitions: u64 = run.topics.iter().map(|(_, n)| u64::from(*n)).sum();
    let rows = [
        ("rebalances", "Rebalances", c.rebalances.to_string()),
        (
            "paused",
            "Partition-seconds with no consumer",
            format!(
                "{:.1} ({} of {partitions} partitions stopped)",
                c.partition_seconds_paused, c.partitions_paused
            ),
        ),
        (
            "partition-stop",
            "Longest stop of one partition",
            secs(c.longest_partition_stop_ms),
        ),
        (
            "group-stop",
            "Longest stop of the whole group",
            secs(c.longest_group_stop_ms),
        ),
        (
            "lag",
            "Peak lag of a partition",
            format!("{} records", c.peak_lag_records),
        ),
        (
            "twice",
            "Records read twice",
            c.records_read_twice.to_string(),
        ),
        (
            "missed",
            "Records never processed",
            c.records_missed.to_string(),
        ),
    ];
    html! {
        <dl class="timeline-totals" id="timeline-totals">
            { for rows.iter().map(|(key, label, value)| html! {
                <>
                    <dt>{ *label }</dt>
                    <dd id={format!("timeline-{key}")}>{ value.clone() }</dd>
                </>
            }) }
        </dl>
    }
}

/// A lane per member (or a row per partition): when it consumed, when it was down, and the
/// rebalances, on the run's time axis from a little before the story to the end.
fn lanes(run: &Run, scenario: &Scenario, colours: &Colours, by_partition: bool) -> Html {
    let from = (run.start_ms - 5_000).max(0);
    let span = (run.end_ms - from).max(1) as f64;
    let x = |t: i64| {
        GUTTER + ((t.max(from) - from) as f64 / span * (WIDTH - GUTTER)).clamp(0.0, WIDTH - GUTTER)
    };
    let slot_of = |m: usize| -> u32 {
        let name = &run.members[m];
        colours
            .slot(name)
            .or_else(|| (m >= scenario.members.len()).then_some(m as u32))
            .unwrap_or(0)
    };
    let rows: Vec<(String, Vec<Span>)> = if by_partition && !run.tenures.is_empty() {
        let mut names = Vec::new();
        for (t, n) in &run.topics {
            for p in 0..*n {
                names.push(format!("{t}-{p}"));
            }
        }
        names
            .into_iter()
            .zip(&run.tenures)
            .map(|(name, ts)| {
                let spans = ts
                    .iter()
                    .map(|t| Span {
                        from: t.start_ms,
                        to: t.end_ms,
                        slot: slot_of(t.member),
                        down: false,
                    })
                    .collect();
                (name, spans)
            })
            .collect()
    } else {
        run.members
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let mut spans: Vec<Span> = run
                    .lanes
                    .get(m)
                    .into_iter()
                    .flatten()
                    .map(|(s, e)| Span {
                        from: *s,
                        to: *e,
                        slot: slot_of(m),
                        down: false,
                    })
                    .collect();
                spans.extend(
                    run.downtime
                        .get(m)
                        .into_iter()
                        .flatten()
                        .map(|(s, e)| Span {
                            from: *s,
                            to: *e,
                            slot: 0,
                            down: true,
                        }),
                );
                (name.clone(), spans)
            })
            .collect()
    };
    let height = rows.len() as f64 * LANE + 20.0;
    let rebalances = run.rebalance_times.iter().filter(|t| **t >= from);
    // the axis: a tick every so many seconds, about ten of them
    let step_s = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]
        .into_iter()
        .find(|s| span / 1000.0 / *s as f64 <= 10.0)
        .unwrap_or(7200);
    let ticks = (0..)
        .map(|k| k * step_s * 1000)
        .take_while(|t| *t <= run.end_ms)
        .filter(|t| *t >= from);
    let what = if by_partition { "partition" } else { "member" };
    html! {
        <figure class="timeline-figure">
            <svg id="timeline-lanes" viewBox={format!("0 0 {WIDTH} {height}")} preserveAspectRatio="none" role="img"
                aria-label={format!("A lane per {what} from {} to {}: coloured while it consumes, hatched while it is down; lines mark rebalances. The table of events below says the same.", secs(from), secs(run.end_ms))}
                height={format!("{}", (rows.len() * 14 + 20).min(2000))}>
                { for rows.iter().enumerate().map(|(i, (name, spans))| {
                    let y = i as f64 * LANE;
                    html! {
                        <g class="lane" data-name={name.clone()}>
                            <text class="lane-name" x="2" y={format!("{:.1}", y + LANE - 3.0)}>{ short_name(name) }</text>
                            { for spans.iter().map(|Span { from: s, to: e, slot, down }| {
                                let (x0, x1) = (x(*s), x(*e));
                                let class = if *down { classes!("down") } else { classes!("bar", slot_class(*slot)) };
                                html! {
                                    <rect {class} x={format!("{x0:.2}")} y={format!("{:.1}", y + 2.0)} width={format!("{:.2}", (x1 - x0).max(0.5))} height={format!("{:.1}", LANE - 4.0)}>
                                        <title>{ format!("{name}: {} from {} to {}", if *down { "down" } else { "consuming" }, secs(*s), secs(*e)) }</title>
                                    </rect>
                                }
                            }) }
                        </g>
                    }
                }) }
                { for rebalances.map(|t| html! {
                    <line class="rebalance" x1={format!("{:.2}", x(*t))} x2={format!("{:.2}", x(*t))} y1="0" y2={format!("{:.1}", height - 20.0)} />
                }) }
                { for ticks.map(|t| html! {
                    <text class="tick" x={format!("{:.1}", x(t))} y={format!("{:.1}", height - 6.0)}>{ format!("{} s", t / 1000) }</text>
                }) }
            </svg>
            <figcaption>
                { format!("{} {what} lanes; the story starts at {}. ", rows.len(), secs(run.start_ms)) }
                <span class="legend"><span class="swatch down" aria-hidden="true"></span>{ " down " }</span>
                <span class="legend"><span class="swatch rebalance" aria-hidden="true"></span>{ " a rebalance begins" }</span>
            </figcaption>
        </figure>
    }
}

/// A lane's name as the drawing's margin has room for it.
fn short_name(name: &str) -> String {
    const ROOM: usize = 18;
    if name.chars().count() <= ROOM {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(ROOM - 1).collect();
        s.push('…');
        s
    }
}

/// The events, as a table a screen reader and a keyboard can walk.
fn events(run: &Run) -> Html {
    const SHOWN: usize = 400;
    let shown: Vec<_> = run
        .happenings
        .iter()
        .filter(|h| h.time_ms >= run.start_ms - 5_000)
        .collect();
    let more = shown.len().saturating_sub(SHOWN);
    html! {
        <details class="timeline-events" id="timeline-events">
            <summary>{ format!("Every event ({})", shown.len()) }</summary>
            <table>
                <caption>{ "What happened, in time order" }</caption>
                <thead><tr><th scope="col">{ "Time" }</th><th scope="col">{ "Who" }</th><th scope="col">{ "What" }</th></tr></thead>
                <tbody>
                    { for shown.iter().take(SHOWN).map(|h| html! {
                        <tr>
                            <td>{ format!("{:.3} s", h.time_ms as f64 / 1000.0) }</td>
                            <td>{ h.member.clone().unwrap_or_else(|| "group".into()) }</td>
                            <td>{ h.detail.clone() }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if more > 0 {
                <p>{ format!("… and {more} more (the command line's rebalance-lab timeline --json lists them all).") }</p>
            }
        </details>
    }
}

/// The same story under each protocol and membership, as one table.
fn side_by_side(spec: &Spec, runs: &[(Variant, Result<Run, TimelineError>)]) -> Html {
    html! {
        <table class="timeline-compare" id="timeline-compare-table">
            <caption>{ format!("{}: the same story under each protocol", spec.story.kind.label()) }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "Protocol" }</th>
                    <th scope="col">{ "Rebalances" }</th>
                    <th scope="col">{ "Partition-seconds paused" }</th>
                    <th scope="col">{ "Longest partition stop" }</th>
                    <th scope="col">{ "Longest group stop" }</th>
                    <th scope="col">{ "Read twice" }</th>
                    <th scope="col">{ "Never processed" }</th>
                </tr>
            </thead>
            <tbody>
                { for runs.iter().map(|(v, r)| match r {
                    Ok(run) => {
                        let c = &run.costs;
                        html! {
                            <tr data-variant={v.name()}>
                                <th scope="row">{ v.label() }</th>
                                <td>{ c.rebalances }</td>
                                <td>{ format!("{:.1}", c.partition_seconds_paused) }</td>
                                <td>{ secs(c.longest_partition_stop_ms) }</td>
                                <td>{ secs(c.longest_group_stop_ms) }</td>
                                <td>{ c.records_read_twice }</td>
                                <td>{ c.records_missed }</td>
                            </tr>
                        }
                    }
                    Err(e) => html! {
                        <tr data-variant={v.name()}><th scope="row">{ v.label() }</th><td colspan="6">{ e.to_string() }</td></tr>
                    },
                }) }
            </tbody>
        </table>
    }
}

/// The story and the settings, each a field named after Kafka's setting.
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

fn settings_form(
    spec: &Spec,
    set: impl Fn(fn(&mut Spec, &str), String) + Clone + 'static,
    bad: UseStateHandle<Option<(Spec, String)>>,
) -> Html {
    let spec_now = *spec;
    let on = |label: &str, whole: bool, f: fn(&mut Spec, &str)| {
        let set = set.clone();
        let bad = bad.clone();
        let label = label.to_string();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            match typed_number(&v, whole) {
                Ok(()) => {
                    bad.set(None);
                    set(f, v);
                }
                Err(m) => bad.set(Some((spec_now, format!("{label}: {m}")))),
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
                    <select id="timeline-story" onchange={on_select(|s, v| if let Some(k) = StoryKind::parse(v) { s.story = rebalance_lab_core::timeline::Story::new(k) })}>
                        { for StoryKind::ALL.iter().map(|k| html! {
                            <option value={k.name()} selected={*k == spec.story.kind}>{ k.label() }</option>
                        }) }
                    </select>
                </label>
                { number("timeline-downtime", match spec.story.kind {
                    StoryKind::SlowPoll => "The slow batch takes (ms)",
                    StoryKind::NetworkCut => "The cut lasts (ms)",
                    _ => "Down for (ms)",
                }, spec.story.downtime_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.downtime_ms = n }) }
                if spec.story.kind == StoryKind::RollingRestart {
                    { number("timeline-gap", "Then waits (ms)", spec.story.gap_ms.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.gap_ms = n }) }
                }
                if matches!(spec.story.kind, StoryKind::RollingRestart | StoryKind::ScaleOut | StoryKind::ScaleIn) {
                    { number("timeline-count", if spec.story.kind == StoryKind::RollingRestart { "Members at once" } else { "Members" }, spec.story.count.to_string(), |s, v| if let Ok(n) = v.parse() { s.story.count = n }) }
                }
            </fieldset>
            <fieldset>
                <legend>{ "The group" }</legend>
                <label class="field" for="timeline-protocol">
                    <span>{ "Protocol" }</span>
                    <select id="timeline-protocol" onchange={on_select(|s, v| if let Some(p) = Protocol::parse(v) { s.settings.protocol = p })}>
                        { for [Protocol::Eager, Protocol::Cooperative, Protocol::Consumer].iter().map(|p| html! {
                            <option value={p.name()} selected={*p == spec.settings.protocol}>{ p.label() }</option>
                        }) }
                    </select>
                </label>
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
                    <select id="timeline-commit" onchange={on_select(|s, v| s.settings.client.commit = match v {
                        "after-batch" => CommitPolicy::AfterBatch,
                        "before-processing" => CommitPolicy::BeforeProcessing,
                        _ => CommitPolicy::Auto { interval_ms: 5_000 },
                    })}>
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
