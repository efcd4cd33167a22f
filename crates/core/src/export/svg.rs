//! The grid as SVG: a row of cells per topic (wrapped at [`PER_ROW`]), one `<rect
//! class="cell">` per partition with `data-topic`, `data-partition` and `data-member` (or
//! `data-unassigned`), the member colours of the app's palette (`styles/tokens.css`) and,
//! past its 8 colours, the app's patterns over them (a member's slot k: colour k mod 8,
//! pattern k div 8 mod 4), and a legend naming every member. The heading says what the
//! picture shows ([`About`]); a cell's title carries its lag when known. Every name is
//! escaped for XML.

use super::{xml_escape, About};
use crate::import::Observed;
use crate::scenario::colours::classes;
use crate::scenario::colours::PALETTE;
use crate::scenario::Scenario;
use std::collections::HashMap;
use std::fmt::Write;

/// Cells per line before a topic wraps.
pub const PER_ROW: u32 = 32;

/// The member colours and their ink, as `--member-k` and `--member-k-ink` in
/// `styles/tokens.css` (a test keeps them equal).
pub const COLOURS: [(&str, &str); PALETTE as usize] = [
    ("#e69f00", "#000"),
    ("#56b4e9", "#000"),
    ("#009e73", "#000"),
    ("#f0e442", "#000"),
    ("#0072b2", "#fff"),
    ("#d55e00", "#000"),
    ("#cc79a7", "#000"),
    ("#4d4d4d", "#fff"),
];

/// The app's three patterns (`styles/grid.css`, `.p1` to `.p3`: diagonal lines, dots,
/// horizontal lines), drawn over a member's colour from its ninth slot on.
const PATTERNS: &str = "<defs><pattern id=\"p1\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"#555\"/></pattern><pattern id=\"p2\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><circle cx=\"3\" cy=\"3\" r=\"1.5\" fill=\"#555\"/></pattern><pattern id=\"p3\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"2\" fill=\"#555\"/></pattern></defs>";

/// The pattern a member in slot `slot` wears over its colour, on the square at (`x`, `y`)
/// of side `side` (nothing for the first 8 slots).
fn pattern_over(slot: u32, x: u32, y: u32, side: u32) -> String {
    match classes(slot).1 {
        0 => String::new(),
        p => format!(
            "<rect class=\"pattern\" x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" fill=\"url(#p{p})\" pointer-events=\"none\"/>"
        ),
    }
}

const CELL: u32 = 28;
const LABEL: u32 = 160;
const ROW: u32 = 34;

/// The grid of `assignment` over `scenario`'s topics; each member takes the colour of its
/// slot ([`About::colour_slots`], as the page gives them; else in scenario order): slot k is
/// colour k mod 8 and, past 8, the app's pattern k div 8 mod 4 over it.
pub fn grid_svg(scenario: &Scenario, assignment: &Observed, about: &About) -> String {
    let slot: HashMap<&str, usize> = scenario
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.as_str(), i))
        .collect();
    // (topic, partition) -> member index
    let mut owner: HashMap<(&str, i32), usize> = HashMap::new();
    for (id, topics) in assignment.iter() {
        if let Some(&m) = slot.get(id.as_str()) {
            for (t, ps) in topics.iter() {
                for &p in ps {
                    owner.entry((t.as_str(), p)).or_insert(m);
                }
            }
        }
    }
    let mut body = String::new();
    let mut y = 30;
    for t in &scenario.topics {
        let lines = t.partitions.div_ceil(PER_ROW).max(1);
        let _ = write!(
            body,
            "<text class=\"topic\" x=\"4\" y=\"{}\">{}</text>",
            y + 18,
            xml_escape(&t.name)
        );
        for p in 0..t.partitions {
            let x = LABEL + (p % PER_ROW) * CELL;
            let cy = y + (p / PER_ROW) * CELL;
            let m = owner.get(&(t.name.as_str(), p as i32)).copied();
            let slot = m.map(|m| about.slot(m));
            let (fill, ink) = slot.map_or(("#ffffff", "#000"), |k| {
                COLOURS[k as usize % PALETTE as usize]
            });
            let pattern = slot.map_or(String::new(), |k| pattern_over(k, x, cy, CELL - 2));
            let who = match m {
                Some(m) => format!(
                    "data-member=\"{}\" data-slot=\"{}\"",
                    xml_escape(&scenario.members[m].id),
                    about.slot(m)
                ),
                None => "data-unassigned=\"true\"".to_string(),
            };
            let mut title = match m {
                Some(m) => format!("{}-{p}: {}", t.name, scenario.members[m].id),
                None => format!("{}-{p}: unassigned", t.name),
            };
            if let Some(l) = about.lag_of(&t.name, p as i32) {
                let _ = write!(title, ", lag {l}");
            }
            let _ = write!(
                body,
                "<rect class=\"cell\" x=\"{x}\" y=\"{cy}\" width=\"{w}\" height=\"{w}\" fill=\"{fill}\" stroke=\"#777\" data-topic=\"{topic}\" data-partition=\"{p}\" {who}><title>{title}</title></rect>{pattern}<text class=\"p\" x=\"{tx}\" y=\"{ty}\" fill=\"{ink}\">{p}</text>",
                w = CELL - 2,
                topic = xml_escape(&t.name),
                title = xml_escape(&title),
                tx = x + CELL / 2 - 1,
                ty = cy + 17,
            );
        }
        y += (lines - 1) * CELL + ROW;
    }
    let mut legend = String::new();
    let mut ly = y + 10;
    for (i, m) in scenario.members.iter().enumerate() {
        let slot = about.slot(i);
        let (fill, _) = COLOURS[slot as usize % PALETTE as usize];
        let _ = write!(
            legend,
            "<rect class=\"swatch\" x=\"4\" y=\"{ly}\" width=\"16\" height=\"16\" fill=\"{fill}\" stroke=\"#777\"/>{}<text class=\"member\" x=\"26\" y=\"{}\">{}</text>",
            pattern_over(slot, 4, ly, 16),
            ly + 13,
            xml_escape(&m.id)
        );
        ly += 22;
    }
    let _ = write!(
        legend,
        "<rect class=\"swatch\" x=\"4\" y=\"{ly}\" width=\"16\" height=\"16\" fill=\"#ffffff\" stroke=\"#777\"/><text class=\"member\" x=\"26\" y=\"{}\">unassigned</text>",
        ly + 13
    );
    ly += 22;
    let widest = scenario
        .topics
        .iter()
        .map(|t| t.partitions.min(PER_ROW))
        .max()
        .unwrap_or(0);
    let width = (LABEL + widest * CELL + 8).max(400);
    let heading = about.heading();
    // (a long heading widens the picture rather than running off it)
    let width = width.max(8 + 7 * heading.chars().count() as u32);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{ly}\" viewBox=\"0 0 {width} {ly}\" font-family=\"sans-serif\" font-size=\"12\"><title>{h}</title><text x=\"4\" y=\"16\" font-weight=\"bold\">{h}</text><style>.p{{text-anchor:middle;font-size:10px}}</style>{PATTERNS}{body}<g class=\"legend\">{legend}</g></svg>\n",
        h = xml_escape(&heading)
    )
}
