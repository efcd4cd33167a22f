//! A member's ConsumerProtocolSubscription as hex: editable, decoded live, every field tied
//! to its bytes; and the leader's answer (the ConsumerProtocolAssignment SyncGroup carries).

use crate::app::state::Action;
use crate::protocol::sticky::{decode_sticky_user_data, StickyUserData};
use crate::protocol::{
    decode_assignment, decode_subscription, encode_assignment, encode_subscription, hex,
    Assignment, Decoded, FieldValue, Note, Span, Subscription, TopicPartitions,
};
use crate::scenario::Member;
use yew::prelude::*;

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

/// Hex for a textarea: byte pairs, 16 to a line.
pub fn pretty_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, chunk) in bytes.chunks(16).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        for (j, b) in chunk.iter().enumerate() {
            if j > 0 {
                s.push(' ');
            }
            s.push_str(&hex::to_hex(&[*b]));
        }
    }
    s
}

fn value_text(v: &FieldValue) -> String {
    match v {
        FieldValue::Int(n) => n.to_string(),
        FieldValue::Text(t) => format!("\"{t}\""),
        FieldValue::Bytes(n) => format!("{n} bytes"),
        FieldValue::Null => "null".into(),
        FieldValue::Array(n) => format!("{n} elements"),
        FieldValue::Struct => String::new(),
    }
}

fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| {
            if b.is_ascii_graphic() || *b == b' ' {
                *b as char
            } else {
                '.'
            }
        })
        .collect()
}

#[derive(Properties, PartialEq)]
struct ViewProps {
    /// Distinguishes the subscription view from the assignment view in ids.
    kind: &'static str,
    bytes: Vec<u8>,
    fields: Vec<(String, u8, Option<Span>, Span, String)>,
    error: Option<(Span, bool)>,
}

/// Bytes beside their field tree: hovering or focusing a field shades its bytes (prefix and
/// payload apart), hovering a byte shows its field.
#[function_component(BytesAndTree)]
fn bytes_and_tree(p: &ViewProps) -> Html {
    let selected = use_state(|| None::<usize>);
    // The deepest field holding each byte.
    let owner_of = |offset: usize| -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, f) in p.fields.iter().enumerate() {
            let whole = Span::new(f.2.map_or(f.3.start, |s| s.start), f.3.end);
            if whole.contains(offset) && best.is_none_or(|b| p.fields[b].1 <= f.1) {
                best = Some(i);
            }
        }
        best
    };
    let sel = (*selected).and_then(|i| p.fields.get(i));
    let bytes = p.bytes.iter().enumerate().map(|(i, b)| {
        let mut class = classes!("byte");
        if let Some(f) = sel {
            if f.2.is_some_and(|s| s.contains(i)) {
                class.push("pre");
            } else if f.3.contains(i) {
                class.push("pay");
            }
        }
        if let Some((span, incomplete)) = p.error {
            if i >= span.start && (i < span.end.max(span.start + 1)) {
                class.push(if incomplete { "incomplete" } else { "err" });
            }
        }
        let field = owner_of(i);
        let over = {
            let selected = selected.clone();
            Callback::from(move |_| selected.set(field))
        };
        html! { <span class={class} data-offset={i.to_string()} onmouseover={over}>{ hex::to_hex(&[*b]) }</span> }
    });
    let rows = p.fields.iter().enumerate().map(|(i, (path, depth, prefix, payload, value))| {
        let whole = Span::new(prefix.map_or(payload.start, |s| s.start), payload.end);
        let over = {
            let selected = selected.clone();
            Callback::from(move |_: MouseEvent| selected.set(Some(i)))
        };
        let focus = {
            let selected = selected.clone();
            Callback::from(move |_: FocusEvent| selected.set(Some(i)))
        };
        let is_sel = *selected == Some(i);
        let len_text = match prefix {
            Some(pr) => format!("@0x{:04x} +{} ({} prefix, {} payload)", whole.start, whole.len(), pr.len(), payload.len()),
            None => format!("@0x{:04x} +{}", whole.start, whole.len()),
        };
        html! {
            <li class={classes!("field", is_sel.then_some("selected"))} tabindex="0" style={format!("padding-left:{}em", *depth as u32)}
                data-field={path.clone()} data-bytes={format!("{}-{}", whole.start, whole.end)}
                onmouseover={over} onfocus={focus}>
                <span class="field-path">{ path.clone() }</span>
                <span class="field-value">{ value.clone() }</span>
                <span class="field-where">{ len_text }</span>
            </li>
        }
    });
    let mouse_out = {
        let selected = selected.clone();
        Callback::from(move |_| selected.set(None))
    };
    html! {
        <div class="hex-split" data-view={p.kind}>
            <div class="hex-bytes" onmouseleave={mouse_out} aria-label="Bytes">{ for bytes }</div>
            <ul class="tree" aria-label="Fields">{ for rows }</ul>
        </div>
    }
}

fn rows_of<T>(d: &Decoded<T>) -> Vec<(String, u8, Option<Span>, Span, String)> {
    d.fields
        .iter()
        .map(|f| {
            (
                f.path.to_string(),
                f.depth,
                f.prefix,
                f.payload,
                value_text(&f.value),
            )
        })
        .collect()
}

fn notes_of(d: &Decoded<Subscription>) -> Vec<String> {
    let mut out: Vec<String> = d
        .notes
        .iter()
        .map(|n| match n {
            Note::VersionReadAs { header, read_as } => {
                format!("The header says version {header}; Kafka reads a newer version as {read_as}, the newest it knows, and so does this view.")
            }
            Note::TrailingBytes { span } => format!(
                "{} trailing bytes at 0x{:04x} after the last field: Kafka ignores them.",
                span.len(),
                span.start
            ),
            Note::InvalidUtf8 { field, .. } => {
                format!("{field} is not valid UTF-8: Kafka replaces the bad bytes with U+FFFD (shown as �).")
            }
        })
        .collect();
    if d.error.is_none() {
        let m = &d.message;
        out.push(match &m.user_data {
            None => "user_data is null (length -1).".to_string(),
            Some(u) if u.is_empty() => {
                "user_data is empty, not null (length 0), as librdkafka sends it.".to_string()
            }
            Some(u) => format!("user_data: {} bytes.", u.len()),
        });
        if d.version >= 3 {
            out.push(match &m.rack_id {
                None => "rack_id is null: no rack.".to_string(),
                Some(r) if r.is_empty() => "rack_id is empty, not null: also no rack (librdkafka sends \"\" without client.rack).".to_string(),
                Some(r) => format!("rack_id is \"{r}\"."),
            });
        }
        if d.version >= 2 && m.generation_id < 0 {
            out.push(format!(
                "generation_id {} is negative: no generation.",
                m.generation_id
            ));
        }
    }
    out
}

#[function_component(BytesPanel)]
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
    let parsed = hex::parse_hex(&text);
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
    let use_fields = p.dispatch.reform(move |_| Action::UseFormFields(i));
    let close = p.dispatch.reform(|_| Action::ShowBytes(None));

    let body = match &parsed {
        Err(e) => {
            let incomplete = e.is_incomplete();
            html! {
                <p class={classes!("decode-status", if incomplete { "incomplete" } else { "error" })} role="status" data-status={if incomplete { "incomplete" } else { "error" }}>
                    { if incomplete { "Unfinished hex: " } else { "Not hex: " } }{ e.to_string() }
                </p>
            }
        }
        Ok(b) => {
            let d = decode_subscription(b);
            let status = match &d.error {
                Some(e) if e.is_incomplete() => html! {
                    <p class="decode-status incomplete" role="status" data-status="incomplete">
                        { format!("Incomplete at byte 0x{:02x}: {} so far; ", e.span.start, b.len()) }{ e.to_string() }
                    </p>
                },
                Some(e) => html! {
                    <p class="decode-status error" role="alert" data-status="error">
                        { format!("Kafka would refuse these bytes: {e}. The fields read before the failure are shown; this member subscribes to nothing until the bytes decode.") }
                    </p>
                },
                None => html! {
                    <p class="decode-status ok" data-status="ok">
                        { format!("Version {} · {} bytes · {} topics", d.header_version.unwrap_or(0), b.len(), d.message.topics.len()) }
                    </p>
                },
            };
            let notes = notes_of(&d);
            let user_data = d
                .message
                .user_data
                .clone()
                .filter(|u| !u.is_empty() && d.error.is_none())
                .map(|u| {
                    let sticky = decode_sticky_user_data(&u).map(|s| match s {
                        StickyUserData::Sticky {
                            previous,
                            generation,
                        } => {
                            let list: Vec<String> = previous
                                .iter()
                                .map(|tp| format!("{} {:?}", tp.topic, tp.partitions))
                                .collect();
                            format!(
                                "As StickyAssignor user data: previous partitions {}{}.",
                                if list.is_empty() {
                                    "none".to_string()
                                } else {
                                    list.join(", ")
                                },
                                generation
                                    .map(|g| format!(", generation {g}"))
                                    .unwrap_or_default()
                            )
                        }
                        StickyUserData::Cooperative { generation } => {
                            format!(
                                "As CooperativeStickyAssignor user data: generation {generation}."
                            )
                        }
                    });
                    html! {
                        <div class="user-data" data-user-data="">
                            <h4>{ "user_data" }</h4>
                            <pre>{ format!("{}\n{}", pretty_hex(&u), ascii(&u)) }</pre>
                            if let Some(s) = sticky { <p class="sticky">{ s }</p> }
                        </div>
                    }
                });
            let error = d.error.as_ref().map(|e| (e.span, e.is_incomplete()));
            html! {
                <>
                    { status }
                    if !dropped.is_empty() {
                        <p class="note">{ format!("{} not sent at version {}.", dropped.join(" and "), p.version) }</p>
                    }
                    <ul class="notes">{ for notes.iter().map(|n| html! { <li class="note">{ n.clone() }</li> }) }</ul>
                    <BytesAndTree kind="subscription" bytes={b.clone()} fields={rows_of(&d)} error={error} />
                    { for user_data }
                </>
            }
        }
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
            <h2>{ format!("Subscription bytes of {}", m.id) }</h2>
            <div class="bytes-controls">
                <label>{ "Version " }
                    <select id="subscription-version" onchange={on_version}>
                        { for (0..=3).map(|v: i16| html! { <option value={v.to_string()} selected={v == p.version}>{ format!("v{v}") }</option> }) }
                    </select>
                </label>
                if m.subscription.is_some() {
                    <button id="use-form-fields" onclick={use_fields}>{ "Use the form fields instead" }</button>
                }
                <button onclick={close}>{ "Close" }</button>
            </div>
            <label for="subscription-hex">{ "ConsumerProtocolSubscription (hex; paste xxd, hexdump -C, Wireshark dumps or 0x… lists)" }</label>
            <textarea id="subscription-hex" class="hex-input" spellcheck="false" rows="4" value={text} oninput={on_input} />
            { body }
            <h3>{ "The leader's answer: ConsumerProtocolAssignment in SyncGroup" }</h3>
            <pre class="answer-hex" id="assignment-hex">{ pretty_hex(&answer) }</pre>
            <BytesAndTree kind="assignment" bytes={answer.clone()} fields={rows_of(&da)} error={None::<(Span, bool)>} />
        </section>
    }
}
