//! The arithmetic of one topic, with the real numbers, and the common mistakes that apply.

use crate::components::{members_shown, show_all_toggle};
use crate::state::Action;
use crate::Computed;
use rebalance_lab_core::assignor::explain::{explain_topic, partition_list};
use rebalance_lab_core::assignor::AssignorKind;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    /// The topic explained (the first when none is).
    pub selected: Option<String>,
    pub dispatch: Callback<Action>,
}

/// The explanation of the selected topic (the first when none is).
#[function_component]
pub fn Explain(p: &Props) -> Html {
    // Every member's row.
    let all = use_state(|| false);
    let (c, selected, dispatch) = (&*p.computed, p.selected.as_ref(), &p.dispatch);
    let chosen = c.assignment().and_then(|a| {
        selected
            .and_then(|s| a.topics.iter().find(|t| &t.topic == s))
            .or_else(|| a.topics.first())
    });
    // The menu shows the topic explained, however it was chosen: its value is set, since an
    // option's `selected` attribute no longer moves a menu the person has used.
    let menu = use_node_ref();
    {
        let menu = menu.clone();
        use_effect_with(chosen.map(|t| t.topic.clone()), move |topic| {
            if let (Some(m), Some(t)) = (menu.cast::<web_sys::HtmlSelectElement>(), topic) {
                m.set_value(t);
            }
        });
    }
    let (Some(a), Some(t)) = (c.assignment(), chosen) else {
        return html! {};
    };
    let e = explain_topic(&c.input, a, t);
    let on_pick = dispatch.reform(|ev: Event| {
        Action::SelectTopic(Some(
            ev.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        ))
    });
    let range = matches!(a.assignor, AssignorKind::Range | AssignorKind::ServerRange);
    let rows = e
        .rows
        .iter()
        .take(members_shown(*all, e.rows.len()))
        .map(|r| {
            html! {
                <tr data-explain-member={r.member.clone()}>
                    <td>{ r.index }</td>
                    <td>{ r.member.clone() }{ if r.is_static { " (static)" } else { "" } }</td>
                    if range {
                        <td>{ r.first.map_or("–".to_string(), |f| f.to_string()) }</td>
                    }
                    <td>{ r.count }</td>
                    <td>{ partition_list(&r.partitions) }</td>
                </tr>
            }
        });
    html! {
        <section class="explain" id="explain" data-explain-topic={e.topic.clone()}>
            <h2>
                { "Why: " }
                <select aria-label="Topic to explain" ref={menu} onchange={on_pick}>
                    { for a.topics.iter().map(|x| html! {
                        <option value={x.topic.clone()} selected={x.topic == e.topic}>{ x.topic.clone() }</option>
                    }) }
                </select>
            </h2>
            <div class="arith-wrap">
                if range && e.partitions > 0 {
                    <p class="arith" data-n={e.partitions.to_string()} data-m={e.subscribers.to_string()}>
                        { format!("n = {}, m = {}: n div m = {}, n mod m = {}", e.partitions, e.subscribers, e.per_member, e.extra) }
                    </p>
                }
                { for e.summary.iter().map(|line| html! { <p>{ line.clone() }</p> }) }
                <table class="arith-table">
                    <thead><tr>
                        <th>{ "i" }</th><th>{ "member" }</th>
                        if range {
                            <th>{ "first" }</th>
                        }
                        <th>{ "count" }</th><th>{ "partitions" }</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            { show_all_toggle(&all, e.rows.len(), "explain") }
            if !e.mistakes.is_empty() {
                <div class="mistakes-wrap">
                    <ul class="mistakes">{ for e.mistakes.iter().map(|x| html! { <li class="mistake">{ x.clone() }</li> }) }</ul>
                </div>
            }
        </section>
    }
}
