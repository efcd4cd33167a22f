//! The colored grid: one row of partition cells per topic, each cell labelled with its
//! partition number and coloured by its owner's own colour (which follows the member, not
//! its position: [`rebalance_lab_core::scenario::colours`]); the partitions range hands to the first
//! members as the n mod m extra ones are marked; in a what-if, a moved cell carries a corner
//! in its previous owner's colour. Then one bar per member with its total, in assignor
//! order, and a members x topics table of counts.
//!
//! Cells carry only what a person and a test need (class, data attributes, label) and are
//! painted straight into the DOM, touching only the cells whose owner changed.

use crate::components::{members_shown, show_all_toggle};
use crate::markup::escape_into;
use crate::state::Action;
use crate::Computed;
use rebalance_lab_core::assignor::{explain, AssignorKind, TopicAssignment, UNASSIGNED};
use rebalance_lab_core::scenario::colours::{self, Colours};
use rebalance_lab_core::scenario::member_id::display_id;
use std::fmt::Write;
use std::rc::Rc;
use yew::prelude::*;

/// Colours cycle over this many (Okabe-Ito) CSS custom properties.
pub const PALETTE: usize = colours::PALETTE as usize;

/// The CSS classes of a colour slot: colour and pattern.
pub fn slot_class(slot: u32) -> String {
    let (c, p) = colours::classes(slot);
    format!("c{c} p{p}")
}

/// At most this many cells are drawn per topic, and in all: a million cells would freeze the
/// page for most of a minute. A row that stops early says who owns the rest.
pub const CELLS_PER_TOPIC: usize = 2_000;
/// See [`CELLS_PER_TOPIC`].
pub const CELLS_IN_ALL: usize = 20_000;
/// A new row that starts after the grid's first this many cells is painted after the
/// repaint, in a later task (the row is `aria-busy` until then; a row that starts before is
/// painted whole, so up to this many plus a row's 2,000 are painted at once): writing 20,000
/// cells in one task held the main thread 100 to 270 ms more, at the sticky assignors' bound
/// and at 500,000 partitions (tests/web.rs, the longest-task benchmarks).
pub const CELLS_AT_ONCE: usize = 4_000;

/// The same for a row already on screen, whose repaint rewrites its markup: cheaper than a
/// first draw, and every later task gives the browser a frame in which it lays the whole page
/// out again. Switching the assignor at 1,000 x 10,000 with the page's stylesheets: about 35
/// ms with every row repainted at once, about 60 to 75 with the first 4,000 cells at once
/// (tests/web.rs, `bench_a_thousand_members_beside_the_floor`); at 500,000 partitions the
/// longest task stays under the 200 ms goal.
pub const CELLS_REPAINTED_AT_ONCE: usize = 10_000;

/// The rows painted after the repaint, run in tasks of about [`CELLS_AT_ONCE`] cells each:
/// a task per row let the browser lay the whole page out again between rows (switching the
/// assignor at 1,000 x 10,000 spent more time there than painting), and one task for all of
/// them held the main thread too long at 20,000 cells.
#[derive(Clone, Default)]
struct LaterPaints(Rc<std::cell::RefCell<PaintQueue>>);

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

#[derive(Properties, PartialEq)]
pub struct Props {
    pub computed: Rc<Computed>,
    pub colours: Rc<Colours>,
    pub selected: Option<String>,
    /// The cells the learner picked for a lesson step's prediction: (topic, partition).
    pub picked: Vec<(String, u32)>,
    /// A lesson step asks for cells: a click, or Space or Enter, picks a cell or lets it go.
    pub picking: bool,
    /// A lesson step asks (whatever its question): the owners are hidden.
    pub owners_hidden: bool,
    /// An imported group's lag, while it is shown on the grid.
    pub lag: Option<Rc<crate::state::Imported>>,
    /// Which group the grid shows, in a sentence ([`crate::state::AppState::group_shown`]).
    pub shows: AttrValue,
    pub dispatch: Callback<Action>,
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
struct RowProps {
    topic: AttrValue,
    status: AttrValue,
    owners: Rc<Vec<Option<Owner>>>,
    /// For a row drawn in part: who owns the partitions not drawn.
    rest: Option<AttrValue>,
    /// How many cells the grid draws before this row's: past [`CELLS_AT_ONCE`] (a new row)
    /// or [`CELLS_REPAINTED_AT_ONCE`] (a row on screen), the row is painted after the
    /// repaint, in the grid's queue.
    starts_at: usize,
    queue: LaterPaints,
    selected: bool,
    /// The partitions of this topic picked for a lesson's prediction (`aria-selected`).
    picked: Rc<Vec<u32>>,
    /// A lesson step asks for cells: clicking a cell picks it.
    picking: bool,
    /// A lesson step asks: the owners are hidden, in the cells' names too.
    owners_hidden: bool,
    /// Each cell's lag, while an imported group's lag is shown (empty otherwise).
    lag: Rc<Vec<CellLag>>,
    dispatch: Callback<Action>,
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
pub fn grid_keys(e: KeyboardEvent) {
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
/// grid written as markup rather than `html!`: 10,000 cells as one virtual node each took
/// 60 ms to draw and 31 ms to repaint with every owner changed, against 7.7 ms as markup,
/// with the page's stylesheets (`bench_cells_as_virtual_nodes_beside_markup` in
/// `tests/web.rs`); a grid holds up to 20,000 cells in view.
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
            // Its name follows every mark, not only its owner (a moved or extra mark
            // alone changes what the focused cell says).
            if !owners_hidden {
                let _ = cell.set_attribute("aria-label", &cell_title(&cell));
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
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
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
fn grid_row(p: &RowProps) -> Html {
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

/// The grid: repainted only when its props change (the computation, the colours, the topic
/// explained, a lesson's picks). Its rows are components too: each repaints only when its
/// own cells change.
#[function_component]
pub fn Grid(props: &Props) -> Html {
    // Before any early return: hooks run in the same order on every render.
    let all = use_state(|| false);
    // The rows painted after the repaint, batched.
    let queue = use_memo((), |_| LaterPaints::default());
    // The last grid drawn: kept on screen, unchanged (the app says it is computing, and the
    // panel is busy), while a large group's worker computes the next; rebuilding it twice
    // (taken down, then drawn again) cost more than the repaint of the cells that change.
    let last = use_mut_ref(Html::default);
    let c = &props.computed;
    let Some(a) = c.assignment() else {
        if c.pending {
            return last.borrow().clone();
        }
        *last.borrow_mut() = Html::default();
        return html! {
            <p class="notice" role="status">{ match c.failure() {
                Some(e) => format!("No assignment to draw: {e}"),
                None => "No assignment to draw.".to_string(),
            } }</p>
        };
    };
    let slots: Vec<u32> = c
        .input
        .members
        .iter()
        .map(|m| props.colours.slot(&m.id).unwrap_or(0))
        .collect();
    let ids: Vec<AttrValue> = c
        .input
        .members
        .iter()
        .map(|m| AttrValue::from(m.id.clone()))
        .collect();
    let (max, min) = a.max_min();
    let mut budget = CELLS_IN_ALL;
    // Cooperative-sticky's revoked partitions, by topic (one pass, not a search per cell).
    let mut revoked: std::collections::HashMap<String, u32> = Default::default();
    let mut revoked_runs: Vec<&[rebalance_lab_core::assignor::sticky::Withheld]> = Vec::new();
    for run in a.withheld.chunk_by(|x, y| x.topic == y.topic) {
        revoked.insert(run[0].topic.clone(), revoked_runs.len() as u32);
        revoked_runs.push(run);
    }
    // An imported group's lag on the cells drawn (never below 0), each cell's level relative
    // to the largest of them.
    let lag_of = |t: &str, p: usize| -> Option<i64> {
        (*props.lag.as_ref()?.lag.get(t)?.get(p)?).map(|l| l.max(0))
    };
    let largest_lag = props.lag.as_ref().map_or(0, |_| {
        a.topics
            .iter()
            .flat_map(|t| {
                (0..t.owners.len().min(CELLS_PER_TOPIC)).filter_map(|p| lag_of(&t.topic, p))
            })
            .max()
            .unwrap_or(0)
    });
    let rows = a.topics.iter().enumerate().map(|(ti, t)| {
        let moved = c.diff.as_ref().and_then(|d| d.moved_cells.get(ti));
        let status = if t.partitions == 0 {
            "missing from metadata: skipped".to_string()
        } else {
            format!("{} partitions, {} subscribers", t.partitions, t.subscribers())
        };
        let shown = t.owners.len().min(CELLS_PER_TOPIC).min(budget);
        // (a row past the grid's budget draws no cells: nothing to paint later)
        let starts_at = CELLS_IN_ALL - budget;
        budget -= shown;
        let rest = (shown < t.owners.len())
            .then(|| AttrValue::from(explain::rest_of_topic(&c.input, t, shown)));
        let extra = extra_partitions(a.assignor, t);
        let mut revoked_at: Vec<Option<&rebalance_lab_core::assignor::sticky::Withheld>> = Vec::new();
        if let Some(run) = revoked.get(t.topic.as_str()).map(|i| revoked_runs[*i as usize]) {
            revoked_at.resize(shown, None);
            for w in run {
                if let Some(x) = usize::try_from(w.partition).ok().and_then(|p| revoked_at.get_mut(p)) {
                    *x = Some(w);
                }
            }
        }
        let owners: Vec<Option<Owner>> = t.owners[..shown]
            .iter()
            .enumerate()
            .map(|(p, o)| {
                (*o != UNASSIGNED).then(|| {
                    let from = moved
                        .and_then(|m| m.get(p))
                        .copied()
                        .unwrap_or(false)
                        .then(|| c.baseline.as_ref().and_then(|b| b.owner(&t.topic, p)))
                        .flatten()
                        .map(|id| {
                            (
                                AttrValue::from(id.to_string()),
                                props.colours.slot(id).unwrap_or(0),
                            )
                        });
                    Owner {
                        slot: slots[*o as usize],
                        id: ids[*o as usize].clone(),
                        from,
                        extra: extra.get(p).copied().unwrap_or(false),
                        revoking: false,
                    }
                })
                .or_else(|| {
                    // cooperative-sticky round 1: revoked now, handed over in round 2
                    let w = revoked_at.get(p).copied().flatten()?;
                    let to = ids.get(w.to as usize)?.clone();
                    let from = w.from.first().and_then(|f| {
                        Some((ids.get(*f as usize)?.clone(), *slots.get(*f as usize)?))
                    });
                    Some(Owner {
                        slot: *slots.get(w.to as usize)?,
                        id: to,
                        from,
                        extra: false,
                        revoking: true,
                    })
                })
            })
            .collect();
        let lag: Vec<CellLag> = if props.lag.is_some() {
            (0..shown)
                .map(|p| {
                    let l = lag_of(&t.topic, p)?;
                    let level = if largest_lag <= 0 || l == 0 {
                        0
                    } else {
                        1 + (i128::from(l) * 3 / i128::from(largest_lag)).min(3) as u8
                    };
                    Some((level, l))
                })
                .collect()
        } else {
            Vec::new()
        };
        html! {
            <GridRow key={t.topic.clone()} topic={AttrValue::from(t.topic.clone())} status={AttrValue::from(status)}
                lag={Rc::new(lag)}
                owners={Rc::new(owners)} rest={rest} {starts_at} queue={(*queue).clone()}
                selected={props.selected.as_deref() == Some(t.topic.as_str())}
                picked={Rc::new(props.picked.iter().filter(|(topic, _)| *topic == t.topic).map(|(_, p)| *p).collect::<Vec<_>>())}
                picking={props.picking} owners_hidden={props.owners_hidden} dispatch={props.dispatch.clone()} />
        }
    });
    let highlight = highlight_callbacks();
    let bars = a.order.iter().take(members_shown(*all, a.order.len())).enumerate().map(|(pos, m)| {
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
    let ratio = if min == 0 && max == 0 {
        "–".to_string()
    } else if min == 0 {
        "∞ (a member is idle)".to_string()
    } else {
        explain::ratio(max, min)
    };
    let view = html! {
        <div class="grid-wrap">
            { crate::components::glossary::heading("h2", "Assignment".into(), &["assignment"]) }
            <p class="grid-shows" id="grid-shows">{ props.shows.clone() }</p>
            if a.topics.is_empty() {
                <p class="notice">{ "No member subscribes to any topic yet." }</p>
            }
            <div class="grid" id="grid" role={(!a.topics.is_empty()).then_some("grid")} data-lag-on={props.lag.is_some().then_some("")}
                aria-label="Partitions by topic and owner" onkeydown={Callback::from(grid_keys)}>{ for rows }</div>
            <p class="grid-key">
                { "Each cell is a partition, labelled with its number and coloured by its owner (hover or focus a cell to read who; the arrow keys move between cells). " }
                if a.assignor == AssignorKind::Range {
                    <span class="key-extra">{ "A dot marks the extra partitions range gives the first members (n mod m per topic). " }</span>
                }
                if c.diff.is_some() {
                    <span class="key-moved">{ "A corner in another colour marks a partition that moved; the corner is its previous owner's colour." }</span>
                }
            </p>
            <h3>{ "Partitions per member, in assignor order" }</h3>
            <ol class="totals" id="totals">{ for bars }</ol>
            { show_all_toggle(&all, a.order.len(), "totals") }
            { counts_table(c, a, &slots, *all) }
            <p class="skew" id="skew" data-max={max.to_string()} data-min={min.to_string()}>{ format!("max {max}, min {min}, max/min {ratio}") }</p>
        </div>
    };
    *last.borrow_mut() = view.clone();
    view
}

/// Per partition of `t`, whether it is one of the n mod m extra partitions range gives the
/// first members: each of the first n mod m subscribers gets one more, and the last of its
/// range is that one. Only for plain range (rack-aware ranges are not contiguous).
fn extra_partitions(kind: AssignorKind, t: &TopicAssignment) -> Vec<bool> {
    let mut out = vec![false; t.owners.len()];
    if kind != AssignorKind::Range || t.rack_aware || t.extra() == 0 {
        return out;
    }
    for s in t.shares().iter().filter(|s| s.index < t.extra()) {
        if let Some(first) = s.first {
            let last = (first + s.quota).saturating_sub(1) as usize;
            if let Some(x) = out.get_mut(last) {
                *x = t.owners[last] == s.member;
            }
        }
    }
    out
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
fn counts_table(
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
