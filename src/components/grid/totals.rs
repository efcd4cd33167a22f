//! Below the grid: a bar per member with its total, and the members x topics table of
//! counts.

use super::{slot_class, PALETTE};
use crate::components::members_shown;
use crate::Computed;
use rebalance_lab_core::assignor::{AssignorKind, TopicAssignment};
use rebalance_lab_core::scenario::member_id::display_id;
use yew::prelude::*;

/// A bar per member (the first `shown`, in assignor order) with its total, its share of the
/// largest total, and its static badge; hovering or focusing one lights its cells.
pub(super) fn member_bars(
    c: &Computed,
    a: &rebalance_lab_core::assignor::Assignment,
    slots: &[u32],
    shown: usize,
) -> Html {
    let (max, _) = a.max_min();
    let highlight = highlight_callbacks();
    let bars = a.order.iter().take(shown).enumerate().map(|(pos, m)| {
        let member = &c.input.members[*m as usize];
        let total = a.totals[*m as usize];
        // The bar's share of the largest total, in the track's 1,000 units.
        let width = if max == 0 { 0.0 } else { 1000.0 * f64::from(total) / f64::from(max) };
        html! {
            <li key={member.id.clone()} class="member-total" data-member={member.id.clone()} data-total={total.to_string()}
                tabindex="0" onmouseenter={highlight.0.clone()} onmouseleave={highlight.1.clone()} onfocus={highlight.2.clone()} onblur={highlight.3.clone()}>
                <span class={classes!("swatch", slot_class(slots[*m as usize]))} aria-hidden="true">{ pos + 1 }</span>
                <span class="member-name" title={member.id.clone()}>{ display_id(&member.id) }</span>
                <span class="badge-slot">
                    if let Some(instance) = &member.instance_id {
                        <span class="badge" title={format!("group.instance.id = {instance}")}>{ "static" }</span>
                    }
                </span>
                // An SVG rectangle: its width is an attribute, not an inline style (the page's
                // Content-Security-Policy allows none).
                <svg class="bar-track" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                    <rect class={classes!("bar", format!("c{}", slots[*m as usize] % PALETTE as u32))} width={format!("{width:.1}")} height="10" />
                </svg>
                <span class="total">{ if total == 0 { "idle".to_string() } else { total.to_string() } }</span>
            </li>
        }
    });
    html! { <ol class="totals" id="totals">{ for bars }</ol> }
}

/// Hovering or focusing a member's total lights its cells in every topic (and dims the
/// rest): enter, leave, focus, blur.
fn highlight_callbacks() -> (
    Callback<MouseEvent>,
    Callback<MouseEvent>,
    Callback<FocusEvent>,
    Callback<FocusEvent>,
) {
    fn set(e: &Event, on: bool) {
        let Some(li) = e.current_target().and_then(|t| {
            use wasm_bindgen::JsCast;
            t.dyn_into::<web_sys::Element>().ok()
        }) else {
            return;
        };
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(grid) = doc.get_element_by_id("grid") else {
            return;
        };
        if let Ok(lit) = grid.query_selector_all(".cell.lit") {
            for i in 0..lit.length() {
                if let Some(el) = lit.item(i).and_then(|n| {
                    use wasm_bindgen::JsCast;
                    n.dyn_into::<web_sys::Element>().ok()
                }) {
                    let _ = el.class_list().remove_1("lit");
                }
            }
        }
        let _ = li.class_list().toggle_with_force("lit", on);
        let id = li.get_attribute("data-member").unwrap_or_default();
        if !on {
            let _ = grid.class_list().remove_1("highlighting");
            return;
        }
        let _ = grid.class_list().add_1("highlighting");
        // Compare attribute values in code, not in a selector: an id may hold any character.
        if let Ok(cells) = grid.query_selector_all(".cell[data-owner]") {
            for i in 0..cells.length() {
                if let Some(el) = cells.item(i).and_then(|n| {
                    use wasm_bindgen::JsCast;
                    n.dyn_into::<web_sys::Element>().ok()
                }) {
                    if el.get_attribute("data-owner").as_deref() == Some(id.as_str()) {
                        let _ = el.class_list().add_1("lit");
                    }
                }
            }
        }
    }
    (
        Callback::from(|e: MouseEvent| set(&e, true)),
        Callback::from(|e: MouseEvent| set(&e, false)),
        Callback::from(|e: FocusEvent| set(&e, true)),
        Callback::from(|e: FocusEvent| set(&e, false)),
    )
}

/// Topics the counts table shows at most (it is a summary; the grid has every topic).
const TABLE_TOPICS: usize = 12;

/// Members x topics: how many partitions of each topic each member got, the extra one of
/// range's first members marked "+1", so "the first member gets the extra partition of every
/// topic" shows at one look.
pub(super) fn counts_table(
    c: &Computed,
    a: &rebalance_lab_core::assignor::Assignment,
    slots: &[u32],
    all: bool,
) -> Html {
    let topics: Vec<&TopicAssignment> = a
        .topics
        .iter()
        .filter(|t| t.partitions > 0)
        .take(TABLE_TOPICS)
        .collect();
    if topics.is_empty() || a.order.is_empty() {
        return html! {};
    }
    let range = a.assignor == AssignorKind::Range;
    // Per topic, each member's count: one pass over the topic's owners (not one per member).
    let counts: Vec<Vec<u32>> = topics
        .iter()
        .map(|t| {
            let mut per = vec![0u32; c.input.members.len()];
            for o in &t.owners {
                if let Some(x) = per.get_mut(*o as usize) {
                    *x += 1;
                }
            }
            per
        })
        .collect();
    let more = a.topics.iter().filter(|t| t.partitions > 0).count() > TABLE_TOPICS;
    let rows = a.order.iter().take(members_shown(all, a.order.len())).map(|m| {
        let member = &c.input.members[*m as usize];
        let cells = topics.iter().zip(&counts).map(|(t, counts)| {
            let n = counts.get(*m as usize).copied().unwrap_or(0);
            let extra = range
                && !t.rack_aware
                && t.shares()
                    .iter()
                    .find(|s| s.member == *m)
                    .is_some_and(|s| s.index < t.extra());
            html! {
                <td data-count-topic={t.topic.clone()} data-count={n.to_string()} class={extra.then_some("extra")}>
                    { n }
                    if extra {
                        <span class="plus-one" title="one of the n mod m extra partitions">{ " +1" }</span>
                    }
                </td>
            }
        });
        html! {
            <tr data-count-member={member.id.clone()}>
                <th scope="row">
                    <span class={classes!("swatch", slot_class(slots[*m as usize]))} aria-hidden="true"></span>
                    <span class="member-name" title={member.id.clone()}>{ display_id(&member.id) }</span>
                </th>
                { for cells }
                <td class="count-total">{ a.totals[*m as usize] }</td>
            </tr>
        }
    });
    html! {
        <div class="counts-wrap">
            <table class="counts" id="counts">
                <caption>{ "Partitions per member and topic" }{ if more { format!(" (first {TABLE_TOPICS} topics)") } else { String::new() } }</caption>
                <thead><tr>
                    <th scope="col">{ "member" }</th>
                    { for topics.iter().map(|t| html! { <th scope="col" class="topic-title">{ t.topic.clone() }</th> }) }
                    <th scope="col">{ "total" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}
