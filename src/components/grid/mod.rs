//! The colored grid: one row of partition cells per topic, each cell labelled with its
//! partition number and coloured by its owner's own colour (which follows the member, not
//! its position: [`rebalance_lab_core::scenario::colours`]); the partitions range hands to the first
//! members as the n mod m extra ones are marked; in a what-if, a moved cell carries a corner
//! in its previous owner's colour. Then one bar per member with its total, in assignor
//! order, and a members x topics table of counts.
//!
//! Cells carry only what a person and a test need (class, data attributes, label) and are
//! painted straight into the DOM, touching only the cells whose owner changed.

use crate::components::{members_shown, show_all_toggle};
use crate::state::Action;
use crate::Computed;
use rebalance_lab_core::assignor::{explain, AssignorKind, TopicAssignment, UNASSIGNED};
use rebalance_lab_core::scenario::colours::{self, Colours};
use std::rc::Rc;
use yew::prelude::*;

mod row;
mod totals;

use row::{grid_keys, CellLag, GridRow, LaterPaints, Owner};
use totals::{counts_table, member_bars};

/// Colours cycle over this many (Okabe-Ito) CSS custom properties.
pub const PALETTE: usize = colours::PALETTE as usize;

/// The CSS classes of a colour slot: colour and pattern.
pub fn slot_class(slot: u32) -> String {
    let (c, p) = colours::classes(slot);
    format!("c{c} p{p}")
}

/// At most this many cells are drawn per topic, and in all: a million cells would freeze the
/// page for most of a minute. A row that stops early says who owns the rest.
pub const CELLS_PER_TOPIC: usize = 2_000;
/// See [`CELLS_PER_TOPIC`].
pub const CELLS_IN_ALL: usize = 20_000;
/// A new row that starts after the grid's first this many cells is painted after the
/// repaint, in a later task (the row is `aria-busy` until then; a row that starts before is
/// painted whole, so up to this many plus a row's 2,000 are painted at once): writing 20,000
/// cells in one task held the main thread 100 to 270 ms more, at the sticky assignors' bound
/// and at 500,000 partitions (tests/web.rs, the longest-task benchmarks).
pub const CELLS_AT_ONCE: usize = 4_000;

/// The same for a row already on screen, whose repaint rewrites its markup: cheaper than a
/// first draw, and every later task gives the browser a frame in which it lays the whole page
/// out again. Switching the assignor at 1,000 x 10,000 with the page's stylesheets: about 35
/// ms with every row repainted at once, about 60 to 75 with the first 4,000 cells at once
/// (tests/web.rs, `bench_a_thousand_members_beside_the_floor`); at 500,000 partitions the
/// longest task stays under the 200 ms goal.
pub const CELLS_REPAINTED_AT_ONCE: usize = 10_000;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    pub colours: Rc<Colours>,
    pub selected: Option<String>,
    /// The cells the learner picked for a lesson step's prediction: (topic, partition).
    pub picked: Vec<(String, u32)>,
    /// A lesson step asks for cells: a click, or Space or Enter, picks a cell or lets it go.
    pub picking: bool,
    /// A lesson step asks (whatever its question): the owners are hidden.
    pub owners_hidden: bool,
    /// An imported group's lag, while it is shown on the grid.
    pub lag: Option<Rc<crate::state::Imported>>,
    /// Which group the grid shows, in a sentence ([`crate::state::AppState::group_shown`]).
    pub shows: AttrValue,
    pub dispatch: Callback<Action>,
}

/// The grid: repainted only when its props change (the computation, the colours, the topic
/// explained, a lesson's picks). Its rows are components too: each repaints only when its
/// own cells change.
#[function_component]
pub fn Grid(props: &Props) -> Html {
    // Before any early return: hooks run in the same order on every render.
    let all = use_state(|| false);
    // The rows painted after the repaint, batched.
    let queue = use_memo((), |_| LaterPaints::default());
    // The last grid drawn: kept on screen, unchanged (the app says it is computing, and the
    // panel is busy), while a large group's worker computes the next; rebuilding it twice
    // (taken down, then drawn again) cost more than the repaint of the cells that change.
    let last = use_mut_ref(Html::default);
    let c = &props.computed;
    let Some(a) = c.assignment() else {
        if c.pending {
            return last.borrow().clone();
        }
        *last.borrow_mut() = Html::default();
        return html! {
            <p class="notice" role="status">{ match c.failure() {
                Some(e) => format!("No assignment to draw: {e}"),
                None => "No assignment to draw.".to_string(),
            } }</p>
        };
    };
    let slots: Vec<u32> = c
        .input
        .members
        .iter()
        .map(|m| props.colours.slot(&m.id).unwrap_or(0))
        .collect();
    let ids: Vec<AttrValue> = c
        .input
        .members
        .iter()
        .map(|m| AttrValue::from(m.id.clone()))
        .collect();
    let (max, min) = a.max_min();
    let cells = Cells::new(props, a, &slots, &ids);
    let mut budget = CELLS_IN_ALL;
    let rows = a.topics.iter().enumerate().map(|(ti, t)| {
        let shown = t.owners.len().min(CELLS_PER_TOPIC).min(budget);
        // (a row past the grid's budget draws no cells: nothing to paint later)
        let starts_at = CELLS_IN_ALL - budget;
        budget -= shown;
        let status = if t.partitions == 0 {
            "missing from metadata: skipped".to_string()
        } else {
            format!("{} partitions, {} subscribers", t.partitions, t.subscribers())
        };
        let rest = (shown < t.owners.len())
            .then(|| AttrValue::from(explain::rest_of_topic(&c.input, t, shown)));
        html! {
            <GridRow key={t.topic.clone()} topic={AttrValue::from(t.topic.clone())} status={AttrValue::from(status)}
                lag={Rc::new(cells.lag(t, shown))}
                owners={Rc::new(cells.owners(ti, t, shown))} rest={rest} {starts_at} queue={(*queue).clone()}
                selected={props.selected.as_deref() == Some(t.topic.as_str())}
                picked={Rc::new(props.picked.iter().filter(|(topic, _)| *topic == t.topic).map(|(_, p)| *p).collect::<Vec<_>>())}
                picking={props.picking} owners_hidden={props.owners_hidden} dispatch={props.dispatch.clone()} />
        }
    });
    let bars = member_bars(c, a, &slots, members_shown(*all, a.order.len()));
    let ratio = if min == 0 && max == 0 {
        "–".to_string()
    } else if min == 0 {
        "∞ (a member is idle)".to_string()
    } else {
        explain::ratio(max, min)
    };
    let view = html! {
        <div class="grid-wrap">
            { crate::components::glossary::heading("h2", "Assignment".into(), &["assignment"]) }
            <p class="grid-shows" id="grid-shows">{ props.shows.clone() }</p>
            if a.topics.is_empty() {
                <p class="notice">{ "No member subscribes to any topic yet." }</p>
            }
            <div class="grid" id="grid" role={(!a.topics.is_empty()).then_some("grid")} data-lag-on={props.lag.is_some().then_some("")}
                aria-label="Partitions by topic and owner" onkeydown={Callback::from(grid_keys)}>{ for rows }</div>
            <p class="grid-key">
                { "Each cell is a partition, labelled with its number and coloured by its owner (hover or focus a cell to read who; the arrow keys move between cells). " }
                if a.assignor == AssignorKind::Range {
                    <span class="key-extra">{ "A dot marks the extra partitions range gives the first members (n mod m per topic). " }</span>
                }
                if c.diff.is_some() {
                    <span class="key-moved">{ "A corner in another colour marks a partition that moved; the corner is its previous owner's colour." }</span>
                }
            </p>
            <h3>{ "Partitions per member, in assignor order" }</h3>
            { bars }
            { show_all_toggle(&all, a.order.len(), "totals") }
            { counts_table(c, a, &slots, *all) }
            <p class="skew" id="skew" data-max={max.to_string()} data-min={min.to_string()}>{ format!("max {max}, min {min}, max/min {ratio}") }</p>
        </div>
    };
    *last.borrow_mut() = view.clone();
    view
}

/// What the grid's rows draw of each cell: its owner (with the moved and extra marks, or
/// cooperative-sticky's revocation) and an imported group's lag.
struct Cells<'a> {
    props: &'a Props,
    assignment: &'a rebalance_lab_core::assignor::Assignment,
    slots: &'a [u32],
    ids: &'a [AttrValue],
    /// Cooperative-sticky's revoked partitions, a run per topic (one pass, not a search per
    /// cell).
    revoked:
        std::collections::HashMap<&'a str, &'a [rebalance_lab_core::assignor::sticky::Withheld]>,
    /// The largest lag on the cells drawn (each cell's level is relative to it).
    largest_lag: i64,
}

impl<'a> Cells<'a> {
    fn new(
        props: &'a Props,
        assignment: &'a rebalance_lab_core::assignor::Assignment,
        slots: &'a [u32],
        ids: &'a [AttrValue],
    ) -> Self {
        let revoked = assignment
            .withheld
            .chunk_by(|x, y| x.topic == y.topic)
            .map(|run| (run[0].topic.as_str(), run))
            .collect();
        let mut cells = Cells {
            props,
            assignment,
            slots,
            ids,
            revoked,
            largest_lag: 0,
        };
        if props.lag.is_none() {
            return cells;
        }
        cells.largest_lag = assignment
            .topics
            .iter()
            .flat_map(|t| {
                let cells = &cells;
                (0..t.owners.len().min(CELLS_PER_TOPIC))
                    .filter_map(move |p| cells.lag_of(&t.topic, p))
            })
            .max()
            .unwrap_or(0);
        cells
    }

    /// An imported group's lag of one partition, never below 0.
    fn lag_of(&self, topic: &str, p: usize) -> Option<i64> {
        (*self.props.lag.as_ref()?.lag.get(topic)?.get(p)?).map(|l| l.max(0))
    }

    /// Each drawn cell's lag level (0 to 4) and lag, while the lag is shown.
    fn lag(&self, t: &TopicAssignment, shown: usize) -> Vec<CellLag> {
        if self.props.lag.is_none() {
            return Vec::new();
        }
        (0..shown)
            .map(|p| {
                let l = self.lag_of(&t.topic, p)?;
                let level = if self.largest_lag <= 0 || l == 0 {
                    0
                } else {
                    1 + (i128::from(l) * 3 / i128::from(self.largest_lag)).min(3) as u8
                };
                Some((level, l))
            })
            .collect()
    }

    /// Each drawn cell's owner: who owns it, who owned it at the baseline when it moved,
    /// whether it is one of range's extra partitions; or, in cooperative-sticky's first
    /// round, who gives it up and who gets it.
    fn owners(&self, ti: usize, t: &TopicAssignment, shown: usize) -> Vec<Option<Owner>> {
        let (c, slots, ids) = (&self.props.computed, self.slots, self.ids);
        let moved = c.diff.as_ref().and_then(|d| d.moved_cells.get(ti));
        let extra = extra_partitions(self.assignment.assignor, t);
        let mut revoked_at: Vec<Option<&rebalance_lab_core::assignor::sticky::Withheld>> =
            Vec::new();
        if let Some(run) = self.revoked.get(t.topic.as_str()) {
            revoked_at.resize(shown, None);
            for w in *run {
                if let Some(x) = usize::try_from(w.partition)
                    .ok()
                    .and_then(|p| revoked_at.get_mut(p))
                {
                    *x = Some(w);
                }
            }
        }
        t.owners[..shown]
            .iter()
            .enumerate()
            .map(|(p, o)| {
                (*o != UNASSIGNED)
                    .then(|| {
                        let from = moved
                            .and_then(|m| m.get(p))
                            .copied()
                            .unwrap_or(false)
                            .then(|| c.baseline.as_ref().and_then(|b| b.owner(&t.topic, p)))
                            .flatten()
                            .map(|id| {
                                (
                                    AttrValue::from(id.to_string()),
                                    self.props.colours.slot(id).unwrap_or(0),
                                )
                            });
                        Owner {
                            slot: slots[*o as usize],
                            id: ids[*o as usize].clone(),
                            from,
                            extra: extra.get(p).copied().unwrap_or(false),
                            revoking: false,
                        }
                    })
                    .or_else(|| {
                        // cooperative-sticky round 1: revoked now, handed over in round 2
                        let w = revoked_at.get(p).copied().flatten()?;
                        let to = ids.get(w.to as usize)?.clone();
                        let from = w.from.first().and_then(|f| {
                            Some((ids.get(*f as usize)?.clone(), *slots.get(*f as usize)?))
                        });
                        Some(Owner {
                            slot: *slots.get(w.to as usize)?,
                            id: to,
                            from,
                            extra: false,
                            revoking: true,
                        })
                    })
            })
            .collect()
    }
}

/// Per partition of `t`, whether it is one of the n mod m extra partitions range gives the
/// first members: each of the first n mod m subscribers gets one more, and the last of its
/// range is that one. Only for plain range (rack-aware ranges are not contiguous).
fn extra_partitions(kind: AssignorKind, t: &TopicAssignment) -> Vec<bool> {
    let mut out = vec![false; t.owners.len()];
    if kind != AssignorKind::Range || t.rack_aware || t.extra() == 0 {
        return out;
    }
    for s in t.shares().iter().filter(|s| s.index < t.extra()) {
        if let Some(first) = s.first {
            let last = (first + s.quota).saturating_sub(1) as usize;
            if let Some(x) = out.get_mut(last) {
                *x = t.owners[last] == s.member;
            }
        }
    }
    out
}
