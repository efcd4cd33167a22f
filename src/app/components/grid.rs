//! The colored grid: one row of partition cells per topic, colored by owner and labelled
//! with the owner's index, and one bar per member with its total, in assignor order.

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
    let (max, min) = a.max_min();
    let rows = a.topics.iter().map(|t| {
        let topic = t.topic.clone();
        let select = props.dispatch.reform(move |_| Action::SelectTopic(Some(topic.clone())));
        let selected = props.selected.as_deref() == Some(t.topic.as_str());
        let cells = t.owners.iter().enumerate().map(|(p, owner)| {
            if *owner == UNASSIGNED {
                html! { <span class="cell unowned" data-topic={t.topic.clone()} data-partition={p.to_string()} title={format!("{}-{p}: nobody", t.topic)}>{ "–" }</span> }
            } else {
                let r = rank[*owner as usize];
                let id = &c.input.members[*owner as usize].id;
                html! {
                    <span class={classes!("cell", format!("c{}", r % PALETTE))} data-topic={t.topic.clone()} data-partition={p.to_string()}
                        data-owner={id.clone()} title={format!("{}-{p}: {} (#{r})", t.topic, id)}>{ r.to_string() }</span>
                }
            }
        });
        let status = if t.partitions == 0 {
            "missing from metadata: skipped".to_string()
        } else {
            format!("{} partitions, {} subscribers", t.partitions, t.shares.len())
        };
        html! {
            <div class={classes!("grid-row", selected.then_some("selected"))}>
                <button class="topic-label" data-explain={t.topic.clone()} onclick={select} aria-pressed={selected.to_string()}>
                    <span class="topic-title">{ t.topic.clone() }</span>
                    <span class="topic-status">{ status }</span>
                </button>
                <div class="cells">{ for cells }</div>
            </div>
        }
    });
    let bars = a.order.iter().enumerate().map(|(pos, m)| {
        let member = &c.input.members[*m as usize];
        let total = a.totals[*m as usize];
        let width = if max == 0 { 0.0 } else { 100.0 * total as f64 / max as f64 };
        html! {
            <li class="member-total" data-member={member.id.clone()} data-total={total.to_string()}>
                <span class={classes!("swatch", format!("c{}", pos % PALETTE))}>{ pos.to_string() }</span>
                <span class="member-name">{ member.id.clone() }</span>
                if member.instance_id.is_some() {
                    <span class="badge" title={format!("group.instance.id = {}", member.instance_id.clone().unwrap_or_default())}>{ "static" }</span>
                }
                <span class="bar-track"><span class={classes!("bar", format!("c{}", pos % PALETTE))} style={format!("width:{width:.1}%")}></span></span>
                <span class="total">{ if total == 0 { "idle".to_string() } else { total.to_string() } }</span>
            </li>
        }
    });
    let ratio = if min == 0 {
        if max == 0 { "–".to_string() } else { "∞ (a member is idle)".to_string() }
    } else {
        format!("{:.2}", max as f64 / min as f64)
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
