//! A member's ConsumerProtocolSubscription as hex: editable, decoded live, every field tied
//! to its bytes; and the leader's answer (the ConsumerProtocolAssignment SyncGroup carries).

use crate::markup::escape_into;
use crate::state::Action;
use hex_tree::BytesAndTree;
use rebalance_lab_core::protocol::hex::{self, ascii_column, pretty_hex};
use rebalance_lab_core::protocol::notes::{
    dropped_text, subscription_notes, subscription_summary, user_data_text,
};
use rebalance_lab_core::protocol::{
    decode_assignment, decode_subscription, encode_assignment, encode_subscription, Assignment,
    Span, TopicPartitions,
};
use rebalance_lab_core::scenario::Member;
use std::rc::Rc;
use yew::prelude::*;

mod hex_tree;

pub use hex_tree::{BYTES_DRAWN, FIELDS_DRAWN};

/// What the bytes panel shows of one member.
pub struct Props {
    pub index: usize,
    pub member: Member,
    pub draft: Option<String>,
    pub version: i16,
    /// The member's current assignment, per topic.
    pub assigned: Vec<TopicPartitions>,
    pub dispatch: Callback<Action>,
}

/// The panel: the member's subscription hex (editable, decoded as typed, with Kafka's
/// leniencies noted) and the leader's answer for it. A plain function rather than a
/// component (which would bring its own copy of yew's mount, update and teardown code): it
/// has no state of its own (its bytes view, `BytesAndTree`, has).
pub fn bytes_panel(p: &Props) -> Html {
    let i = p.index;
    let m = &p.member;
    // What the member sends: its raw bytes, or its form fields at the chosen version.
    let (bytes, dropped): (Vec<u8>, Vec<&'static str>) = match &m.subscription {
        Some(b) => (b.clone(), Vec::new()),
        None => match encode_subscription(&m.fields_subscription(), p.version) {
            Ok(e) => (e.bytes, e.dropped),
            Err(_) => (Vec::new(), Vec::new()),
        },
    };
    let text = p.draft.clone().unwrap_or_else(|| pretty_hex(&bytes));
    let parsed = hex::parse_hex_partial(&text);
    let on_input = p
        .dispatch
        .reform(move |e: InputEvent| Action::SetSubscriptionHex {
            index: i,
            text: e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value(),
        });
    let on_version = p
        .dispatch
        .reform(move |e: Event| Action::SetSubscriptionVersion {
            index: i,
            version: e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value()
                .parse()
                .unwrap_or(3),
        });
    // One listener for the panel's two buttons (markup that stays as it is).
    let act = {
        let d = p.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(b) = crate::components::clicked(&e, "button[data-act]") {
                d.emit(if b.has_attribute("data-fields") {
                    Action::UseFormFields(i)
                } else {
                    Action::ShowBytes(None)
                })
            }
        })
    };

    // What the text holds so far is decoded even while the text is unfinished, so the view
    // keeps showing what was read.
    let (b, hex_error) = parsed;
    let d = decode_subscription(&b);
    let status = match (&hex_error, &d.error) {
        (Some(e), _) => {
            let incomplete = e.is_incomplete();
            html! {
                <p class="decode-status" role="status" data-status={if incomplete { "incomplete" } else { "error" }}>
                    { if incomplete { "Unfinished hex: " } else { "Not hex: " } }{ e.to_string() }
                    { format!(" ({} whole bytes so far.)", b.len()) }
                </p>
            }
        }
        (None, Some(e)) if e.is_incomplete() => html! {
            <p class="decode-status incomplete" role="status" data-status="incomplete">
                { format!("Incomplete at byte 0x{:02x}: {} bytes so far; ", e.span.start, b.len()) }{ e.to_string() }
            </p>
        },
        (None, Some(e)) => html! {
            <p class="decode-status error" role="alert" data-status="error">
                { format!("Kafka would refuse these bytes: {e}. The fields read before the failure are shown; this member subscribes to nothing until the bytes decode.") }
            </p>
        },
        (None, None) => html! {
            <p class="decode-status ok" data-status="ok">
                { subscription_summary(&d, b.len()) }
            </p>
        },
    };
    let notes = if hex_error.is_none() {
        subscription_notes(&d)
    } else {
        Vec::new()
    };
    let user_data = d
        .message
        .user_data
        .clone()
        .filter(|u| !u.is_empty() && d.error.is_none())
        .map(|u| {
            let mut m = String::from(
                "<div class=\"user-data\" data-user-data=\"\"><h4>user_data</h4><pre>",
            );
            escape_into(&format!("{}\n{}", pretty_hex(&u), ascii_column(&u)), &mut m);
            m.push_str("</pre>");
            if let Some(s) = user_data_text(&u) {
                m.push_str("<p class=\"sticky\">");
                escape_into(&s, &mut m);
                m.push_str("</p>");
            }
            m.push_str("</div>");
            crate::components::markup("user-data-wrap", m)
        });
    // The notes (not live regions: the status above is, and stays a patched element).
    let mut said = String::new();
    if let Some(text) = dropped_text(&dropped, p.version) {
        said.push_str("<p class=\"note\" data-dropped=\"\">");
        escape_into(&text, &mut said);
        said.push_str("</p>");
    }
    said.push_str("<ul class=\"notes\">");
    for n in &notes {
        said.push_str("<li class=\"note\">");
        escape_into(n, &mut said);
        said.push_str("</li>");
    }
    said.push_str("</ul>");
    let error = d.error.as_ref().map(|e| (e.span, e.is_incomplete()));
    let body = html! {
        <>
            { status }
            { crate::components::markup("notes-wrap", said) }
            <BytesAndTree kind="subscription" bytes={Rc::new(b.clone())} fields={Rc::new(d.fields.clone())} error={error} />
            { for user_data }
        </>
    };

    // The leader's answer, as the Java leader writes it (ConsumerProtocolAssignment v3).
    let answer = encode_assignment(
        &Assignment {
            assigned_partitions: p.assigned.clone(),
            user_data: None,
        },
        3,
    )
    .map(|e| e.bytes)
    .unwrap_or_default();
    let da = decode_assignment(&answer);

    html! {
        <section class="bytes-panel" id="bytes-panel" data-bytes-member={m.id.clone()} onclick={act}>
            { crate::components::glossary::heading("h2", &format!("Subscription bytes of {}", crate::markup::escape(&m.id)), &["generation", "leader"]) }
            <p class="bytes-intro" id="bytes-intro">{ "What this member's consumer sends the group coordinator when it joins a classic group (inside its JoinGroup request): its subscription, the topics it wants, the partitions it owns, its generation and its rack, as the bytes Kafka's ConsumerProtocol writes. Edit them and the member follows; the coordinator passes them to the leader, whose answer is below." }</p>
            <div class="bytes-controls">
                <label>{ "Version " }
                    <select id="subscription-version" onchange={on_version}>
                        { Html::from_html_unchecked((0..=3i16).map(|v| format!("<option value=\"{v}\"{}>v{v}</option>", if v == p.version { " selected" } else { "" })).collect::<String>().into()) }
                    </select>
                </label>
                { Html::from_html_unchecked(AttrValue::Static(if m.subscription.is_some() {
                    "<button id=\"use-form-fields\" data-act data-fields>Use the form fields instead</button><button data-act>Close</button>"
                } else {
                    "<button data-act>Close</button>"
                })) }
            </div>
            { Html::from_html_unchecked(AttrValue::Static("<label for=\"subscription-hex\">ConsumerProtocolSubscription (hex; paste xxd, hexdump -C, Wireshark dumps or 0x… lists)</label>")) }
            <textarea id="subscription-hex" class="hex-input" spellcheck="false" rows="4" value={text} oninput={on_input} />
            { body }
            <h3>{ "The leader's answer: ConsumerProtocolAssignment in SyncGroup" }</h3>
            <pre class="answer-hex" id="assignment-hex">{ pretty_hex(&answer) }</pre>
            <BytesAndTree kind="assignment" bytes={Rc::new(answer.clone())} fields={Rc::new(da.fields.clone())} error={None::<(Span, bool)>} />
        </section>
    }
}
