//! The colored grid: one row of partition cells per topic, colored by owner and labelled
//! with the owner's index, and one bar per member with its total, in assignor order.
//!
//! Cells carry only what a person and a test need (class, data attributes, label), built
//! from shared strings, so a repaint at teaching scale allocates little and touches only the
//! cells whose owner changed.

use crate::app::state::Action;
use crate::app::Computed;
use crate::assignor::UNASSIGNED;
use std::rc::Rc;
use yew::prelude::*;

/// Colours cycle over this many (Okabe-Ito) CSS custom properties.
pub const PALETTE: usize = 8;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    pub selected: Option<String>,
    pub dispatch: Callback<Action>,
}

/// A cell's owner as the row needs it: its label (rank) and id.
#[derive(Clone, PartialEq)]
struct Owner {
    rank: usize,
    id: AttrValue,
}

#[derive(Properties, PartialEq)]
struct RowProps {
    topic: AttrValue,
    status: AttrValue,
    owners: Rc<Vec<Option<Owner>>>,
    selected: bool,
    dispatch: Callback<Action>,
}

const CELL_CLASS: [&str; PALETTE] = [
    "cell c0", "cell c1", "cell c2", "cell c3", "cell c4", "cell c5", "cell c6", "cell c7",
];

thread_local! {
    /// Partition numbers as shared strings, so a repaint allocates none.
    static NUMBERS: std::cell::RefCell<Vec<AttrValue>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn number(n: usize) -> AttrValue {
    NUMBERS.with(|v| {
        let mut v = v.borrow_mut();
        while v.len() <= n {
            let k = v.len();
            v.push(AttrValue::from(k.to_string()));
        }
        v[n].clone()
    })
}

#[function_component(GridRow)]
fn grid_row(p: &RowProps) -> Html {
    let topic = p.topic.clone();
    let select = p
        .dispatch
        .reform(move |_| Action::SelectTopic(Some(topic.to_string())));
    let cells = p.owners.iter().enumerate().map(|(i, o)| match o {
        None => html! { <span class="cell unowned" data-topic={p.topic.clone()} data-partition={number(i)}>{ "–" }</span> },
        Some(o) => html! {
            <span class={CELL_CLASS[o.rank % PALETTE]} data-topic={p.topic.clone()} data-partition={number(i)} data-owner={o.id.clone()}>{ number(o.rank) }</span>
        },
    });
    html! {
        <div class={classes!("grid-row", p.selected.then_some("selected"))}>
            <button class="topic-label" data-explain={p.topic.clone()} onclick={select} aria-pressed={p.selected.to_string()}>
                <span class="topic-title">{ p.topic.clone() }</span>
                <span class="topic-status">{ p.status.clone() }</span>
            </button>
            <div class="cells">{ for cells }</div>
        </div>
    }
}

#[function_component(Grid)]
pub fn grid(props: &Props) -> Html {
    let c = &props.computed;
    let Some(a) = &c.assignment else {
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
    let rows = a.topics.iter().map(|t| {
        let status = if t.partitions == 0 {
            "missing from metadata: skipped".to_string()
        } else {
            format!("{} partitions, {} subscribers", t.partitions, t.shares.len())
        };
        html! {
            <GridRow topic={AttrValue::from(t.topic.clone())} status={AttrValue::from(status)}
                owners={Rc::new(t.owners.iter().map(|o| (*o != UNASSIGNED).then(|| Owner { rank: rank[*o as usize], id: ids[*o as usize].clone() })).collect::<Vec<_>>())}
                selected={props.selected.as_deref() == Some(t.topic.as_str())} dispatch={props.dispatch.clone()} />
        }
    });
    let bars = a.order.iter().enumerate().map(|(pos, m)| {
        let member = &c.input.members[*m as usize];
        let total = a.totals[*m as usize];
        // Per mille, in integers: float formatting would add kilobytes to the bundle.
        let width = (total as u64 * 1000).checked_div(max as u64).unwrap_or(0);
        html! {
            <li class="member-total" data-member={member.id.clone()} data-total={total.to_string()}>
                <span class={classes!("swatch", format!("c{}", pos % PALETTE))}>{ pos.to_string() }</span>
                <span class="member-name">{ member.id.clone() }</span>
                if let Some(instance) = &member.instance_id {
                    <span class="badge" title={format!("group.instance.id = {instance}")}>{ "static" }</span>
                }
                <span class="bar-track"><span class={classes!("bar", format!("c{}", pos % PALETTE))} style={format!("width:{}.{}%", width / 10, width % 10)}></span></span>
                <span class="total">{ if total == 0 { "idle".to_string() } else { total.to_string() } }</span>
            </li>
        }
    });
    let ratio = if min == 0 && max == 0 {
        "–".to_string()
    } else if min == 0 {
        "∞ (a member is idle)".to_string()
    } else {
        crate::assignor::explain::ratio(max, min)
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
            <p class="skew" id="skew" data-max={max.to_string()} data-min={min.to_string()}>
                { format!("max {max}, min {min}, max/min {ratio}") }
            </p>
        </div>
    }
}
