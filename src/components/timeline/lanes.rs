//! The run drawn: a lane per member (or a row per partition) on the story's time axis, in
//! the grid's colours, with the rebalances marked.

use super::*;

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
    /// A partition's span: its consumer (index into the run's members) and the offset it
    /// started from.
    consumer: Option<(usize, u64)>,
}

/// The drawing's rows: a lane per member (its spans consuming and down), or with
/// `by_partition` a row per partition (its consumers' tenures); each row's spans in time
/// order, which the arrow keys follow.
fn rows_of(
    run: &Run,
    scenario: &Scenario,
    colours: &Colours,
    by_partition: bool,
) -> Vec<(String, Vec<Span>)> {
    let slot_of = |m: usize| -> u32 {
        let name = &run.members[m];
        colours
            .slot(name)
            .or_else(|| (m >= scenario.members.len()).then_some(m as u32))
            .unwrap_or(0)
    };
    let mut rows: Vec<(String, Vec<Span>)> = if by_partition && !run.tenures.is_empty() {
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
                        consumer: Some((t.member, t.start_offset)),
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
                // (consuming in the member's colour, then down)
                let lane = spans_of(&run.lanes, m, slot_of(m), false)
                    .chain(spans_of(&run.downtime, m, 0, true))
                    .collect();
                (name.clone(), lane)
            })
            .collect()
    };
    for (_, spans) in &mut rows {
        spans.sort_by_key(|s| (s.from, s.to));
    }
    rows
}

/// Member `m`'s spans in one of the run's per-member lists (its consuming lanes or its
/// downtime), drawn in colour slot `slot`.
fn spans_of(
    list: &[Vec<(i64, i64)>],
    m: usize,
    slot: u32,
    down: bool,
) -> impl Iterator<Item = Span> + '_ {
    list.get(m).into_iter().flatten().map(move |(s, e)| Span {
        from: *s,
        to: *e,
        slot,
        down,
        consumer: None,
    })
}

/// Where the keyboard is in the drawing: a lane and one of its spans.
pub(super) type LaneFocus = UseStateHandle<Option<(usize, usize)>>;

/// The arrow keys over the drawing: up and down to another lane (its span nearest in
/// order), left and right along a lane, Home and End to its first and last span. `spans`:
/// how many spans each lane has.
fn lane_keys(at: LaneFocus, spans: Vec<usize>) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        if spans.is_empty() {
            return;
        }
        // (the drawing may have changed under the focus: back within it)
        let (lane, span) = (*at).unwrap_or((0, 0));
        let lane = lane.min(spans.len() - 1);
        let last = |l: usize| spans[l].saturating_sub(1);
        let next = match e.key().as_str() {
            "ArrowDown" => {
                let l = (lane + 1).min(spans.len() - 1);
                (l, span.min(last(l)))
            }
            "ArrowUp" => {
                let l = lane.saturating_sub(1);
                (l, span.min(last(l)))
            }
            "ArrowRight" => (lane, (span + 1).min(last(lane))),
            "ArrowLeft" => (lane, span.saturating_sub(1)),
            "Home" => (lane, 0),
            "End" => (lane, last(lane)),
            _ => return,
        };
        e.prevent_default();
        at.set(Some(next));
    })
}

/// A lane per member (or a row per partition): when it consumed, when it was down, and the
/// rebalances, on the run's time axis from a little before the story to the end. The
/// drawing takes the focus; the arrow keys then move from span to span, each said below it.
pub(super) fn lanes(
    run: &Run,
    scenario: &Scenario,
    colours: &Colours,
    by_partition: bool,
    at: &LaneFocus,
) -> Html {
    let from = (run.start_ms - 5_000).max(0);
    let span = (run.end_ms - from).max(1) as f64;
    let x = |t: i64| {
        GUTTER + ((t.max(from) - from) as f64 / span * (WIDTH - GUTTER)).clamp(0.0, WIDTH - GUTTER)
    };
    let rows = rows_of(run, scenario, colours, by_partition);
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
    let said = |name: &str, s: &Span| match s.consumer {
        Some((member, offset)) => format!(
            "{name}: consumed by {} from {} to {}, from offset {offset}",
            run.members.get(member).map_or("?", String::as_str),
            secs(s.from),
            secs(s.to)
        ),
        None => format!(
            "{name}: {} from {} to {}",
            if s.down { "down" } else { "consuming" },
            secs(s.from),
            secs(s.to)
        ),
    };
    let focused = (*at).and_then(|(l, k)| Some((l, k, rows.get(l)?.1.get(k)?)));
    let told = match (**at, focused) {
        (_, Some((l, _, span))) => format!(
            "Lane {} of {}: {}.",
            l + 1,
            rows.len(),
            said(&rows[l].0, span)
        ),
        (Some((l, _)), None) if l < rows.len() => format!(
            "Lane {} of {}: {} neither consumed nor was down.",
            l + 1,
            rows.len(),
            rows[l].0
        ),
        _ => "Focus the drawing, then use the arrow keys to go from span to span.".to_string(),
    };
    let onkeydown = lane_keys(at.clone(), rows.iter().map(|r| r.1.len()).collect());
    let onfocus = {
        let at = at.clone();
        let first = rows.iter().position(|r| !r.1.is_empty());
        Callback::from(move |_: FocusEvent| {
            if at.is_none() {
                at.set(first.map(|l| (l, 0)));
            }
        })
    };
    html! {
        <figure class="timeline-figure">
            <svg id="timeline-lanes" viewBox={format!("0 0 {WIDTH} {height}")} preserveAspectRatio="none" role="img" tabindex="0"
                {onkeydown} {onfocus}
                aria-label={format!("A lane per {what} from {} to {}: coloured while it consumes, hatched while it is down; lines mark rebalances. The table of events below says the same.", secs(from), secs(run.end_ms))}
                height={format!("{}", (rows.len() * 14 + 20).min(2000))}>
                { for rows.iter().enumerate().map(|(i, (name, spans))| {
                    let y = i as f64 * LANE;
                    html! {
                        <g class="lane" data-name={name.clone()}>
                            <text class="lane-name" x="2" y={format!("{:.1}", y + LANE - 3.0)}>{ short_name(name) }</text>
                            { for spans.iter().enumerate().map(|(k, span)| {
                                let (x0, x1) = (x(span.from), x(span.to));
                                let mut class = if span.down { classes!("down") } else { classes!("bar", slot_class(span.slot)) };
                                if matches!(focused, Some((l, f, _)) if l == i && f == k) {
                                    class.push("focused");
                                }
                                html! {
                                    <rect {class} x={format!("{x0:.2}")} y={format!("{:.1}", y + 2.0)} width={format!("{:.2}", (x1 - x0).max(0.5))} height={format!("{:.1}", LANE - 4.0)}>
                                        <title>{ said(name, span) }</title>
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
            <p class="hint" id="timeline-lane-focus" aria-live="polite">{ told }</p>
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
