//! Your own group: what `kafka-consumer-groups.sh --describe` printed, pasted and
//! read ([`rebalance_lab_core::import`]), its observed assignment pinned as the baseline; how it compares
//! with what each assignor computes for the group, with the likely reasons; its lag per
//! member and, on request, per partition on the grid.

use crate::markup::{escape_into, list};
use crate::state::{Action, Imported};
use crate::Computed;
use rebalance_lab_core::assignor::AssignorKind;
use rebalance_lab_core::scenario::whatif::{self, Baseline};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The largest group (members times partitions) whose observed assignment the summary
/// compares with every assignor's, the sticky ones among them, on the main thread.
const COMPARE_PAIRS: u64 = 200_000;

/// Members listed in the lag table.
const LAG_ROWS: usize = 20;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub imported: Option<Rc<Imported>>,
    /// The observed assignment, pinned.
    pub baseline: Option<Baseline>,
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    /// A large group's assignment is computing in the worker.
    pub pending: bool,
    /// The lag is shown on the grid.
    pub lag_on: bool,
    /// Shows or hides the lag on the grid.
    pub on_lag: Callback<()>,
    pub dispatch: Callback<Action>,
}

/// The import box and, after an import, what the page read.
#[function_component]
pub fn Import(p: &Props) -> Html {
    let error = use_state(|| None::<String>);
    let (imported, dispatch, lag_on) = (p.imported.clone(), &p.dispatch, p.lag_on);
    // The pasted text, kept while the page lives: an import refused leaves it as it was.
    let text = use_state(String::new);
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            )
        })
    };
    let run = {
        let (d, error, text) = (dispatch.clone(), error.clone(), text.clone());
        Callback::from(
            move |_: MouseEvent| match rebalance_lab_core::import::parse(&text) {
                Ok(i) => {
                    error.set(None);
                    d.emit(Action::Import(Box::new(i)));
                }
                Err(e) => error.set(Some(e.to_string())),
            },
        )
    };
    let flip_lag = p.on_lag.reform(|_: MouseEvent| ());
    // (computed again only when what it reads changes: it runs every assignor)
    let m = use_memo(
        (
            imported.clone(),
            p.baseline.clone(),
            p.scenario.clone(),
            p.pending,
        ),
        |(imported, base, s, pending)| {
            let mut m = String::new();
            if let (Some(i), Some(base)) = (imported, base) {
                summary(i, base, s, *pending, &mut m);
            }
            m
        },
    );
    let has_lag = imported.as_ref().is_some_and(|i| !i.lag.is_empty());
    html! {
        <section class="panel import-panel" id="import-panel">
            <details id="import">
                <summary>{ "Your group: paste from kafka-consumer-groups.sh" }</summary>
                <p class="hint">
                    { "The output of " }<code>{ "kafka-consumer-groups.sh --describe --group G" }</code>
                    { " (offsets), " }<code>{ "--members" }</code>{ ", " }<code>{ "--members --verbose" }</code>
                    { " or " }<code>{ "--state" }</code>
                    { ", alone or pasted together, as Kafka 2.8 to 4.x print them. The group replaces the one on screen, its observed assignment pinned as the baseline." }
                </p>
                <textarea id="import-text" rows="8" spellcheck="false" aria-label="What kafka-consumer-groups.sh printed"
                    placeholder="GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID"
                    value={(*text).clone()} oninput={on_text} />
                <button id="import-run" onclick={run}>{ "Import" }</button>
            </details>
            if let Some(e) = &*error {
                <p class="alert" role="alert" id="import-error">{ format!("Not imported, the group on screen is unchanged: {e}") }</p>
            }
            { Html::from_html_unchecked((*m).clone().into()) }
            if has_lag {
                <button id="lag-toggle" aria-pressed={lag_on.to_string()} onclick={flip_lag}>
                    { if lag_on { "Hide the lag on the grid" } else { "Show the lag on the grid" } }
                </button>
                if lag_on {
                    <p class="hint" id="lag-key">{ "Lag on the grid: the taller the dark bar at the bottom of a cell, the more that partition lags (four steps up to the largest lag; no bar: no lag or not shown). The lag is also in each cell's name." }</p>
                }
            }
        </section>
    }
}

/// What the import read, against what the assignors compute, and the lag.
fn summary(
    i: &Imported,
    base: &Baseline,
    s: &rebalance_lab_core::scenario::Scenario,
    pending: bool,
    m: &mut String,
) {
    let partitions: u64 = s.topics.iter().map(|t| u64::from(t.partitions)).sum();
    // (a lag is never below 0 here, and sums stop at i64's largest instead of wrapping)
    let total_lag: i64 = i
        .lag
        .values()
        .flat_map(|l| l.iter().flatten())
        .fold(0i64, |a, l| a.saturating_add((*l).max(0)));
    m.push_str("<div class=\"import-summary\" id=\"import-summary\"><h2>Your group");
    if let Some(g) = &s.group_id {
        m.push_str(": ");
        escape_into(g, m);
    }
    m.push_str("</h2><p>");
    let mut facts = vec![
        format!("{} members", s.members.len()),
        format!("{} topics, {partitions} partitions", s.topics.len()),
    ];
    if let Some(st) = &i.said.state {
        facts.push(format!("state {st}"));
    }
    if let Some(st) = &i.said.strategy {
        facts.push(format!(
            "assignment strategy {}",
            if st.is_empty() {
                "none (no members)"
            } else {
                st
            }
        ));
    }
    if !i.lag.is_empty() {
        facts.push(format!("total lag {total_lag}"));
    }
    escape_into(&facts.join(" · "), m);
    m.push_str("</p>");
    if !i.said.warnings.is_empty() {
        let lines: Vec<String> = i
            .said
            .warnings
            .iter()
            .map(|w| format!("line {}: {}", w.line, w.message))
            .collect();
        m.push_str(&list("ul class=\"notes\" id=\"import-warnings\"", &lines));
    }
    // The observed assignment against each assignor's, the observed being the previous
    // assignment of the sticky ones (a group within the page's bound for computing first).
    // (partitions whose owner is not the observed one: moved, newly owned or no longer owned)
    let owners = |a: &rebalance_lab_core::assignor::Assignment,
                  input: &rebalance_lab_core::assignor::GroupInput|
     -> u32 {
        let d = whatif::diff(base, input, a);
        d.moved + d.newly_assigned + d.unassigned
    };
    let unowned: usize = base
        .topics
        .iter()
        .map(|(_, o)| o.iter().filter(|x| x.is_none()).count())
        .sum::<usize>()
        + s.topics
            .iter()
            .map(|t| {
                let shown = base
                    .topics
                    .iter()
                    .find(|(n, _)| *n == t.name)
                    .map_or(0, |(_, o)| o.len());
                (t.partitions as usize).saturating_sub(shown)
            })
            .sum::<usize>();
    if s.members.len() as u64 * partitions <= COMPARE_PAIRS && !pending {
        let input = s.group_input();
        let mut rows = Vec::new();
        let mut matching = Vec::new();
        // (the broker's too: --state may name uniform)
        for kind in AssignorKind::ALL {
            match whatif::assign_after(kind, &input, Some(base), s.leader_client) {
                Ok((r1, r2)) => {
                    let a = r2.as_ref().unwrap_or(&r1);
                    let n = owners(a, &input);
                    if n == 0 {
                        matching.push(kind.name());
                    }
                    rows.push(format!("<tr data-observed-against=\"{}\" data-differ=\"{n}\"><th scope=\"row\">{}</th><td>{n}</td></tr>", kind.name(), kind.name()));
                }
                Err(e) => {
                    let mut r = format!(
                        "<tr data-observed-against=\"{}\"><th scope=\"row\">{}</th><td>",
                        kind.name(),
                        kind.name()
                    );
                    escape_into(&e, &mut r);
                    r.push_str("</td></tr>");
                    rows.push(r);
                }
            }
        }
        m.push_str("<table class=\"compare\" id=\"observed-against\"><caption>The observed assignment against what each assignor computes for this group</caption><thead><tr><th scope=\"col\">assignor</th><th scope=\"col\">partitions with another owner</th></tr></thead><tbody>");
        for r in &rows {
            m.push_str(r);
        }
        m.push_str("</tbody></table>");
        let mut reasons = Vec::new();
        let chosen = s.assignor.name();
        if matching.contains(&chosen) {
            reasons.push(format!(
                "The observed assignment is exactly what {chosen} computes for this group."
            ));
        } else if !matching.is_empty() {
            reasons.push(format!(
                "{} gives exactly the observed assignment, {chosen} does not: the group likely runs {}.",
                matching.join(" and "),
                if matching.len() == 1 { "it" } else { "one of them" }
            ));
        } else {
            reasons.push("No assignor gives exactly this assignment.".to_string());
        }
        if i.said.state.as_deref().is_some_and(|st| st != "Stable") {
            reasons.push(format!(
                "The group was {} when this was printed: the assignment may be mid-rebalance.",
                i.said.state.as_deref().unwrap_or_default()
            ));
        }
        if unowned > 0 {
            reasons.push(format!("{unowned} partition{} no owner: partitions added since the last rebalance, or topics the members no longer subscribe to.", if unowned == 1 { " has" } else { "s have" }));
        }
        // (members the import shows owning nothing: joiners added since own nothing too,
        // but their subscriptions are the editor's)
        let mut owns = vec![false; base.members.len()];
        for (_, owners) in &base.topics {
            for o in owners.iter().flatten() {
                if let Some(x) = owns.get_mut(*o as usize) {
                    *x = true;
                }
            }
        }
        let unsubscribed: std::collections::HashSet<&str> = s
            .members
            .iter()
            .filter(|mm| mm.topics.is_empty())
            .map(|mm| mm.id.as_str())
            .collect();
        let idle: Vec<&str> = base
            .members
            .iter()
            .zip(&owns)
            .filter(|(id, owns)| !**owns && unsubscribed.contains(id.as_str()))
            .map(|(id, _)| id.as_str())
            .collect();
        if !idle.is_empty() {
            reasons.push(format!(
                "{} member{} nothing: the output shows only the topics a member owns partitions of, so here {} to nothing; tick {} topics in the editor if {} more.",
                idle.len(),
                if idle.len() == 1 { " owns" } else { "s own" },
                if idle.len() == 1 { "it subscribes" } else { "they subscribe" },
                if idle.len() == 1 { "its" } else { "their" },
                if idle.len() == 1 { "it subscribes to" } else { "they subscribe to" }
            ));
        }
        if s.members.iter().any(|mm| mm.instance_id.is_some()) {
            reasons.push("Static members (a group.instance.id) come first in range's and round-robin's order, by instance id, and keep their partitions across restarts within session.timeout.ms.".into());
        }
        m.push_str(&list("ul class=\"notes\" id=\"import-reasons\"", &reasons));
    } else {
        m.push_str(&format!("<p class=\"hint\">This group is above the page's bound for comparing every assignor with the observed assignment ({COMPARE_PAIRS} members times partitions); the what-if below compares the scenario's own.</p>"));
    }
    // Lag per member, by the observed owners.
    if !i.lag.is_empty() {
        let mut per: Vec<(usize, u32, i64, i64)> =
            (0..base.members.len()).map(|k| (k, 0, 0, 0)).collect();
        for (t, owners) in &base.topics {
            let Some(lags) = i.lag.get(t) else { continue };
            for (p, o) in owners.iter().enumerate() {
                if let (Some(o), Some(Some(l))) = (o, lags.get(p)) {
                    let e = &mut per[*o as usize];
                    e.1 += 1;
                    e.2 = e.2.saturating_add((*l).max(0));
                    e.3 = e.3.max((*l).max(0));
                }
            }
        }
        per.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        m.push_str("<table class=\"compare\" id=\"lag-members\"><caption>Lag per member (the observed owners)</caption><thead><tr><th scope=\"col\">member</th><th scope=\"col\">partitions with lag shown</th><th scope=\"col\">total lag</th><th scope=\"col\">largest</th></tr></thead><tbody>");
        for (k, n, sum, max) in per.iter().take(LAG_ROWS) {
            let id = &base.members[*k];
            m.push_str("<tr data-lag-member=\"");
            escape_into(id, m);
            m.push_str(&format!(
                "\" data-lag-sum=\"{sum}\" data-lag-max=\"{max}\"><th scope=\"row\">"
            ));
            escape_into(id, m);
            m.push_str(&format!(
                "</th><td>{n}</td><td>{sum}</td><td>{max}</td></tr>"
            ));
        }
        m.push_str("</tbody></table>");
        if per.len() > LAG_ROWS {
            m.push_str(&format!(
                "<p class=\"hint\">The {LAG_ROWS} members with the most lag of {}.</p>",
                per.len()
            ));
        }
    }
    m.push_str("</div>");
}

/// The picture and the scenario as files: the grid as SVG and PNG, the scenario as
/// JSON in the command-line tool's shape, the assignment as a Markdown table, and the
/// `rebalance-lab assign` command line; file names carry the group id.
#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    pub computed: Rc<Computed>,
    pub imported: Option<Rc<Imported>>,
}

#[function_component]
pub fn Export(p: &ExportProps) -> Html {
    let save = |kind: &'static str| {
        let (s, c, imported) = (p.scenario.clone(), p.computed.clone(), p.imported.clone());
        Callback::from(move |_: MouseEvent| {
            let group = s.group_id.as_deref();
            let observed = || -> Option<rebalance_lab_core::import::Observed> {
                let a = c.assignment()?;
                Some(
                    a.to_map(&c.input)
                        .into_iter()
                        .map(|(m, t)| (m, t.into_iter().collect()))
                        .collect(),
                )
            };
            let (content, ext, mime) = match kind {
                "svg" | "png" => {
                    let Some(o) = observed() else { return };
                    let svg = rebalance_lab_core::export::svg::grid_svg(&s, &o, group);
                    if kind == "svg" {
                        (svg, "svg", "image/svg+xml")
                    } else {
                        (svg, "png", "image/png")
                    }
                }
                "json" => (
                    rebalance_lab_core::export::json::scenario_json(
                        &s,
                        group,
                        Some(s.assignor),
                        imported.as_ref().map(|i| &i.lag).filter(|l| !l.is_empty()),
                    ),
                    "json",
                    "application/json",
                ),
                "md" => {
                    let Some(o) = observed() else { return };
                    (
                        rebalance_lab_core::export::markdown::assignment_markdown(&s, &o, group),
                        "md",
                        "text/markdown",
                    )
                }
                _ => return,
            };
            download(
                &rebalance_lab_core::export::file_name(group, ext),
                mime,
                &content,
            );
        })
    };
    html! {
        <section class="export" id="export">
            <h3>{ "Export" }</h3>
            <p class="export-buttons">
                { for [
                    ("svg", "Grid as SVG"),
                    ("png", "Grid as PNG"),
                    ("json", "Scenario as JSON"),
                    ("md", "Assignment as Markdown"),
                ].into_iter().map(|(k, label)| html! {
                    <button id={format!("export-{k}")} data-export={k} onclick={save(k)}>{ label }</button>
                }) }
            </p>
            <CommandLine scenario={p.scenario.clone()} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct CommandLineProps {
    scenario: Rc<rebalance_lab_core::scenario::Scenario>,
}

/// The `rebalance-lab assign` command line that reproduces the assignment, written only once
/// asked for: it carries the whole scenario as JSON, megabytes for a group of thousands of
/// members, which writing into the page at every edit held the page for seconds.
#[function_component]
fn CommandLine(p: &CommandLineProps) -> Html {
    let shown = use_state(|| false);
    let text = use_memo((p.scenario.clone(), *shown), |(s, shown)| {
        shown.then(|| rebalance_lab_core::export::command::assign_command(s))
    });
    let toggle = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(!*shown))
    };
    html! {
        <div class="export-command">
            <button id="export-command-toggle" aria-expanded={shown.to_string()} aria-controls="export-command" onclick={toggle}>
                { if *shown { "Hide the command line" } else { "The command line that reproduces it" } }
            </button>
            if let Some(text) = &*text {
                <label for="export-command" class="visually-hidden">{ "The command line that reproduces it" }</label>
                <textarea id="export-command" readonly=true rows="2" spellcheck="false" value={text.clone()} />
            }
        </div>
    }
}

/// Hands `content` to the browser as the file `file` (`mime`; a PNG is drawn from the SVG
/// text `content` through a canvas). The last download is kept on `window.rlLastDownload`
/// for the end-to-end tests: its name, type, size, first 32 bytes and, but for a PNG, text.
fn download(file: &str, mime: &str, content: &str) {
    if mime == "image/png" {
        png_from_svg(file.to_string(), content);
        return;
    }
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) {
        save(file, mime, &blob, Some(content));
    }
}

/// Draws the SVG text `svg` on a white canvas of its own size and saves it as a PNG.
fn png_from_svg(file: String, svg: &str) {
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return;
    };
    let drawn = img.clone();
    let onload = Closure::once(move || {
        let doc = gloo::utils::document();
        let Some(canvas) = doc
            .create_element("canvas")
            .ok()
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width(drawn.natural_width());
        canvas.set_height(drawn.natural_height());
        let Some(g) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|g| g.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        g.set_fill_style_str("#fff");
        g.fill_rect(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        );
        let _ = g.draw_image_with_html_image_element(&drawn, 0.0, 0.0);
        let to_blob = Closure::once(move |blob: Option<web_sys::Blob>| {
            if let Some(blob) = blob {
                save(&file, "image/png", &blob, None);
            }
        });
        let _ = canvas.to_blob_with_type(to_blob.as_ref().unchecked_ref(), "image/png");
        to_blob.forget();
    });
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    img.set_src(&format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(svg))
    ));
}

/// Saves `blob` as the file `file` through a link clicked for it.
fn save(file: &str, mime: &str, blob: &web_sys::Blob, text: Option<&str>) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return;
    };
    let doc = gloo::utils::document();
    if let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(file);
        if let Some(body) = doc.body() {
            let _ = body.append_child(&a);
            a.click();
            a.remove();
        }
    }
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    // (for the end-to-end tests)
    let kept = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&kept, &k.into(), v);
    };
    set("file", &file.into());
    set("mime", &mime.into());
    set("size", &blob.size().into());
    set("text", &text.map_or(JsValue::NULL, JsValue::from_str));
    let kept_later = kept.clone();
    let head = Closure::once(move |buf: JsValue| {
        let bytes = js_sys::Uint8Array::new(&buf);
        let head = bytes.subarray(0, bytes.length().min(32));
        let head: js_sys::Array = head.to_vec().into_iter().map(JsValue::from).collect();
        let _ = js_sys::Reflect::set(&kept_later, &"head".into(), &head);
        let _ = js_sys::Reflect::set(&js_sys::global(), &"rlLastDownload".into(), &kept_later);
    });
    let _ = blob.array_buffer().then(&head);
    head.forget();
}

/// The planner's line colours (the Okabe-Ito palette's, as `styles/layout.css` has them).
const PLAN_COLOURS: [&str; 4] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];

/// The most partitions the planner assigns in all (its member counts times the group's
/// partitions): about a second of the page's main thread.
const PLAN_WORK: u64 = 20_000_000;

/// The largest member count the planner draws.
const PLAN_CAP: u32 = 1_100;

/// The scale planner: partitions per member, largest and smallest, against the
/// member count for each assignor the page runs fresh (range and round-robin, and the
/// broker's), the group's own count marked and where members start
/// to sit idle; a point (a column of the chart, or a row of its table) applies its count as
/// a what-if against the group now. Drawn when asked for: a thousand groups are assigned.
#[derive(Properties, PartialEq)]
pub struct PlannerProps {
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    pub dispatch: Callback<Action>,
}

#[function_component]
pub fn Planner(p: &PlannerProps) -> Html {
    let dispatch = &p.dispatch;
    let open = use_state(|| false);
    let s = p.scenario.clone();
    // (the joiners' ids: the same for the chart and the what-if its click applies)
    let seed = rebalance_lab_core::scenario::planner::seed_for(&s);
    let lines = {
        let on = *open;
        use_memo((s.clone(), on), move |(s, on)| {
            on.then(|| {
                let kinds = [
                    AssignorKind::Range,
                    AssignorKind::RoundRobin,
                    AssignorKind::Uniform,
                    AssignorKind::ServerRange,
                ];
                // (a thousand groups of half a million partitions would hold the page for
                // minutes: the counts stop where the work reaches the bound)
                let partitions = s.total_partitions().max(1);
                let last = rebalance_lab_core::scenario::planner::last_count(s, PLAN_CAP)
                    .min((PLAN_WORK / partitions).clamp(1, u64::from(PLAN_CAP)) as u32);
                rebalance_lab_core::scenario::planner::plan(s, &kinds, last, seed)
            })
        })
    };
    let flip = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let try_count = {
        let d = dispatch.clone();
        Callback::from(move |count: u32| d.emit(Action::PlanMembers { count, seed }))
    };
    // the chart as it is drawn, standing alone (its colours are attributes)
    let save = |k: &'static str| {
        let group = s.group_id.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(chart) = gloo::utils::document().get_element_by_id("planner-chart") else {
                return;
            };
            let name =
                rebalance_lab_core::export::file_name(group.as_deref(), &format!("planner.{k}"));
            let mime = if k == "svg" {
                "image/svg+xml"
            } else {
                "image/png"
            };
            download(&name, mime, &chart.outer_html());
        })
    };
    let body = (*lines).clone().map(|lines| {
        let drawn = lines
            .iter()
            .filter_map(|l| l.points.last())
            .map(|p| p.members)
            .max()
            .unwrap_or(0);
        let bound = drawn < rebalance_lab_core::scenario::planner::last_count(&s, PLAN_CAP);
        html! { <>
            <PlannerChart lines={Rc::new(lines)} own={s.members.len() as u32} try_count={try_count.clone()} />
            if bound {
                <p class="hint" id="planner-bound">{ format!("Drawn up to {drawn} members: the page assigns at most {PLAN_WORK} partitions in all for the planner (member counts times this group's partitions).") }</p>
            }
            <p class="export-buttons">
                <button id="planner-svg" onclick={save("svg")}>{ "Chart as SVG" }</button>
                <button id="planner-png" onclick={save("png")}>{ "Chart as PNG" }</button>
            </p>
        </> }
    });
    html! {
        <section class="planner" id="planner">
            <h3>{ "Scale planner" }</h3>
            <button id="planner-toggle" aria-pressed={open.to_string()} onclick={flip}>
                { if *open { "Hide the planner" } else { "Plan the group's size: partitions per member from 1 member up" } }
            </button>
            { for body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct PlannerChartProps {
    lines: Rc<Vec<rebalance_lab_core::scenario::planner::Line>>,
    /// The group's own member count, marked on the chart.
    own: u32,
    /// Applies a member count as a what-if.
    try_count: Callback<u32>,
}

/// The chart as SVG (`#planner-chart`: a `polyline` per assignor for the largest and the
/// smallest total, the group's own count marked, a column per count that applies it), the
/// counts where members start to sit idle, and the same numbers as a table.
/// The chart as SVG (`#planner-chart`: a `polyline` per assignor for the largest and the
/// smallest total, the group's own count marked, a column per count that applies it), the
/// counts where members start to sit idle, and the same numbers as a table.
#[function_component]
fn PlannerChart(p: &PlannerChartProps) -> Html {
    use rebalance_lab_core::scenario::planner::idle_from;
    let (lines, own) = (&*p.lines, p.own);
    const W: u32 = 720;
    const H: u32 = 260;
    const L: u32 = 44;
    const B: u32 = 30;
    let last = lines
        .iter()
        .filter_map(|l| l.points.last())
        .map(|p| p.members)
        .max()
        .unwrap_or(1)
        .max(1);
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter())
        .map(|p| p.max)
        .max()
        .unwrap_or(1)
        .max(1);
    let x = |n: u32| L + (W - L - 10) * (n.saturating_sub(1)) / last.saturating_sub(1).max(1);
    let y = |v: u32| 10 + (H - 10 - B) * (top - v.min(top)) / top;
    let try_it = |n: u32| p.try_count.reform(move |_: MouseEvent| n);
    let axes = html! { <>
        <rect class="bg" width={W.to_string()} height={H.to_string()} fill="#fff" />
        <line class="axis" stroke="#666" x1={L.to_string()} y1={(H - B).to_string()} x2={(W - 10).to_string()} y2={(H - B).to_string()} />
        <line class="axis" stroke="#666" x1={L.to_string()} y1="10" x2={L.to_string()} y2={(H - B).to_string()} />
        <text x={L.to_string()} y={(H - B + 14).to_string()} class="tick" fill="#555">{ "1" }</text>
        <text x={(W - 10).to_string()} y={(H - B + 14).to_string()} class="tick" fill="#555" text-anchor="end">{ format!("{last} members") }</text>
        <text x={(L - 4).to_string()} y={(y(top) + 4).to_string()} class="tick" fill="#555" text-anchor="end">{ top.to_string() }</text>
        <text x={(L - 4).to_string()} y={(y(0) + 4).to_string()} class="tick" fill="#555" text-anchor="end">{ "0" }</text>
        if own >= 1 && own <= last {
            <line class="now" stroke="#333" stroke-dasharray="4 3" x1={x(own).to_string()} y1="10" x2={x(own).to_string()} y2={(H - B).to_string()} />
            <text class="tick" fill="#555" x={x(own).to_string()} y={(H - 4).to_string()} text-anchor="middle">{ format!("now: {own}") }</text>
        }
    </> };
    let polylines = lines.iter().enumerate().flat_map(|(k, l)| {
        [("max", (|p: &rebalance_lab_core::scenario::planner::Point| p.max) as fn(&_) -> u32), ("min", |p| p.min)]
            .into_iter()
            .map(move |(which, get)| {
                let points: Vec<String> = l.points.iter().map(|p| format!("{},{}", x(p.members), y(get(p)))).collect();
                html! {
                    <polyline class={format!("plan-line plan-{k} plan-{which}")} fill="none" stroke-width="2"
                        stroke={PLAN_COLOURS[k % PLAN_COLOURS.len()]}
                        stroke-dasharray={(which == "min").then_some("6 4")}
                        data-assignor={l.kind.name()} data-line={which} points={points.join(" ")} />
                }
            })
    });
    // a column per count: clicking it applies that count (its title says what it is)
    let step = f64::from(W - L - 10) / f64::from(last.max(1));
    let columns = (1..=last).map(|n| {
        let mut t = format!("{n} members:");
        for l in lines {
            if let Some(p) = l.points.get(n as usize - 1) {
                t.push_str(&format!(" {} {} to {}", l.kind.name(), p.min, p.max));
                if p.idle > 0 {
                    t.push_str(&format!(", {} idle", p.idle));
                }
                t.push(';');
            }
        }
        html! {
            <rect class="plan-hit" fill="transparent" data-plan={n.to_string()}
                x={format!("{:.1}", f64::from(x(n)) - step / 2.0)} y="10" width={format!("{:.1}", step.max(1.0))}
                height={(H - 10 - B).to_string()} onclick={try_it(n)}>
                <title>{ t.trim_end_matches(';').to_string() }</title>
            </rect>
        }
    });
    let key = lines.iter().enumerate().map(|(k, l)| {
        let idle = match idle_from(l) {
            Some(n) => format!("members sit idle from {n}"),
            None => "nobody sits idle".into(),
        };
        html! {
            <li data-assignor={l.kind.name()} data-idle-from={idle_from(l).unwrap_or(0).to_string()}>
                <span class={format!("plan-swatch plan-{k}")}></span>
                { format!("{}: solid the largest, dashed the smallest; {idle}", l.kind.name()) }
            </li>
        }
    });
    // the numbers as a table: every count up to 60, then every tenth and the last
    let rows = (1..=last).filter(|n| *n <= 60 || n % 10 == 0 || *n == last || *n == own).map(|n| html! {
        <tr data-plan-members={n.to_string()}>
            <th scope="row">{ n }</th>
            { for lines.iter().map(|l| match l.points.get(n as usize - 1) {
                Some(p) => html! {
                    <td data-assignor={l.kind.name()} data-max={p.max.to_string()} data-min={p.min.to_string()}>{ format!("{} / {}", p.max, p.min) }</td>
                },
                None => html! { <td>{ "–" }</td> },
            }) }
            <td><button id={format!("plan-try-{n}")} onclick={try_it(n)}>{ format!("Try {n}") }</button></td>
        </tr>
    });
    html! { <>
        <svg id="planner-chart" xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {W} {H}")} width={W.to_string()} height={H.to_string()}
            role="img" aria-labelledby="planner-title">
            <title id="planner-title">{ format!("Partitions per member, largest and smallest, for 1 to {last} members; this group has {own}") }</title>
            { axes }
            { for polylines }
            { for columns }
        </svg>
        <ul class="plan-key">{ for key }</ul>
        <p class="hint">{ "Fresh assignments (nobody owns anything yet), the group grown as \"members: N\" grows it. Click a column, or a row below, to try that many members as a what-if against the group now." }</p>
        // (its being open is the browser's: yew never writes the attribute)
        <details id="planner-table">
            <summary>{ "The numbers" }</summary>
            <table class="compare">
                <thead><tr>
                    <th scope="col">{ "members" }</th>
                    { for lines.iter().map(|l| html! { <th scope="col">{ format!("{} max / min", l.kind.name()) }</th> }) }
                    <th scope="col"></th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </details>
    </> }
}
