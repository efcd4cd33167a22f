//! The scale planner.

use super::export::download;
use crate::state::Action;
use rebalance_lab_core::assignor::AssignorKind;
use std::rc::Rc;
use yew::prelude::*;

/// The planner's line colours (the Okabe-Ito palette's, as `styles/layout.css` has them).
const PLAN_COLOURS: [&str; 6] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
];

/// The most partitions the planner assigns in all (its member counts times the group's
/// partitions): about a second of the page's main thread.
const PLAN_WORK: u64 = 20_000_000;

/// The largest member count the planner draws.
const PLAN_CAP: u32 = 1_100;

/// The scale planner: partitions per member, largest and smallest, against the
/// member count for each assignor the page runs fresh (range and round-robin, and the
/// broker's), the group's own count marked and where members start
/// to sit idle; a point (a column of the chart, or a row of its table) applies its count as
/// a what-if against the group now. Drawn when asked for: a thousand groups are assigned.
#[derive(Properties, PartialEq)]
pub struct PlannerProps {
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    pub dispatch: Callback<Action>,
}

#[function_component]
pub fn Planner(p: &PlannerProps) -> Html {
    let dispatch = &p.dispatch;
    let open = use_state(|| false);
    let s = p.scenario.clone();
    // (the joiners' ids: the same for the chart and the what-if its click applies)
    let seed = rebalance_lab_core::scenario::planner::seed_for(&s);
    let lines = {
        let on = *open;
        use_memo((s.clone(), on), move |(s, on)| {
            on.then(|| {
                let kinds = [
                    AssignorKind::Range,
                    AssignorKind::RoundRobin,
                    AssignorKind::Sticky,
                    AssignorKind::CooperativeSticky,
                    AssignorKind::Uniform,
                    AssignorKind::ServerRange,
                ];
                // (a thousand groups of half a million partitions would hold the page for
                // minutes: the counts stop where the work reaches the bound)
                let partitions = s.total_partitions().max(1);
                let last = rebalance_lab_core::scenario::planner::last_count(s, PLAN_CAP)
                    .min((PLAN_WORK / partitions).clamp(1, u64::from(PLAN_CAP)) as u32);
                rebalance_lab_core::scenario::planner::plan(s, &kinds, last, seed)
            })
        })
    };
    let flip = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let try_count = {
        let d = dispatch.clone();
        Callback::from(move |count: u32| d.emit(Action::PlanMembers { count, seed }))
    };
    // the chart as it is drawn, standing alone (its colours are attributes)
    let save = |k: &'static str| {
        let group = s.group_id.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(chart) = gloo::utils::document().get_element_by_id("planner-chart") else {
                return;
            };
            let name =
                rebalance_lab_core::export::file_name(group.as_deref(), &format!("planner.{k}"));
            let mime = if k == "svg" {
                "image/svg+xml"
            } else {
                "image/png"
            };
            download(&name, mime, &chart.outer_html());
        })
    };
    let body = (*lines).clone().map(|lines| {
        let drawn = lines
            .iter()
            .filter_map(|l| l.points.last())
            .map(|p| p.members)
            .max()
            .unwrap_or(0);
        let bound = drawn < rebalance_lab_core::scenario::planner::last_count(&s, PLAN_CAP);
        html! { <>
            <PlannerChart lines={Rc::new(lines)} own={s.members.len() as u32} try_count={try_count.clone()} />
            if bound {
                <p class="hint" id="planner-bound">{ format!("Drawn up to {drawn} members: the page assigns at most {PLAN_WORK} partitions in all for the planner (member counts times this group's partitions).") }</p>
            }
            <p class="export-buttons">
                <button id="planner-svg" onclick={save("svg")}>{ "Chart as SVG" }</button>
                <button id="planner-png" onclick={save("png")}>{ "Chart as PNG" }</button>
            </p>
        </> }
    });
    html! {
        <section class="planner" id="planner">
            <h3>{ "Scale planner" }</h3>
            <button id="planner-toggle" aria-pressed={open.to_string()} onclick={flip}>
                { if *open { "Hide the planner" } else { "Plan the group's size: partitions per member from 1 member up" } }
            </button>
            { for body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct PlannerChartProps {
    lines: Rc<Vec<rebalance_lab_core::scenario::planner::Line>>,
    /// The group's own member count, marked on the chart.
    own: u32,
    /// Applies a member count as a what-if.
    try_count: Callback<u32>,
}

/// The chart as SVG (`#planner-chart`: a `polyline` per assignor for the largest and the
/// smallest total, the group's own count marked, a column per count that applies it), the
/// counts where members start to sit idle, and the same numbers as a table.
#[function_component]
fn PlannerChart(p: &PlannerChartProps) -> Html {
    use rebalance_lab_core::scenario::planner::idle_from;
    let (lines, own) = (&*p.lines, p.own);
    const W: u32 = 720;
    const H: u32 = 260;
    const L: u32 = 44;
    const B: u32 = 30;
    // the title's room above the plot, and the key's below it (the chart stands alone as a
    // file: both are in the picture)
    const T: u32 = 24;
    let full_h = H + 10 + 16 * lines.len() as u32;
    let last = lines
        .iter()
        .filter_map(|l| l.points.last())
        .map(|p| p.members)
        .max()
        .unwrap_or(1)
        .max(1);
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter())
        .map(|p| p.max)
        .max()
        .unwrap_or(1)
        .max(1);
    let x = |n: u32| L + (W - L - 10) * (n.saturating_sub(1)) / last.saturating_sub(1).max(1);
    let y = |v: u32| T + (H - T - B) * (top - v.min(top)) / top;
    // lines that would lie on one another (two assignors with the same figures) are drawn
    // 1.5 px apart, so each stays visible
    let offset = |k: usize| (k as f64 - (lines.len() as f64 - 1.0) / 2.0) * 1.5;
    let try_it = |n: u32| p.try_count.reform(move |_: MouseEvent| n);
    let axes = html! { <>
        <rect class="bg" width={W.to_string()} height={full_h.to_string()} fill="#fff" />
        <text x="4" y="16" font-weight="bold" fill="#222">{ format!("Partitions per member, largest (solid) and smallest (dashed), for 1 to {last} members") }</text>
        <line class="axis" stroke="#666" x1={L.to_string()} y1={(H - B).to_string()} x2={(W - 10).to_string()} y2={(H - B).to_string()} />
        <line class="axis" stroke="#666" x1={L.to_string()} y1={T.to_string()} x2={L.to_string()} y2={(H - B).to_string()} />
        <text x={L.to_string()} y={(H - B + 14).to_string()} class="tick" fill="#555">{ "1" }</text>
        <text x={(W - 10).to_string()} y={(H - B + 14).to_string()} class="tick" fill="#555" text-anchor="end">{ format!("{last} members") }</text>
        <text x={(L - 4).to_string()} y={(y(top) + 4).to_string()} class="tick" fill="#555" text-anchor="end">{ top.to_string() }</text>
        <text x={(L - 4).to_string()} y={(y(0) + 4).to_string()} class="tick" fill="#555" text-anchor="end">{ "0" }</text>
        if own >= 1 && own <= last {
            <line class="now" stroke="#333" stroke-dasharray="4 3" x1={x(own).to_string()} y1={T.to_string()} x2={x(own).to_string()} y2={(H - B).to_string()} />
            <text class="tick" fill="#555" x={x(own).to_string()} y={(H - 4).to_string()} text-anchor="middle">{ format!("now: {own}") }</text>
        }
    </> };
    let polylines = lines.iter().enumerate().flat_map(|(k, l)| {
        [("max", (|p: &rebalance_lab_core::scenario::planner::Point| p.max) as fn(&_) -> u32), ("min", |p| p.min)]
            .into_iter()
            .map(move |(which, get)| {
                let points: Vec<String> = l
                    .points
                    .iter()
                    .map(|p| format!("{},{:.1}", x(p.members), f64::from(y(get(p))) + offset(k)))
                    .collect();
                html! {
                    <polyline class={format!("plan-line plan-{k} plan-{which}")} fill="none" stroke-width="2"
                        stroke={PLAN_COLOURS[k % PLAN_COLOURS.len()]}
                        stroke-dasharray={(which == "min").then_some("6 4")}
                        data-assignor={l.kind.name()} data-line={which} points={points.join(" ")} />
                }
            })
    });
    // a column per count: clicking it applies that count (its title says what it is)
    let step = f64::from(W - L - 10) / f64::from(last.max(1));
    let columns = (1..=last).map(|n| {
        let mut t = format!("{n} members:");
        for l in lines {
            if let Some(p) = l.points.get(n as usize - 1) {
                t.push_str(&format!(" {} {} to {}", l.kind.name(), p.min, p.max));
                if p.idle > 0 {
                    t.push_str(&format!(", {} idle", p.idle));
                }
                t.push(';');
            }
        }
        html! {
            <rect class="plan-hit" fill="transparent" data-plan={n.to_string()}
                x={format!("{:.1}", f64::from(x(n)) - step / 2.0)} y={T.to_string()} width={format!("{:.1}", step.max(1.0))}
                height={(H - T - B).to_string()} onclick={try_it(n)}>
                <title>{ t.trim_end_matches(';').to_string() }</title>
            </rect>
        }
    });
    let key = lines.iter().enumerate().map(|(k, l)| {
        let idle = match idle_from(l) {
            Some(n) => format!("members sit idle from {n}"),
            None => "nobody sits idle".into(),
        };
        html! {
            <li data-assignor={l.kind.name()} data-idle-from={idle_from(l).unwrap_or(0).to_string()}>
                <span class={format!("plan-swatch plan-{k}")}></span>
                { format!("{}: solid the largest, dashed the smallest; {idle}", l.kind.name()) }
            </li>
        }
    });
    // the numbers as a table: every count up to 60, then every tenth and the last
    let rows = (1..=last).filter(|n| *n <= 60 || n % 10 == 0 || *n == last || *n == own).map(|n| html! {
        <tr data-plan-members={n.to_string()}>
            <th scope="row">{ n }</th>
            { for lines.iter().map(|l| match l.points.get(n as usize - 1) {
                Some(p) => html! {
                    <td data-assignor={l.kind.name()} data-max={p.max.to_string()} data-min={p.min.to_string()}>{ format!("{} / {}", p.max, p.min) }</td>
                },
                None => html! { <td>{ "–" }</td> },
            }) }
            <td><button id={format!("plan-try-{n}")} onclick={try_it(n)}>{ format!("Try {n}") }</button></td>
        </tr>
    });
    html! { <>
        <svg id="planner-chart" xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {W} {full_h}")} width={W.to_string()} height={full_h.to_string()}
            role="img" aria-labelledby="planner-title">
            <title id="planner-title">{ format!("Partitions per member, largest and smallest, for 1 to {last} members; this group has {own}") }</title>
            { axes }
            { for polylines }
            { for columns }
            // the key, in the picture too
            <g class="plan-legend">
                { for lines.iter().enumerate().map(|(k, l)| {
                    let ly = H + 10 + 16 * k as u32;
                    html! { <>
                        <line x1={L.to_string()} x2={(L + 24).to_string()} y1={ly.to_string()} y2={ly.to_string()}
                            stroke={PLAN_COLOURS[k % PLAN_COLOURS.len()]} stroke-width="3" />
                        <text x={(L + 30).to_string()} y={(ly + 4).to_string()} fill="#222">{ l.kind.name() }</text>
                    </> }
                }) }
            </g>
        </svg>
        <ul class="plan-key">{ for key }</ul>
        <p class="hint">{ "Fresh assignments (nobody owns anything yet), the group grown as \"members: N\" grows it. Click a column, or a row below, to try that many members as a what-if against the group now. Lines with the same figures are drawn 1.5 px apart, so each shows." }</p>
        // (its being open is the browser's: yew never writes the attribute)
        <details id="planner-table">
            <summary>{ "The numbers" }</summary>
            <table class="compare">
                <thead><tr>
                    <th scope="col">{ "members" }</th>
                    { for lines.iter().map(|l| html! { <th scope="col">{ format!("{} max / min", l.kind.name()) }</th> }) }
                    <th scope="col"></th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </details>
    </> }
}
