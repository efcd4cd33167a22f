//! Bytes beside their field tree, painted straight into the DOM and patched in place: the
//! view under both the subscription and the leader's answer. Markup, not `html!`, for the
//! grid's reason, measured on the grid's cells: up to 16 KiB is 16,384 byte cells, and 10,000
//! cells as virtual nodes took 80 to 90 ms to draw against 11 to 12 ms as markup
//! (`bench_cells_as_virtual_nodes_beside_markup` in `tests/web.rs`). Patched in place, a
//! keystroke in a 4 KiB subscription (730 fields) repaints in about 2.5 ms at the median
//! (`bench_typing_in_a_4k_subscription`).

use crate::markup::{byte_cell, field_colour, field_row};
use rebalance_lab_core::protocol::{Field, Span};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub(super) struct ViewProps {
    /// Distinguishes the subscription view from the assignment view.
    pub kind: &'static str,
    /// The message's bytes.
    pub bytes: Rc<Vec<u8>>,
    /// Its decoded fields, in wire order.
    pub fields: Rc<Vec<Field>>,
    /// Where the decode failed, and whether the bytes are only unfinished.
    pub error: Option<(Span, bool)>,
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

/// What the view has painted into the page: each byte drawn with its colour, the fields
/// drawn, the bytes shaded and the field marked.
#[derive(Default)]
struct Painted {
    bytes: Vec<(u8, u8)>,
    fields: Rc<Vec<Field>>,
    shaded: Vec<usize>,
    marked: Option<usize>,
}

impl Painted {
    /// The bytes and the field tree on the page brought to `bytes` and `fields`: each byte with
    /// the colour of the deepest field that holds it (`owners`), only what changed rewritten;
    /// the shading and the tree's mark of what was rewritten let go.
    fn repaint(
        &mut self,
        bytes_ref: &NodeRef,
        tree_ref: &NodeRef,
        owners: &[Option<usize>],
        bytes: &[u8],
        fields: &Rc<Vec<Field>>,
    ) {
        let cells: Vec<(u8, u8)> = bytes
            .iter()
            .take(BYTES_DRAWN)
            .enumerate()
            .map(|(i, b)| {
                let colour = owners.get(i).copied().flatten().map_or(0, field_colour);
                (*b, colour)
            })
            .collect();
        if let Some(el) = bytes_ref.cast::<web_sys::Element>() {
            patch(&el, &self.bytes, &cells, |i, (b, c), s| {
                byte_cell(i, *b, *c, s)
            });
            // Rewritten bytes lost their shading: clear the record of it.
            let children = el.children();
            for i in self.shaded.drain(..) {
                if let Some(c) = children.item(i as u32) {
                    unshade(&c);
                }
            }
        }
        if let Some(el) = tree_ref.cast::<web_sys::Element>() {
            patch(
                &el,
                &self.fields[..self.fields.len().min(FIELDS_DRAWN)],
                &fields[..fields.len().min(FIELDS_DRAWN)],
                field_row,
            );
            if let Some(c) = self
                .marked
                .take()
                .and_then(|i| el.children().item(i as u32))
            {
                let _ = c.class_list().remove_1("selected");
            }
        }
        self.bytes = cells;
        self.fields = fields.clone();
    }

    /// The field at `index` marked in the tree, and its bytes shaded (`sel`: its prefix and
    /// payload), or the bytes where the decode failed (`error`, and whether they are only
    /// unfinished); the previous shading and mark let go.
    fn shade(
        &mut self,
        bytes_ref: &NodeRef,
        tree_ref: &NodeRef,
        index: Option<usize>,
        sel: Option<(Option<Span>, Span)>,
        error: Option<(Span, bool)>,
    ) {
        if let Some(el) = bytes_ref.cast::<web_sys::Element>() {
            let children = el.children();
            let shaded = &mut self.shaded;
            for i in shaded.drain(..) {
                if let Some(c) = children.item(i as u32) {
                    unshade(&c);
                }
            }
            let mut mark = |range: std::ops::Range<usize>, class: &str| {
                for i in range {
                    if let Some(c) = children.item(i as u32) {
                        let _ = c.class_list().add_1(class);
                        shaded.push(i);
                    }
                }
            };
            if let Some((prefix, payload)) = sel {
                if let Some(pr) = prefix {
                    mark(pr.start..pr.end, "pre");
                }
                mark(payload.start..payload.end, "pay");
            }
            if let Some((span, incomplete)) = error {
                let class = if incomplete { "incomplete" } else { "err" };
                mark(span.start..span.end.max(span.start + 1), class);
            }
        }
        if let Some(el) = tree_ref.cast::<web_sys::Element>() {
            let children = el.children();
            if let Some(c) = self.marked.and_then(|i| children.item(i as u32)) {
                let _ = c.class_list().remove_1("selected");
            }
            self.marked = index;
            if let Some(c) = index.and_then(|i| children.item(i as u32)) {
                let _ = c.class_list().add_1("selected");
            }
        }
    }
}

/// Bytes beside their field tree: hovering or focusing a field shades its bytes (prefix and
/// payload apart), hovering a byte shows its field. Both are painted straight into the DOM
/// (a 4 KiB message has 4,096 bytes and hundreds of fields) and their shading updated in
/// place, so a keystroke costs two markup writes.
#[function_component(BytesAndTree)]
pub(super) fn bytes_and_tree(p: &ViewProps) -> Html {
    let selected = use_state(|| None::<usize>);
    let bytes_ref = use_node_ref();
    let tree_ref = use_node_ref();
    let painted = use_mut_ref(Painted::default);
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
    {
        let (bytes_ref, tree_ref, painted, owners) = (
            bytes_ref.clone(),
            tree_ref.clone(),
            painted.clone(),
            owners.clone(),
        );
        use_effect_with(
            (p.bytes.clone(), p.fields.clone()),
            move |(bytes, fields)| {
                painted
                    .borrow_mut()
                    .repaint(&bytes_ref, &tree_ref, &owners, bytes, fields)
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
                painted
                    .borrow_mut()
                    .shade(&bytes_ref, &tree_ref, *index, *sel, *error)
            },
        );
    }
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

/// Takes a byte's shading off, keeping its field colour.
fn unshade(c: &web_sys::Element) {
    let list = c.class_list();
    for class in ["pre", "pay", "err", "incomplete"] {
        let _ = list.remove_1(class);
    }
}
