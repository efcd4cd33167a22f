//! A topic's row of cells, painted straight into the DOM: written as markup when new, then
//! patched cell by cell; rows past the first thousands painted after the repaint, in
//! batches.

use super::{CELLS_AT_ONCE, CELLS_REPAINTED_AT_ONCE};
use crate::markup::escape_into;
use crate::state::Action;
use rebalance_lab_core::scenario::colours;
use std::fmt::Write;
use std::rc::Rc;
use yew::prelude::*;

/// The rows painted after the repaint, run in tasks of about [`CELLS_AT_ONCE`] cells each:
/// a task per row let the browser lay the whole page out again between rows (switching the
/// assignor at 1,000 x 10,000 spent more time there than painting), and one task for all of
/// them held the main thread too long at 20,000 cells.
#[derive(Clone, Default)]
pub(super) struct LaterPaints(Rc<std::cell::RefCell<PaintQueue>>);

#[derive(Default)]
struct PaintQueue {
    /// Each row's paint, with its number of cells.
    waiting: std::collections::VecDeque<(usize, Box<dyn FnOnce()>)>,
    /// The task that runs the next batch.
    timer: Option<gloo::timers::callback::Timeout>,
}

impl PartialEq for LaterPaints {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl LaterPaints {
    /// Queues a row's paint (`cells`: how many cells it writes) for a task after this one.
    fn push(&self, cells: usize, paint: Box<dyn FnOnce()>) {
        let mut q = self.0.borrow_mut();
        q.waiting.push_back((cells, paint));
        if q.timer.is_none() {
            q.timer = Some(self.next_task());
        }
    }

    fn next_task(&self) -> gloo::timers::callback::Timeout {
        let queue = self.clone();
        gloo::timers::callback::Timeout::new(0, move || queue.run_batch())
    }

    /// Runs the paints waiting, up to about [`CELLS_AT_ONCE`] cells (one row at least), and
    /// leaves the rest for the next task.
    fn run_batch(&self) {
        let mut cells = 0;
        loop {
            let next = {
                let mut q = self.0.borrow_mut();
                match q.waiting.front() {
                    Some((n, _)) if cells == 0 || cells + n <= CELLS_AT_ONCE => {
                        cells += n;
                        q.waiting.pop_front()
                    }
                    _ => None,
                }
            };
            match next {
                Some((_, paint)) => paint(),
                None => break,
            }
        }
        let mut q = self.0.borrow_mut();
        q.timer = (!q.waiting.is_empty()).then(|| self.next_task());
    }
}

/// A cell's lag as the grid shows it: a level from 0 to 4 (relative to the largest lag on
/// the grid; `data-lag`, a bar whose height says it: styles/grid.css) and the lag itself.
pub type CellLag = Option<(u8, i64)>;

/// A cell's owner as the row needs it: its colour slot and id; `from` (the baseline
/// owner's id and slot) when it changed owner since the pinned baseline; `extra` when it is
/// one of the n mod m partitions range hands to the first members.
#[derive(Clone, PartialEq)]
pub struct Owner {
    pub slot: u32,
    pub id: AttrValue,
    pub from: Option<(AttrValue, u32)>,
    pub extra: bool,
    /// Cooperative-sticky round 1: the partition is revoked from `from` and nobody owns it
    /// until the follow-up rebalance gives it to `id`.
    pub revoking: bool,
}

#[derive(Properties, PartialEq)]
pub(super) struct RowProps {
    pub(super) topic: AttrValue,
    pub(super) status: AttrValue,
    pub(super) owners: Rc<Vec<Option<Owner>>>,
    /// For a row drawn in part: who owns the partitions not drawn.
    pub(super) rest: Option<AttrValue>,
    /// How many cells the grid draws before this row's: past [`CELLS_AT_ONCE`] (a new row)
    /// or [`CELLS_REPAINTED_AT_ONCE`] (a row on screen), the row is painted after the
    /// repaint, in the grid's queue.
    pub(super) starts_at: usize,
    pub(super) queue: LaterPaints,
    pub(super) selected: bool,
    /// The partitions of this topic picked for a lesson's prediction (`aria-selected`).
    pub(super) picked: Rc<Vec<u32>>,
    /// A lesson step asks for cells: clicking a cell picks it.
    pub(super) picking: bool,
    /// A lesson step asks: the owners are hidden, in the cells' names too.
    pub(super) owners_hidden: bool,
    /// Each cell's lag, while an imported group's lag is shown (empty otherwise).
    pub(super) lag: Rc<Vec<CellLag>>,
    pub(super) dispatch: Callback<Action>,
}

/// A cell's class attribute.
fn cell_class(o: &Owner) -> String {
    let mut c = String::new();
    write_cell_class(&mut c, o);
    c
}

/// [`cell_class`], written into `s` (a row's markup: no string of its own per cell).
fn write_cell_class(s: &mut String, o: &Owner) {
    let (c, p) = colours::classes(o.slot);
    let _ = write!(s, "cell c{c} p{p}");
    if let Some((_, from)) = &o.from {
        let _ = write!(s, " from-c{}", colours::classes(*from).0);
    }
}

/// What a row's cells show now, to touch only the cells that change.
#[derive(Default)]
struct Drawn {
    topic: AttrValue,
    owners: Vec<Option<Owner>>,
    /// The row's cell elements (the live collection: a cell is fetched only when it changes,
    /// not all 10,000 of a large grid as it opens).
    cells: Option<web_sys::HtmlCollection>,
    /// The partitions marked picked.
    picked: Vec<u32>,
    /// The lag marked on each cell.
    lag: Vec<CellLag>,
    /// The cells' names say the owner is hidden (a lesson asks).
    owners_hidden: bool,
}

/// A cell's role and place in the keyboard order: each row's first cell is a Tab stop; the
/// arrow keys reach the others ([`grid_keys`]).
fn focus(p: usize) -> &'static str {
    if p == 0 {
        " role=\"gridcell\" tabindex=\"0\""
    } else {
        " role=\"gridcell\""
    }
}

/// The grid's keyboard model, on the grid itself (one listener for every cell): the arrow
/// keys move between cells, left and right in a topic, up and down to the same partition
/// (or the last one) of the topic above or below; Home and End go to a topic's first and
/// last cell. The cell reached gets the focus (and so its accessible name, [`cell_title`]).
pub(super) fn grid_keys(e: KeyboardEvent) {
    let Some(cell) = e.target_dyn_into::<web_sys::Element>() else {
        return;
    };
    if !cell.has_attribute("data-partition") {
        return;
    }
    let key = e.key();
    let next = match key.as_str() {
        "ArrowRight" => cell.next_element_sibling(),
        "ArrowLeft" => cell.previous_element_sibling(),
        "Home" => cell.parent_element().and_then(|c| c.first_element_child()),
        "End" => cell.parent_element().and_then(|c| c.last_element_child()),
        "ArrowDown" | "ArrowUp" => {
            let row = cell.closest(".grid-row").ok().flatten();
            let other = row.and_then(|r| {
                if key == "ArrowDown" {
                    r.next_element_sibling()
                } else {
                    r.previous_element_sibling()
                }
            });
            let cells = other.and_then(|r| r.query_selector(".cells").ok().flatten());
            cells.and_then(|c| {
                let kids = c.children();
                let at: u32 = cell
                    .get_attribute("data-partition")
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(0);
                kids.item(at.min(kids.length().saturating_sub(1)))
            })
        }
        _ => return,
    };
    if let Some(next) =
        next.and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(n).ok())
    {
        e.prevent_default();
        if !next.has_attribute("tabindex") {
            let _ = next.set_attribute("tabindex", "-1");
        }
        let _ = next.focus();
    }
}

/// The markup of a whole row of cells (names escaped). The cells are the one part of the
/// grid written as markup rather than `html!`: the same 10,000 cells (class, role, name, data
/// attributes) as one virtual node each took 80 to 90 ms to draw and 44 to 57 ms to repaint
/// with every owner changed, against 11 to 12 ms as markup, with the page's stylesheets
/// (`bench_cells_as_virtual_nodes_beside_markup` in `tests/web.rs`); a grid holds up to
/// 20,000 cells in view.
fn row_markup(topic: &str, owners: &[Option<Owner>], owners_hidden: bool) -> String {
    let mut t = String::new();
    escape_into(topic, &mut t);
    // Each cell's accessible name says its owner, so a screen reader browsing the grid
    // hears it (not only a cell that gets the focus); while a lesson asks, that the owner is
    // hidden.
    let label = |s: &mut String, p: usize, owner: Option<&str>| {
        let _ = write!(s, " aria-label=\"{t} partition {p}: ");
        match owner {
            _ if owners_hidden => s.push_str("owner hidden until you check"),
            Some(o) => escape_into(o, s),
            None => s.push_str("nobody owns it"),
        }
        s.push('"');
    };
    let mut s = String::with_capacity(owners.len() * (80 + t.len()));
    for (p, o) in owners.iter().enumerate() {
        match o {
            None => {
                s.push_str("<span class=\"cell unowned\"");
                s.push_str(focus(p));
                label(&mut s, p, None);
                s.push_str(" data-topic=\"");
                s.push_str(&t);
                let _ = write!(s, "\" data-partition=\"{p}\">{p}</span>");
            }
            Some(o) if o.revoking => {
                s.push_str("<span class=\"");
                write_cell_class(&mut s, o);
                s.push_str(" revoking\" data-state=\"revoking\"");
                s.push_str(focus(p));
                label(&mut s, p, Some(&format!("revoked, then {}", o.id)));
                s.push_str(" data-topic=\"");
                s.push_str(&t);
                let _ = write!(s, "\" data-partition=\"{p}\" data-to=\"");
                escape_into(&o.id, &mut s);
                s.push('"');
                if let Some((from, _)) = &o.from {
                    s.push_str(" data-from=\"");
                    escape_into(from, &mut s);
                    s.push('"');
                }
                let _ = write!(s, ">{p}</span>");
            }
            Some(o) => {
                s.push_str("<span class=\"");
                write_cell_class(&mut s, o);
                s.push('"');
                s.push_str(focus(p));
                label(&mut s, p, Some(&o.id));
                s.push_str(" data-topic=\"");
                s.push_str(&t);
                let _ = write!(s, "\" data-partition=\"{p}\" data-owner=\"");
                escape_into(&o.id, &mut s);
                s.push('"');
                if let Some((from, _)) = &o.from {
                    s.push_str(" data-moved=\"true\" data-from=\"");
                    escape_into(from, &mut s);
                    s.push('"');
                }
                if o.extra {
                    s.push_str(" data-extra=\"true\"");
                }
                let _ = write!(s, ">{p}</span>");
            }
        }
    }
    s
}

/// Paints the cells straight into the DOM: at teaching scale (2,000 cells) an edit costs a
/// few DOM writes per cell that changed (measured faster here than rewriting the row's
/// markup, even when most cells change), instead of a virtual node per cell. A new row, or
/// one whose topic or partition count changed, is written as markup once.
fn paint(
    el: &web_sys::Element,
    drawn: &mut Drawn,
    topic: &AttrValue,
    owners: &[Option<Owner>],
    picked: &[u32],
    lag: &[CellLag],
    owners_hidden: bool,
) {
    if drawn.topic == *topic
        && drawn.owners.as_slice() == owners
        && drawn.owners_hidden == owners_hidden
    {
        mark_picked(drawn, picked);
        mark_lag(drawn, lag);
        return;
    }
    let revoking = |o: &Option<Owner>| o.as_ref().is_some_and(|o| o.revoking);
    // (most of the row changed, an assignor switched say: the row written again as markup
    // is one write instead of two or three per cell)
    let changed = || {
        drawn
            .owners
            .iter()
            .zip(owners)
            .filter(|(a, b)| a != b)
            .count()
    };
    if drawn.owners.len() != owners.len()
        || drawn.topic != *topic
        || drawn.owners_hidden != owners_hidden
        || drawn
            .owners
            .iter()
            .zip(owners)
            .any(|(a, b)| (revoking(a) || revoking(b)) && a != b)
        || changed() * 4 > owners.len()
    {
        el.set_inner_html(&row_markup(topic, owners, owners_hidden));
        drawn.cells = Some(el.children());
        drawn.picked.clear();
        drawn.lag.clear();
    } else {
        let focused = focused_element();
        for (i, o) in owners.iter().enumerate() {
            let old = &drawn.owners[i];
            if old == o {
                continue;
            }
            let Some(cell) = drawn.cells.as_ref().and_then(|c| c.item(i as u32)) else {
                continue;
            };
            match o {
                None => {
                    cell.set_class_name("cell unowned");
                    let _ = cell.remove_attribute("data-owner");
                    let _ = cell.remove_attribute("data-moved");
                    let _ = cell.remove_attribute("data-from");
                    let _ = cell.remove_attribute("data-extra");
                }
                Some(o) => {
                    let was = old.as_ref();
                    if was.map(|x| (x.slot, &x.from)) != Some((o.slot, &o.from)) {
                        cell.set_class_name(&cell_class(o));
                    }
                    if was.map(|x| &x.id) != Some(&o.id) {
                        let _ = cell.set_attribute("data-owner", &o.id);
                    }
                    if was.map(|x| &x.from) != Some(&o.from) {
                        match &o.from {
                            Some((from, _)) => {
                                let _ = cell.set_attribute("data-moved", "true");
                                let _ = cell.set_attribute("data-from", from);
                            }
                            None => {
                                let _ = cell.remove_attribute("data-moved");
                                let _ = cell.remove_attribute("data-from");
                            }
                        }
                    }
                    if was.map(|x| x.extra) != Some(o.extra) {
                        if o.extra {
                            let _ = cell.set_attribute("data-extra", "true");
                        } else {
                            let _ = cell.remove_attribute("data-extra");
                        }
                    }
                }
            }
            // Its name: the owner, as the row's markup writes it; the cell with the focus
            // keeps its detailed name, which follows every mark (a moved or extra mark alone
            // changes what it says).
            if !owners_hidden {
                let name = if focused.as_ref() == Some(&cell) {
                    cell_title(&cell)
                } else {
                    let owner = o.as_ref().map_or("nobody owns it", |o| o.id.as_str());
                    format!("{topic} partition {i}: {owner}")
                };
                let _ = cell.set_attribute("aria-label", &name);
            }
        }
    }
    drawn.topic = topic.clone();
    drawn.owners = owners.to_vec();
    drawn.owners_hidden = owners_hidden;
    mark_picked(drawn, picked);
    mark_lag(drawn, lag);
}

/// Marks each cell's lag (`data-lag`, `data-lag-value`), touching only the cells whose lag
/// changed.
fn mark_lag(drawn: &mut Drawn, lag: &[CellLag]) {
    if drawn.lag == lag {
        return;
    }
    let n = drawn.owners.len();
    // (the cell with the focus has its detailed name, which tells its lag)
    let focused = focused_element();
    for p in 0..n {
        let (was, now) = (
            drawn.lag.get(p).copied().flatten(),
            lag.get(p).copied().flatten(),
        );
        if was == now {
            continue;
        }
        let Some(cell) = drawn.cells.as_ref().and_then(|c| c.item(p as u32)) else {
            continue;
        };
        match now {
            Some((level, value)) => {
                let _ = cell.set_attribute("data-lag", &level.to_string());
                let _ = cell.set_attribute("data-lag-value", &value.to_string());
            }
            None => {
                let _ = cell.remove_attribute("data-lag");
                let _ = cell.remove_attribute("data-lag-value");
            }
        }
        if focused.as_ref() == Some(&cell) && !drawn.owners_hidden {
            let _ = cell.set_attribute("aria-label", &cell_title(&cell));
        }
    }
    drawn.lag = lag.to_vec();
}

/// The element with the focus, if any.
fn focused_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.active_element()
}

/// Marks the cells picked for a lesson's prediction (`aria-selected`), and lets go of
/// those no longer picked.
fn mark_picked(drawn: &mut Drawn, picked: &[u32]) {
    if drawn.picked == picked {
        return;
    }
    let cell = |p: u32| drawn.cells.as_ref().and_then(|c| c.item(p));
    for p in drawn.picked.iter().filter(|p| !picked.contains(p)) {
        if let Some(c) = cell(*p) {
            let _ = c.remove_attribute("aria-selected");
        }
    }
    for p in picked {
        if let Some(c) = cell(*p) {
            let _ = c.set_attribute("aria-selected", "true");
        }
    }
    drawn.picked = picked.to_vec();
}

/// What a cell says on hover and focus, from its data attributes (so it is always current):
/// "orders partition 3: owned by consumer-b, moved from consumer-a".
fn cell_title(cell: &web_sys::Element) -> String {
    let get = |a: &str| cell.get_attribute(a).unwrap_or_default();
    let mut t = format!(
        "{} partition {}: ",
        get("data-topic"),
        get("data-partition")
    );
    // (a lesson's prediction: the owner is not told until it is checked)
    if cell.closest("[data-predict]").ok().flatten().is_some() {
        t.push_str("its owner is hidden until you check");
        return t;
    }
    if cell.get_attribute("data-state").as_deref() == Some("revoking") {
        return format!(
            "{t}revoked from {} in this first rebalance; nobody consumes it until the follow-up rebalance gives it to {}",
            get("data-from"),
            get("data-to")
        );
    }
    match cell.get_attribute("data-owner") {
        Some(o) => t.push_str(&format!("owned by {o}")),
        None => t.push_str("nobody owns it"),
    }
    if let Some(from) = cell.get_attribute("data-from") {
        t.push_str(&format!(", moved from {from} since the baseline"));
    }
    // (an imported group's lag, when shown on the grid)
    if let Some(lag) = cell.get_attribute("data-lag-value") {
        t.push_str(&format!("; lag {lag}"));
    }
    if cell.has_attribute("data-extra") {
        t.push_str(
            "; one of the n mod m extra partitions: range gives the first members in its order one partition more than the others",
        );
    }
    t
}

#[function_component(GridRow)]
pub(super) fn grid_row(p: &RowProps) -> Html {
    // A lesson step asking for cells: a click on a cell, or Space or Enter on it, picks it
    // or lets it go.
    let pick = {
        let topic = p.topic.clone();
        move |e: &Event| {
            let cell = e.target_dyn_into::<web_sys::Element>()?;
            let partition = cell.get_attribute("data-partition")?.parse().ok()?;
            Some(Action::LessonPick {
                topic: topic.to_string(),
                partition,
            })
        }
    };
    let on_pick_click = {
        let (d, picking) = (p.dispatch.clone(), p.picking);
        let pick = pick.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(a) = picking.then(|| pick(&e)).flatten() {
                d.emit(a);
            }
        })
    };
    let on_pick_key = {
        let (d, picking) = (p.dispatch.clone(), p.picking);
        Callback::from(move |e: KeyboardEvent| {
            if !picking || !matches!(e.key().as_str(), " " | "Enter") {
                return;
            }
            if let Some(a) = pick(&e) {
                e.prevent_default();
                d.emit(a);
            }
        })
    };
    let topic = p.topic.clone();
    let select = p
        .dispatch
        .reform(move |_| Action::SelectTopic(Some(topic.to_string())));
    let cells = use_node_ref();
    let drawn = use_mut_ref(Drawn::default);
    // Which of the row's paints is the latest: a later paint still waiting in the queue runs
    // only if no newer one came since (nor the row went).
    let latest = use_mut_ref(|| 0u64);
    // A cell's tooltip is written when the pointer reaches it, from its data attributes
    // (so it is always current): repaints then carry no tooltip text at all.
    let tooltip = Callback::from(|e: MouseEvent| {
        let Some(cell) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        if !cell.has_attribute("data-partition") {
            return;
        }
        let _ = cell.set_attribute("title", &cell_title(&cell));
    });
    // Its accessible name likewise, when it gets the focus: "orders partition 3: owned by
    // consumer-b, moved from consumer-a since the baseline".
    let label = Callback::from(|e: FocusEvent| {
        let Some(cell) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        if cell.has_attribute("data-partition") {
            let _ = cell.set_attribute("aria-label", &cell_title(&cell));
        }
    });
    {
        let (cells, queue) = (cells.clone(), p.queue.clone());
        use_effect_with(
            (
                p.topic.clone(),
                p.owners.clone(),
                p.starts_at,
                p.picked.clone(),
                p.lag.clone(),
                p.owners_hidden,
            ),
            move |(topic, owners, starts_at, picked, lag, owners_hidden)| {
                *latest.borrow_mut() += 1;
                let at_once = if drawn.borrow().owners.is_empty() {
                    CELLS_AT_ONCE
                } else {
                    CELLS_REPAINTED_AT_ONCE
                };
                let later = !owners.is_empty() && *starts_at >= at_once;
                if let Some(el) = cells.cast::<web_sys::Element>() {
                    // (the row, role row, says it is still being drawn)
                    let row = el.parent_element();
                    if let Some(r) = row.as_ref().filter(|_| later) {
                        let _ = r.set_attribute("aria-busy", "true");
                    }
                    let (topic, owners, picked, lag, owners_hidden) = (
                        topic.clone(),
                        owners.clone(),
                        picked.clone(),
                        lag.clone(),
                        *owners_hidden,
                    );
                    let (this, latest) = (*latest.borrow(), latest.clone());
                    let cells = owners.len();
                    let run: Box<dyn FnOnce()> = Box::new(move || {
                        if *latest.borrow() != this {
                            return;
                        }
                        paint(
                            &el,
                            &mut drawn.borrow_mut(),
                            &topic,
                            &owners,
                            &picked,
                            &lag,
                            owners_hidden,
                        );
                        if let Some(r) = row {
                            let _ = r.remove_attribute("aria-busy");
                        }
                    });
                    if later {
                        queue.push(cells, run);
                    } else {
                        run();
                    }
                }
                // (a newer paint, or the row taken down: its paint still waiting does nothing)
                move || *latest.borrow_mut() += 1
            },
        );
    }
    html! {
        <div class="grid-row" role="row">
            <div class="topic-head" role="rowheader">
                <button class="topic-label" data-explain={p.topic.clone()} onclick={select} aria-pressed={p.selected.to_string()}>
                    <span class="topic-title">{ p.topic.clone() }</span>
                    <span class="topic-status">{ p.status.clone() }</span>
                </button>
            </div>
            <div class="cells" role="none" ref={cells} onmouseover={tooltip.clone()} onfocusin={label}
                onclick={on_pick_click} onkeydown={on_pick_key}></div>
            if let Some(rest) = &p.rest {
                <p class="rest" role="gridcell" data-rest-topic={p.topic.clone()}>{ rest.clone() }</p>
            }
        </div>
    }
}
