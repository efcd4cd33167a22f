//! The colored grid: one row of partition cells per topic, colored by owner and labelled
//! with the owner's index, and one bar per member with its total, in assignor order.
//!
//! Cells carry only what a person and a test need (class, data attributes, label) and are
//! painted straight into the DOM, touching only the cells whose owner changed.

use crate::app::components::{members_shown, show_all_toggle};
use crate::app::markup::escape_into;
use crate::app::state::Action;
use crate::app::Computed;
use crate::assignor::{explain, UNASSIGNED};
use std::rc::Rc;
use yew::prelude::*;

/// Colours cycle over this many (Okabe-Ito) CSS custom properties.
pub const PALETTE: usize = 8;

/// At most this many cells are drawn per topic, and in all: a million cells would freeze the
/// page for most of a minute. A row that stops early says who owns the rest.
pub const CELLS_PER_TOPIC: usize = 2_000;
/// See [`CELLS_PER_TOPIC`].
pub const CELLS_IN_ALL: usize = 20_000;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    pub selected: Option<String>,
    pub dispatch: Callback<Action>,
}

/// A cell's owner as the row needs it: its label (rank) and id; `moved` when it changed
/// owner since the pinned baseline.
#[derive(Clone, PartialEq)]
pub struct Owner {
    pub rank: usize,
    pub id: AttrValue,
    pub moved: bool,
}

#[derive(Properties, PartialEq)]
struct RowProps {
    topic: AttrValue,
    status: AttrValue,
    owners: Rc<Vec<Option<Owner>>>,
    /// For a row drawn in part: who owns the partitions not drawn.
    rest: Option<AttrValue>,
    selected: bool,
    dispatch: Callback<Action>,
}

const CELL_CLASS: [&str; PALETTE] = [
    "cell c0", "cell c1", "cell c2", "cell c3", "cell c4", "cell c5", "cell c6", "cell c7",
];

/// What a row's cells show now, to touch only the cells that change.
#[derive(Default)]
struct Drawn {
    topic: AttrValue,
    owners: Vec<Option<Owner>>,
    /// The cell elements, fetched once after the row's markup is written.
    cells: Vec<web_sys::Element>,
}

/// The markup of a whole row of cells (names escaped).
fn row_markup(topic: &str, owners: &[Option<Owner>]) -> String {
    let mut t = String::new();
    escape_into(topic, &mut t);
    let mut s = String::with_capacity(owners.len() * (64 + t.len()));
    for (p, o) in owners.iter().enumerate() {
        match o {
            None => {
                s.push_str("<span class=\"cell unowned\" data-topic=\"");
                s.push_str(&t);
                s.push_str(&format!("\" data-partition=\"{p}\">–</span>"));
            }
            Some(o) => {
                s.push_str("<span class=\"");
                s.push_str(CELL_CLASS[o.rank % PALETTE]);
                s.push_str("\" data-topic=\"");
                s.push_str(&t);
                s.push_str(&format!("\" data-partition=\"{p}\" data-owner=\""));
                escape_into(&o.id, &mut s);
                s.push('"');
                if o.moved {
                    s.push_str(" data-moved=\"true\"");
                }
                s.push_str(&format!(">{}</span>", o.rank));
            }
        }
    }
    s
}

/// Paints the cells straight into the DOM: at teaching scale (2,000 cells) an edit costs a
/// few DOM writes per cell that changed (measured faster here than rewriting the row's
/// markup, even when most cells change), instead of a virtual node per cell. A new row, or
/// one whose topic or partition count changed, is written as markup once.
fn paint(el: &web_sys::Element, drawn: &mut Drawn, topic: &AttrValue, owners: &[Option<Owner>]) {
    if drawn.topic == *topic && drawn.owners.as_slice() == owners {
        return;
    }
    if drawn.owners.len() != owners.len() || drawn.topic != *topic {
        el.set_inner_html(&row_markup(topic, owners));
        let children = el.children();
        drawn.cells = (0..children.length())
            .filter_map(|i| children.item(i))
            .collect();
    } else {
        for (i, o) in owners.iter().enumerate() {
            let old = &drawn.owners[i];
            if old == o {
                continue;
            }
            let Some(cell) = drawn.cells.get(i) else {
                continue;
            };
            match o {
                None => {
                    cell.set_class_name("cell unowned");
                    let _ = cell.remove_attribute("data-owner");
                    cell.set_text_content(Some("–"));
                }
                Some(o) => {
                    if old.as_ref().map(|x| x.rank) != Some(o.rank) {
                        cell.set_class_name(CELL_CLASS[o.rank % PALETTE]);
                        cell.set_text_content(Some(&o.rank.to_string()));
                    }
                    if old.as_ref().map(|x| &x.id) != Some(&o.id) {
                        let _ = cell.set_attribute("data-owner", &o.id);
                    }
                }
            }
            let (was, is) = (
                old.as_ref().is_some_and(|x| x.moved),
                o.as_ref().is_some_and(|x| x.moved),
            );
            if is && !was {
                let _ = cell.set_attribute("data-moved", "true");
            } else if was && !is {
                let _ = cell.remove_attribute("data-moved");
            }
        }
    }
    drawn.topic = topic.clone();
    drawn.owners = owners.to_vec();
}

#[function_component(GridRow)]
fn grid_row(p: &RowProps) -> Html {
    let topic = p.topic.clone();
    let select = p
        .dispatch
        .reform(move |_| Action::SelectTopic(Some(topic.to_string())));
    let cells = use_node_ref();
    let drawn = use_mut_ref(Drawn::default);
    // A cell's tooltip is written when the pointer reaches it, from its data attributes
    // (so it is always current): repaints then carry no tooltip text at all.
    let tooltip = Callback::from(|e: MouseEvent| {
        let Some(cell) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        if !cell.has_attribute("data-partition") {
            return;
        }
        let get = |a: &str| cell.get_attribute(a).unwrap_or_default();
        let owner = match cell.get_attribute("data-owner") {
            Some(o) => format!("{o} (#{})", cell.text_content().unwrap_or_default()),
            None => "nobody".to_string(),
        };
        let moved = if cell.has_attribute("data-moved") {
            ", moved since the baseline"
        } else {
            ""
        };
        let _ = cell.set_attribute(
            "title",
            &format!(
                "{}-{}: {owner}{moved}",
                get("data-topic"),
                get("data-partition")
            ),
        );
    });
    {
        let cells = cells.clone();
        use_effect_with(
            (p.topic.clone(), p.owners.clone()),
            move |(topic, owners)| {
                if let Some(el) = cells.cast::<web_sys::Element>() {
                    paint(&el, &mut drawn.borrow_mut(), topic, owners);
                }
            },
        );
    }
    html! {
        <div class={classes!("grid-row", p.selected.then_some("selected"))}>
            <button class="topic-label" data-explain={p.topic.clone()} onclick={select} aria-pressed={p.selected.to_string()}>
                <span class="topic-title">{ p.topic.clone() }</span>
                <span class="topic-status">{ p.status.clone() }</span>
            </button>
            <div class="cells" ref={cells} onmouseover={tooltip}></div>
            if let Some(rest) = &p.rest {
                <p class="rest" data-rest-topic={p.topic.clone()}>{ rest.clone() }</p>
            }
        </div>
    }
}

#[function_component(Grid)]
pub fn grid(props: &Props) -> Html {
    // Before any early return: hooks run in the same order on every render.
    let all = use_state(|| false);
    let c = &props.computed;
    let Some(a) = c.assignment() else {
        return html! {
            <p class="notice" role="status">{ "This version runs the range and round-robin assignors; choose one of them to see the grid." }</p>
        };
    };
    // Position of each member in assignor order: its label and colour.
    let mut rank = vec![0usize; c.input.members.len()];
    for (pos, m) in a.order.iter().enumerate() {
        rank[*m as usize] = pos;
    }
    let ids: Vec<AttrValue> = c
        .input
        .members
        .iter()
        .map(|m| AttrValue::from(m.id.clone()))
        .collect();
    let (max, min) = a.max_min();
    let mut budget = CELLS_IN_ALL;
    let rows = a.topics.iter().enumerate().map(|(ti, t)| {
        let moved = c.diff.as_ref().and_then(|d| d.moved_cells.get(ti));
        let status = if t.partitions == 0 {
            "missing from metadata: skipped".to_string()
        } else {
            format!("{} partitions, {} subscribers", t.partitions, t.shares.len())
        };
        let shown = t.owners.len().min(CELLS_PER_TOPIC).min(budget);
        budget -= shown;
        let rest = (shown < t.owners.len())
            .then(|| AttrValue::from(explain::rest_of_topic(&c.input, t, shown)));
        let owners: Vec<Option<Owner>> = t.owners[..shown]
            .iter()
            .enumerate()
            .map(|(p, o)| {
                (*o != UNASSIGNED).then(|| Owner {
                    rank: rank[*o as usize],
                    id: ids[*o as usize].clone(),
                    moved: moved.and_then(|m| m.get(p)).copied().unwrap_or(false),
                })
            })
            .collect();
        html! {
            <GridRow key={t.topic.clone()} topic={AttrValue::from(t.topic.clone())} status={AttrValue::from(status)}
                owners={Rc::new(owners)} rest={rest}
                selected={props.selected.as_deref() == Some(t.topic.as_str())} dispatch={props.dispatch.clone()} />
        }
    });
    let bars = a.order.iter().take(members_shown(*all, a.order.len())).enumerate().map(|(pos, m)| {
        let member = &c.input.members[*m as usize];
        let total = a.totals[*m as usize];
        // Per mille, in integers: float formatting would add kilobytes to the bundle.
        let width = (total as u64 * 1000).checked_div(max as u64).unwrap_or(0);
        html! {
            <li key={member.id.clone()} class="member-total" data-member={member.id.clone()} data-total={total.to_string()}>
                <span class={classes!("swatch", format!("c{}", pos % PALETTE))}>{ pos.to_string() }</span>
                <span class="member-name">{ member.id.clone() }</span>
                <span class="badge-slot">
                    if let Some(instance) = &member.instance_id {
                        <span class="badge" title={format!("group.instance.id = {instance}")}>{ "static" }</span>
                    }
                </span>
                // An SVG rectangle: its width is an attribute, not an inline style (the page's
                // Content-Security-Policy allows none).
                <svg class="bar-track" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                    <rect class={classes!("bar", format!("c{}", pos % PALETTE))} width={width.to_string()} height="10" />
                </svg>
                <span class="total">{ if total == 0 { "idle".to_string() } else { total.to_string() } }</span>
            </li>
        }
    });
    let ratio = if min == 0 && max == 0 {
        "–".to_string()
    } else if min == 0 {
        "∞ (a member is idle)".to_string()
    } else {
        explain::ratio(max, min)
    };
    html! {
        <div class="grid-wrap">
            <h2>{ "Assignment" }</h2>
            if a.topics.is_empty() {
                <p class="notice">{ "No member subscribes to any topic yet." }</p>
            }
            <div class="grid" id="grid">{ for rows }</div>
            <h3>{ "Partitions per member, in assignor order" }</h3>
            <ol class="totals" id="totals">{ for bars }</ol>
            { show_all_toggle(&all, a.order.len(), "totals") }
            <p class="skew" id="skew" data-max={max.to_string()} data-min={min.to_string()}>
                { format!("max {max}, min {min}, max/min {ratio}") }
            </p>
        </div>
    }
}
