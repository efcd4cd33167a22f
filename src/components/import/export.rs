//! The picture and the scenario as files.

use crate::state::Imported;
use crate::Computed;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The picture and the scenario as files: the grid as SVG and PNG, the scenario as
/// JSON in the command-line tool's shape, the assignment as a Markdown table, and the
/// `rebalance-lab assign` command line; file names carry the group id.
#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    pub computed: Rc<Computed>,
    pub imported: Option<Rc<Imported>>,
    /// The pinned group's member count and partition count, when one is pinned.
    pub pinned: Option<(usize, u64)>,
    /// Each member's colour slot, as the grid draws it: the pictures use the same.
    pub colours: Rc<rebalance_lab_core::scenario::colours::Colours>,
}

/// When the group on screen is not the pinned one (members joined or left, or the counts
/// changed: a what-if, or the planner's Try N), what the exports say of it.
fn what_if(
    s: &rebalance_lab_core::scenario::Scenario,
    c: &Computed,
    pinned: Option<(usize, u64)>,
    imported: bool,
) -> Option<String> {
    let (members, partitions) = pinned?;
    let changed = members != s.members.len()
        || partitions != s.total_partitions()
        || c.diff
            .as_ref()
            .is_some_and(|d| !d.joined.is_empty() || !d.left.is_empty());
    changed.then(|| {
        format!(
            "{} members over {} partitions; the {} group has {members} over {partitions}",
            s.members.len(),
            s.total_partitions(),
            if imported { "observed" } else { "pinned" }
        )
    })
}

#[function_component]
pub fn Export(p: &ExportProps) -> Html {
    let save = |kind: &'static str| {
        let (s, c, imported, pinned, colours) = (
            p.scenario.clone(),
            p.computed.clone(),
            p.imported.clone(),
            p.pinned,
            p.colours.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let group = s.group_id.as_deref();
            let what_if = what_if(&s, &c, pinned, imported.is_some());
            let lag = imported
                .as_deref()
                .filter(|i| super::summary::shows_lag(i))
                .map(|i| &i.lag);
            let slots: Vec<u32> = s
                .members
                .iter()
                .enumerate()
                .map(|(i, m)| colours.slot(&m.id).unwrap_or(i as u32))
                .collect();
            let about = rebalance_lab_core::export::About {
                group_id: group,
                computed_by: Some(s.assignor),
                what_if: what_if.as_deref(),
                lag,
                colour_slots: Some(&slots),
            };
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
                    let svg = rebalance_lab_core::export::svg::grid_svg(&s, &o, &about);
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
                        lag,
                    ),
                    "json",
                    "application/json",
                ),
                "md" => {
                    let Some(o) = observed() else { return };
                    (
                        rebalance_lab_core::export::markdown::assignment_markdown(&s, &o, &about),
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
pub(super) fn download(file: &str, mime: &str, content: &str) {
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
