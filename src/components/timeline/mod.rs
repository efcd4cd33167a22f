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
    members_added, protocol_label, script, simulate, strategy, CommitPolicy, Group, Protocol, Run,
    Story, StoryKind, TimelineError, ASSUMPTIONS,
};
use std::rc::Rc;
use yew::prelude::*;

mod form;
mod lanes;

use form::settings_form;
use lanes::lanes;

/// Up to this many partitions the timeline can draw a row per partition.
const PARTITION_ROWS: usize = 500;
/// The page runs a timeline up to this many members and partitions (a rolling restart of
/// 100 members over 10,000 partitions takes a few tenths of a second here; the command line
/// runs larger groups).
const PAGE_MEMBERS: usize = 200;
const PAGE_PARTITIONS: u64 = 20_000;
/// Every request is listed for groups up to this many members (each heartbeat is a line).
const WIRE_MEMBERS: usize = 50;

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
    let Some(spec) = props.spec.clone() else {
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
    let spec = props.spec.clone();
    let group = use_memo(props.scenario.clone(), |s| Group::of_scenario(s));
    let run = use_memo((group.clone(), spec.clone()), |(g, spec)| {
        let mut settings = spec.settings;
        let partitions: u64 = g.topics.iter().map(|(_, n)| u64::from(*n)).sum();
        if g.members.len() > PAGE_MEMBERS || partitions > PAGE_PARTITIONS {
            return Err(TimelineError::Setting(format!(
                "{} members and {partitions} partitions: the page runs a timeline up to {PAGE_MEMBERS} members and {PAGE_PARTITIONS} partitions, so that it stays responsive. The command line runs this group: export it as JSON (Exports) and run rebalance-lab timeline FILE --event {}.",
                g.members.len(),
                spec.story.kind.name()
            )));
        }
        let added = members_added(g, &settings, &spec.story);
        if g.members.len() + added > PAGE_MEMBERS {
            return Err(TimelineError::Setting(format!(
                "The story adds {added} members to the group's {}: the page runs a timeline up to {PAGE_MEMBERS} members, so that it stays responsive. The command line runs it: export the group as JSON (Exports) and run rebalance-lab timeline FILE with this story.",
                g.members.len()
            )));
        }
        settings.keep_tenures = partitions as usize <= PARTITION_ROWS;
        simulate(g, &settings, &spec.story)
    });
    // The side-by-side table: four or five runs, on demand.
    // (kept for the spec and the group it ran on)
    #[allow(clippy::type_complexity)]
    let compared = use_state(|| {
        None::<(
            Spec,
            Rc<Group>,
            Rc<Vec<(Variant, Result<Run, TimelineError>)>>,
        )>
    });
    let by_partition = use_state(|| false);
    // the span the keyboard is on in the drawing
    let lane_focus = use_state(|| None::<(usize, usize)>);
    // every request to the coordinator, listed when asked (the run again, request by request)
    let wire_asked = use_state(|| false);
    let wire = use_memo(
        (group.clone(), spec.clone(), *wire_asked),
        |(g, spec, asked)| {
            (*asked && g.members.len() <= WIRE_MEMBERS).then(|| {
                let mut settings = spec.settings;
                settings.keep_tenures = false;
                if settings.protocol == Protocol::Consumer {
                    use rebalance_lab_core::timeline::consumer::{run_traced, Trace};
                    run_traced(g, &settings, &spec.story, Trace::Requests)
                } else {
                    rebalance_lab_core::timeline::classic::run_traced(
                        g,
                        &settings,
                        &spec.story,
                        true,
                    )
                }
                .map(|r| r.wire)
            })
        },
    );
    // a number typed that is not one, said beside the form while the settings are the ones
    // it was typed into (the run keeps the last good one)
    let bad = use_state(|| None::<(Spec, String)>);
    let set = {
        let dispatch = props.dispatch.clone();
        let spec = spec.clone();
        move |f: fn(&mut Spec, &str), value: String| {
            let mut next = spec.clone();
            f(&mut next, &value);
            dispatch.emit(Action::Timeline(Some(next)));
        }
    };
    let set_story = {
        let dispatch = props.dispatch.clone();
        let spec = spec.clone();
        Callback::from(move |story: Story| {
            let mut next = spec.clone();
            next.story = story;
            dispatch.emit(Action::Timeline(Some(next)));
        })
    };
    let on_compare = {
        let compared = compared.clone();
        let group = group.clone();
        let spec = spec.clone();
        Callback::from(move |_: MouseEvent| {
            let mut settings = spec.settings;
            settings.keep_tenures = false;
            compared.set(Some((
                spec.clone(),
                group.clone(),
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
        let chosen = preset(key).as_ref() == Some(&spec);
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
                { lanes(run, &props.scenario, &props.colours, *by_partition, &lane_focus) }
                if !run.tenures.is_empty() {
                    <label class="inline">
                        <input type="checkbox" id="timeline-by-partition" checked={*by_partition}
                            onchange={{
                                let (b, at) = (by_partition.clone(), lane_focus.clone());
                                // (the rows change: the keyboard starts again)
                                Callback::from(move |_: Event| { b.set(!*b); at.set(None); })
                            }} />
                        { " A row per partition" }
                    </label>
                }
                { for run.notes.iter().map(|n| html! { <p class="notice timeline-note">{ n.clone() }</p> }) }
                { events(run) }
                { requests(&spec, run.members.len(), &wire_asked, &wire) }
            </>
        },
        Err(e) => html! { <p class="alert" role="alert" id="timeline-error">{ e.to_string() }</p> },
    };
    let compared_view = compared
        .as_ref()
        .filter(|(s, g, _)| *s == spec && **g == *group && !props.asking)
        .map(|(_, _, runs)| side_by_side(&group, &spec, runs));
    html! {
        <section class="timeline" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{ "Over time" }</h2>
            <ul class="timeline-presets">{ for presets }</ul>
            <div id="timeline-run" aria-live="polite">{ result }</div>
            { settings_form(&group, &spec, set, set_story, bad.clone()) }
            if let Some((_, m)) = bad.as_ref().filter(|(s, _)| *s == spec) {
                <p class="alert" role="alert" id="timeline-field-error">{ m.clone() }</p>
            }
            <p>
                if run.is_ok() && !props.asking {
                    <button id="timeline-compare" onclick={on_compare}>{ if group.lists_its_own() {
                        "Compare eager, cooperative, static members, the consumer protocol and each member's own lists"
                    } else {
                        "Compare eager, cooperative, static members and the consumer protocol"
                    } }</button>
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

/// Every request to the coordinator and its answer, and each coordinator timer that fires:
/// listed when asked, for groups up to [`WIRE_MEMBERS`] members.
fn requests(
    spec: &Spec,
    members: usize,
    asked: &UseStateHandle<bool>,
    wire: &Option<Result<Vec<rebalance_lab_core::timeline::broker_trace::Line>, TimelineError>>,
) -> Html {
    const SHOWN: usize = 400;
    let list = || {
        let ask = {
            let asked = asked.clone();
            Callback::from(move |_: MouseEvent| asked.set(true))
        };
        match wire {
            None => html! {
                <button id="timeline-requests-list" onclick={ask}>{ "List every request to the coordinator" }</button>
            },
            Some(Err(e)) => html! { <p class="alert" role="alert">{ e.to_string() }</p> },
            Some(Ok(lines)) => {
                let rows: Vec<_> = lines.iter().filter_map(|l| l.as_row()).collect();
                let more = rows.len().saturating_sub(SHOWN);
                html! {
                    <>
                        <table id="timeline-requests-table">
                            <caption>{ format!("{} requests, answers and timers, in time order", rows.len()) }</caption>
                            <thead><tr><th scope="col">{ "Time" }</th><th scope="col">{ "Who" }</th><th scope="col">{ "What" }</th></tr></thead>
                            <tbody>
                                { for rows.into_iter().take(SHOWN).map(|(t, who, what)| html! {
                                    <tr><td>{ format!("{:.3} s", t as f64 / 1000.0) }</td><td>{ who }</td><td>{ what }</td></tr>
                                }) }
                            </tbody>
                        </table>
                        if more > 0 {
                            <p>{ format!("… and {more} more (the command line's rebalance-lab timeline --requests lists them all).") }</p>
                        }
                    </>
                }
            }
        }
    };
    html! {
        <div class="timeline-requests" id="timeline-requests">
            <h3>{ "Every request" }</h3>
            if members > WIRE_MEMBERS {
                <p class="hint">{ format!("Listed for groups up to {WIRE_MEMBERS} members (every heartbeat is a line); the command line's rebalance-lab timeline --requests lists any group's.") }</p>
            } else if spec.settings.protocol == Protocol::Consumer {
                <p class="hint">{ "Each ConsumerGroupHeartbeat at the time the coordinator handles it (its member epoch, and the partitions it says it owns when it says), the answer (the member epoch, and the assignment when it carries one; the client hears it a round trip later), and each of the coordinator's timers that fires: the same run, every heartbeat included." }</p>
                { list() }
            } else {
                <p class="hint">{ "Each JoinGroup, SyncGroup, Heartbeat and LeaveGroup at the time the coordinator handles it, its answer (the client hears it a round trip later), and each of its timers that fires: the same run, heartbeats included." }</p>
                { list() }
            }
        </div>
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

/// The events, as a table a screen reader and a keyboard can walk.
fn events(run: &Run) -> Html {
    const SHOWN: usize = 400;
    let shown: Vec<_> = run
        .happenings
        .iter()
        // (what formed the group is left out, but for the settings a script gave a member's
        // first process)
        .filter(|h| h.time_ms >= run.start_ms - 5_000 || h.kind == "config")
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
fn side_by_side(
    group: &Group,
    spec: &Spec,
    runs: &[(Variant, Result<Run, TimelineError>)],
) -> Html {
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
                    <th scope="col">{ "Peak lag" }</th>
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
                                <th scope="row">{ v.label_of(run) }</th>
                                <td>{ c.rebalances }</td>
                                <td>{ format!("{:.1}", c.partition_seconds_paused) }</td>
                                <td>{ secs(c.longest_partition_stop_ms) }</td>
                                <td>{ secs(c.longest_group_stop_ms) }</td>
                                <td>{ format!("{} records", c.peak_lag_records) }</td>
                                <td>{ c.records_read_twice }</td>
                                <td>{ c.records_missed }</td>
                            </tr>
                        }
                    }
                    Err(e) => html! {
                        <tr data-variant={v.name()}><th scope="row">{ v.label(group.assignor_under(v.protocol).0) }</th><td colspan="7">{ e.to_string() }</td></tr>
                    },
                }) }
            </tbody>
        </table>
    }
}
