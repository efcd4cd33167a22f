//! A member's ConsumerProtocolSubscription as hex: editable, decoded live, every field tied
//! to its bytes; and the leader's answer (the ConsumerProtocolAssignment SyncGroup carries).

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
#[derive(Properties, PartialEq)]
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
/// leniencies noted) and the leader's answer for it.
#[function_component]
pub fn BytesPanel(p: &Props) -> Html {
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
            html! {
                <div class="user-data-wrap">
                    <div class="user-data" data-user-data="">
                        <h4>{ "user_data" }</h4>
                        <pre>{ format!("{}\n{}", pretty_hex(&u), ascii_column(&u)) }</pre>
                        if let Some(s) = user_data_text(&u) {
                            <p class="sticky">{ s }</p>
                        }
                    </div>
                </div>
            }
        });
    // The notes (not live regions: the status above is, and stays a patched element).
    let said = html! {
        <div class="notes-wrap">
            if let Some(text) = dropped_text(&dropped, p.version) {
                <p class="note" data-dropped="">{ text }</p>
            }
            <ul class="notes">
                { for notes.iter().map(|n| html! { <li class="note">{ n.clone() }</li> }) }
            </ul>
        </div>
    };
    let error = d.error.as_ref().map(|e| (e.span, e.is_incomplete()));
    let body = html! {
        <>
            { status }
            { said }
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
        <section class="bytes-panel" id="bytes-panel" data-bytes-member={m.id.clone()}>
            { crate::components::glossary::heading("h2", format!("Subscription bytes of {}", m.id), &["generation", "leader"]) }
            <p class="bytes-intro" id="bytes-intro">{ "What this member's consumer sends the group coordinator when it joins a classic group (inside its JoinGroup request): its subscription, the topics it wants, the partitions it owns, its generation and its rack, as the bytes Kafka's ConsumerProtocol writes. Edit them and the member follows; the coordinator passes them to the leader, whose answer is below." }</p>
            <div class="bytes-controls">
                <label>{ "Version " }
                    <select id="subscription-version" onchange={on_version}>
                        { for (0..=3i16).map(|v| html! { <option value={v.to_string()} selected={v == p.version}>{ format!("v{v}") }</option> }) }
                    </select>
                </label>
                if m.subscription.is_some() {
                    <button id="use-form-fields" onclick={p.dispatch.reform(move |_| Action::UseFormFields(i))}>{ "Use the form fields instead" }</button>
                }
                <button id="bytes-close" onclick={p.dispatch.reform(|_| Action::ShowBytes(None))}>{ "Close" }</button>
            </div>
            <label for="subscription-hex">{ "ConsumerProtocolSubscription (hex; paste xxd, hexdump -C, Wireshark dumps or 0x… lists)" }</label>
            <textarea id="subscription-hex" class="hex-input" spellcheck="false" rows="4" value={text} oninput={on_input} />
            { body }
            <h3>{ "The leader's answer: ConsumerProtocolAssignment in SyncGroup" }</h3>
            <pre class="answer-hex" id="assignment-hex">{ pretty_hex(&answer) }</pre>
            <BytesAndTree kind="assignment" bytes={Rc::new(answer.clone())} fields={Rc::new(da.fields.clone())} error={None::<(Span, bool)>} />
        </section>
    }
}
