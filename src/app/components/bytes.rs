//! A member's ConsumerProtocolSubscription as hex: editable, decoded live, every field tied
//! to its bytes; and the leader's answer (the ConsumerProtocolAssignment SyncGroup carries).

use crate::app::markup::{byte_cell, field_row};
use crate::app::state::Action;
use crate::protocol::hex::{self, ascii_column, pretty_hex};
use crate::protocol::notes::{
    dropped_text, subscription_notes, subscription_summary, user_data_text,
};
use crate::protocol::{
    decode_assignment, decode_subscription, encode_assignment, encode_subscription, Assignment,
    Field, Span, TopicPartitions,
};
use crate::scenario::Member;
use std::rc::Rc;
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

#[derive(Properties, PartialEq)]
struct ViewProps {
    /// Distinguishes the subscription view from the assignment view.
    kind: &'static str,
    bytes: Rc<Vec<u8>>,
    fields: Rc<Vec<Field>>,
    error: Option<(Span, bool)>,
}

/// Brings the children of `el` from `old` to `new` items: rewrites only the items that
/// changed, and appends or removes at the end (typing changes the last few).
fn patch<T: PartialEq>(
    el: &web_sys::Element,
    old: &[T],
    new: &[T],
    markup: impl Fn(usize, &T, &mut String),
) {
    let children = el.children();
    let common = old.len().min(new.len());
    for i in 0..common {
        if old[i] != new[i] {
            if let Some(c) = children.item(i as u32) {
                let mut s = String::new();
                markup(i, &new[i], &mut s);
                c.set_outer_html(&s);
            }
        }
    }
    while children.length() as usize > new.len() {
        match children.item(new.len() as u32) {
            Some(c) => c.remove(),
            None => break,
        }
    }
    if new.len() > common {
        let mut s = String::new();
        for (i, item) in new.iter().enumerate().skip(common) {
            markup(i, item, &mut s);
        }
        let _ = el.insert_adjacent_html("beforeend", &s);
    }
}

/// At most this many bytes and fields are painted per view: a member with 300,000
/// partitions gets a 1.3 MB assignment, whose 1.3 million byte cells would freeze the page
/// for a minute. The note under the view says what is left out.
pub const BYTES_DRAWN: usize = 16 * 1024;
/// See [`BYTES_DRAWN`].
pub const FIELDS_DRAWN: usize = 2_000;

/// Bytes beside their field tree: hovering or focusing a field shades its bytes (prefix and
/// payload apart), hovering a byte shows its field. Both are painted straight into the DOM
/// (a 4 KiB message has 4,096 bytes and hundreds of fields) and their shading updated in
/// place, so a keystroke costs two markup writes.
#[function_component(BytesAndTree)]
fn bytes_and_tree(p: &ViewProps) -> Html {
    let selected = use_state(|| None::<usize>);
    let bytes_ref = use_node_ref();
    let tree_ref = use_node_ref();
    let shaded = use_mut_ref(Vec::<usize>::new);
    let marked = use_mut_ref(|| None::<usize>);
    let drawn = use_mut_ref(|| (Rc::new(Vec::<u8>::new()), Rc::new(Vec::<Field>::new())));
    {
        let (bytes_ref, tree_ref, shaded, marked) = (
            bytes_ref.clone(),
            tree_ref.clone(),
            shaded.clone(),
            marked.clone(),
        );
        use_effect_with(
            (p.bytes.clone(), p.fields.clone()),
            move |(bytes, fields)| {
                let mut drawn = drawn.borrow_mut();
                if let Some(el) = bytes_ref.cast::<web_sys::Element>() {
                    patch(
                        &el,
                        &drawn.0[..drawn.0.len().min(BYTES_DRAWN)],
                        &bytes[..bytes.len().min(BYTES_DRAWN)],
                        |i, b, s| byte_cell(i, *b, s),
                    );
                    // Rewritten bytes lost their shading: clear the record of it.
                    let children = el.children();
                    for i in shaded.borrow_mut().drain(..) {
                        if let Some(c) = children.item(i as u32) {
                            c.set_class_name("byte");
                        }
                    }
                }
                if let Some(el) = tree_ref.cast::<web_sys::Element>() {
                    patch(
                        &el,
                        &drawn.1[..drawn.1.len().min(FIELDS_DRAWN)],
                        &fields[..fields.len().min(FIELDS_DRAWN)],
                        field_row,
                    );
                    if let Some(c) = marked
                        .borrow_mut()
                        .take()
                        .and_then(|i| el.children().item(i as u32))
                    {
                        c.set_class_name("field");
                    }
                }
                *drawn = (bytes.clone(), fields.clone());
            },
        );
    }
    let sel = (*selected)
        .and_then(|i| p.fields.get(i))
        .map(|f| (f.prefix, f.payload));
    {
        let (bytes_ref, tree_ref) = (bytes_ref.clone(), tree_ref.clone());
        use_effect_with(
            (p.bytes.clone(), p.fields.clone(), *selected, sel, p.error),
            move |(_, _, index, sel, error)| {
                if let Some(el) = bytes_ref.cast::<web_sys::Element>() {
                    let children = el.children();
                    let mut shaded = shaded.borrow_mut();
                    for i in shaded.drain(..) {
                        if let Some(c) = children.item(i as u32) {
                            c.set_class_name("byte");
                        }
                    }
                    let mut mark = |range: std::ops::Range<usize>, class: &str| {
                        for i in range {
                            if let Some(c) = children.item(i as u32) {
                                c.set_class_name(class);
                                shaded.push(i);
                            }
                        }
                    };
                    if let Some((prefix, payload)) = sel {
                        if let Some(pr) = prefix {
                            mark(pr.start..pr.end, "byte pre");
                        }
                        mark(payload.start..payload.end, "byte pay");
                    }
                    if let Some((span, incomplete)) = error {
                        let class = if *incomplete {
                            "byte incomplete"
                        } else {
                            "byte err"
                        };
                        mark(span.start..span.end.max(span.start + 1), class);
                    }
                }
                if let Some(el) = tree_ref.cast::<web_sys::Element>() {
                    let children = el.children();
                    let mut marked = marked.borrow_mut();
                    if let Some(c) = marked.and_then(|i| children.item(i as u32)) {
                        c.set_class_name("field");
                    }
                    *marked = *index;
                    if let Some(c) = index.and_then(|i| children.item(i as u32)) {
                        c.set_class_name("field selected");
                    }
                }
            },
        );
    }
    // The deepest field holding each byte: fields come in wire order, parents before their
    // children, so later fields overwrite.
    let owners = {
        let fields = p.fields.clone();
        let len = p.bytes.len();
        use_memo((fields, len), |(fields, len)| {
            let mut owners: Vec<Option<usize>> = vec![None; *len];
            for (i, f) in fields.iter().enumerate() {
                let span = f.span();
                for o in owners.iter_mut().take(span.end).skip(span.start) {
                    *o = Some(i);
                }
            }
            owners
        })
    };
    // One listener for all bytes, one for the tree: the target's data attribute says which.
    let over_bytes = {
        let selected = selected.clone();
        Callback::from(move |e: MouseEvent| {
            let offset = e
                .target_dyn_into::<web_sys::Element>()
                .and_then(|t| t.get_attribute("data-offset"))
                .and_then(|o| o.parse::<usize>().ok());
            if let Some(o) = offset {
                selected.set(owners.get(o).copied().flatten());
            }
        })
    };
    let pick = |selected: UseStateHandle<Option<usize>>| {
        move |target: Option<web_sys::Element>| {
            let index = target
                .and_then(|t| t.closest("[data-index]").ok().flatten())
                .and_then(|t| t.get_attribute("data-index"))
                .and_then(|i| i.parse::<usize>().ok());
            if index.is_some() {
                selected.set(index);
            }
        }
    };
    let over_tree = {
        let f = pick(selected.clone());
        Callback::from(move |e: MouseEvent| f(e.target_dyn_into::<web_sys::Element>()))
    };
    let focus_tree = {
        let f = pick(selected.clone());
        Callback::from(move |e: FocusEvent| f(e.target_dyn_into::<web_sys::Element>()))
    };
    let mouse_out = {
        let selected = selected.clone();
        Callback::from(move |_| selected.set(None))
    };
    let (nb, nf) = (p.bytes.len(), p.fields.len());
    html! {
        <>
            <div class="hex-split" data-view={p.kind}>
                <div class="hex-bytes" ref={bytes_ref} onmouseover={over_bytes} onmouseleave={mouse_out} aria-label="Bytes"></div>
                <ul class="tree" ref={tree_ref} aria-label="Fields" onmouseover={over_tree} onfocusin={focus_tree}></ul>
            </div>
            if nb > BYTES_DRAWN || nf > FIELDS_DRAWN {
                <p class="note" data-cut={p.kind}>{ format!(
                    "Shown: the first {} of {nb} bytes and {} of {nf} fields (the hex above has them all).",
                    nb.min(BYTES_DRAWN),
                    nf.min(FIELDS_DRAWN)
                ) }</p>
            }
        </>
    }
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
    let use_fields = p.dispatch.reform(move |_| Action::UseFormFields(i));
    let close = p.dispatch.reform(|_| Action::ShowBytes(None));

    // What the text holds so far is decoded even while the text is unfinished, so the view
    // keeps showing what was read.
    let (b, hex_error) = parsed;
    let d = decode_subscription(&b);
    let status = match (&hex_error, &d.error) {
        (Some(e), _) => {
            let incomplete = e.is_incomplete();
            html! {
                <p class={classes!("decode-status", if incomplete { "incomplete" } else { "error" })} role="status" data-status={if incomplete { "incomplete" } else { "error" }}>
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
            let sticky = user_data_text(&u);
            html! {
                <div class="user-data" data-user-data="">
                    <h4>{ "user_data" }</h4>
                    <pre>{ format!("{}\n{}", pretty_hex(&u), ascii_column(&u)) }</pre>
                    if let Some(s) = sticky { <p class="sticky">{ s }</p> }
                </div>
            }
        });
    let error = d.error.as_ref().map(|e| (e.span, e.is_incomplete()));
    let body = html! {
        <>
            { status }
            if let Some(text) = dropped_text(&dropped, p.version) {
                <p class="note" data-dropped="">{ text }</p>
            }
            <ul class="notes">{ for notes.iter().map(|n| html! { <li class="note">{ n.clone() }</li> }) }</ul>
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
            <BytesAndTree kind="assignment" bytes={Rc::new(answer.clone())} fields={Rc::new(da.fields.clone())} error={None::<(Span, bool)>} />
        </section>
    }
}
