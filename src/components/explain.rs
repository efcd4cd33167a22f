//! The arithmetic of one topic, with the real numbers, and the common mistakes that apply.

use crate::components::{members_shown, show_all_toggle};
use crate::markup::escape_into;
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
    let Some(a) = c.assignment() else {
        return html! {};
    };
    let chosen = selected
        .and_then(|s| a.topics.iter().find(|t| &t.topic == s))
        .or_else(|| a.topics.first());
    let Some(t) = chosen else { return html! {} };
    let e = explain_topic(&c.input, a, t);
    let on_pick = dispatch.reform(|ev: Event| {
        Action::SelectTopic(Some(
            ev.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        ))
    });
    let range = matches!(a.assignor, AssignorKind::Range | AssignorKind::ServerRange);
    // The table as one escaped markup string: a row per subscriber (up to 200 until "Show
    // all"), each of which would otherwise be several virtual nodes.
    let mut t = String::new();
    if range && e.partitions > 0 {
        t.push_str(&format!(
            "<p class=\"arith\" data-n=\"{0}\" data-m=\"{1}\">n = {0}, m = {1}: n div m = {2}, n mod m = {3}</p>",
            e.partitions, e.subscribers, e.per_member, e.extra
        ));
    }
    for line in &e.summary {
        t.push_str("<p>");
        escape_into(line, &mut t);
        t.push_str("</p>");
    }
    t.push_str("<table class=\"arith-table\"><thead><tr><th>i</th><th>member</th>");
    if range {
        t.push_str("<th>first</th>");
    }
    t.push_str("<th>count</th><th>partitions</th></tr></thead><tbody>");
    for r in e.rows.iter().take(members_shown(*all, e.rows.len())) {
        t.push_str("<tr data-explain-member=\"");
        escape_into(&r.member, &mut t);
        t.push_str(&format!("\"><td>{}</td><td>", r.index));
        escape_into(&r.member, &mut t);
        if r.is_static {
            t.push_str(" (static)");
        }
        t.push_str("</td>");
        if range {
            match r.first {
                Some(f) => t.push_str(&format!("<td>{f}</td>")),
                None => t.push_str("<td>–</td>"),
            }
        }
        t.push_str(&format!("<td>{}</td><td>", r.count));
        escape_into(&partition_list(&r.partitions), &mut t);
        t.push_str("</td></tr>");
    }
    t.push_str("</tbody></table>");
    html! {
        <section class="explain" id="explain" data-explain-topic={e.topic.clone()}>
            <h2>
                { "Why: " }
                <select aria-label="Topic to explain" onchange={on_pick}>
                    { Html::from_html_unchecked({
                        let mut m = String::new();
                        for x in &a.topics {
                            m.push_str("<option value=\"");
                            escape_into(&x.topic, &mut m);
                            m.push_str(if x.topic == e.topic { "\" selected>" } else { "\">" });
                            escape_into(&x.topic, &mut m);
                            m.push_str("</option>");
                        }
                        m.into()
                    }) }
                </select>
            </h2>
            { crate::components::markup("arith-wrap", t) }
            { show_all_toggle(&all, e.rows.len(), "explain") }
            if !e.mistakes.is_empty() {
                { crate::components::markup("mistakes-wrap", {
                    let mut m = String::from("<ul class=\"mistakes\">");
                    for x in &e.mistakes {
                        m.push_str("<li class=\"mistake\">");
                        escape_into(x, &mut m);
                        m.push_str("</li>");
                    }
                    m.push_str("</ul>");
                    m
                }) }
            }
        </section>
    }
}
