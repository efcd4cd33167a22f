//! Markup written as strings, for the views that paint straight into the DOM (the grid's
//! cells, the bytes and the field tree): HTML escaping, and the markup of one byte and one
//! field row.
//!
//! No web dependency, so it is compiled and tested natively too: every text that reaches
//! markup here (topic names, member ids, decoded strings) comes from the user or the wire.

use rebalance_lab_core::protocol::notes::value_text;
use rebalance_lab_core::protocol::{hex, Field};

/// Escapes text for HTML text and double- or single-quoted attribute values.
pub fn escape_into(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// The deepest indent the stylesheet has a class for (`depth-0` .. `depth-6`): the page
/// ships a Content-Security-Policy without inline styles, so indents are classes.
pub const MAX_DEPTH_CLASS: u8 = 6;

/// One row of the field tree: its path, value and place, with the data attributes the
/// view (and its tests) select by: `data-index` (the field's position), `data-bytes`
/// (its byte range) and `data-field` (its path).
pub fn field_row(i: usize, f: &Field, s: &mut String) {
    let whole = f.span();
    let path = f.path.to_string();
    let place = match f.prefix {
        Some(pr) => format!(
            "@0x{:04x} +{} ({} prefix, {} payload)",
            whole.start,
            whole.len(),
            pr.len(),
            f.payload.len()
        ),
        None => format!("@0x{:04x} +{}", whole.start, whole.len()),
    };
    s.push_str(&format!(
        "<li class=\"field depth-{} f{}\" tabindex=\"0\" data-index=\"{i}\" data-bytes=\"{}-{}\" data-field=\"",
        f.depth.min(MAX_DEPTH_CLASS), field_colour(i), whole.start, whole.end
    ));
    escape_into(&path, s);
    s.push_str("\"><span class=\"field-path\">");
    escape_into(&path, s);
    s.push_str("</span><span class=\"field-value\">");
    escape_into(&value_text(&f.value), s);
    s.push_str("</span><span class=\"field-where\">");
    s.push_str(&place);
    s.push_str("</span></li>");
}

/// Field colours cycle over this many classes (`f1` .. `f6`; `f0` is a byte no field holds).
pub const FIELD_COLOURS: usize = 6;

/// The colour class number of field `i` (in the tree and on its bytes, as hex editors do).
pub fn field_colour(i: usize) -> u8 {
    (i % FIELD_COLOURS) as u8 + 1
}

/// One byte of the bytes view, with its offset in `data-offset` and the colour of the
/// deepest field holding it (0 for none).
pub fn byte_cell(i: usize, b: u8, colour: u8, s: &mut String) {
    s.push_str(&format!(
        "<span class=\"byte f{colour}\" data-offset=\"{i}\">{}</span>",
        hex::to_hex(&[b])
    ));
}

/// A name to put inside a sentence: unchanged when it cannot reorder its neighbours, else
/// wrapped in Unicode's first-strong isolate (U+2068 ... U+2069), which confines its
/// direction, and any override or embedding it opens (a name such as "\u{202E}gnp.exe"), to
/// the name itself. Elements that hold only a name get the same from CSS
/// (`unicode-bidi: isolate`).
pub fn isolate(name: &str) -> std::borrow::Cow<'_, str> {
    let risky = name.chars().any(|c| {
        matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            // Hebrew, Arabic and the other right-to-left blocks
            || ('\u{0590}'..='\u{08FF}').contains(&c)
            || ('\u{FB1D}'..='\u{FDFF}').contains(&c)
            || ('\u{FE70}'..='\u{FEFF}').contains(&c)
            || ('\u{10800}'..='\u{10FFF}').contains(&c)
            || ('\u{1E800}'..='\u{1EFFF}').contains(&c)
    });
    if risky {
        std::borrow::Cow::Owned(format!("\u{2068}{name}\u{2069}"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// The element name of an opening tag's text (`ol class="x"`: `ol`), for its end tag.
fn tag_name(open: &str) -> &str {
    open.split(' ').next().unwrap_or(open)
}

/// `<tag attrs>text</tag>`, the text escaped (`attrs` is written by the app: no user text).
fn text_in(out: &mut String, open: &str, text: &str) {
    let name = tag_name(open);
    out.push('<');
    out.push_str(open);
    out.push('>');
    escape_into(text, out);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// `<ul>` (or `<ol>`) of lines, each escaped.
pub fn list(kind: &str, lines: &[String]) -> String {
    let name = tag_name(kind);
    let mut s = format!("<{kind}>");
    for l in lines {
        text_in(&mut s, "li", l);
    }
    s.push_str(&format!("</{name}>"));
    s
}

/// The group panel's coordinator: the arithmetic a line each, then the partition
/// (`#coordinator`, `data-coordinator-partition`).
pub fn coordinator(c: &rebalance_lab_core::group::Coordinator) -> String {
    let mut s = list("ol class=\"coordinator-steps\"", &c.explain());
    s.push_str(&format!(
        "<p id=\"coordinator\" data-coordinator-partition=\"{0}\">The coordinator is the broker leading partition {0} of __consumer_offsets.</p>",
        c.partition
    ));
    s
}

/// The vote's tally and winner (`#vote-winner`, `data-vote-winner`), and the leader and who
/// leads next (`#leader`, `data-leader`, `data-next-leader`; `last_change`: why the leader
/// changed at the last leave).
pub fn vote_and_leader(
    vote: &rebalance_lab_core::group::ProtocolSelection,
    leader: &str,
    next: &str,
    last_change: Option<&str>,
) -> String {
    let mut s = String::from("<p class=\"tally\">Tally (a Java HashMap): ");
    for (name, n) in &vote.tally.counts {
        text_in(&mut s, "span", &format!("{name}\u{a0}{n}; "));
    }
    let winner = vote.selected.as_deref().unwrap_or_default();
    s.push_str("</p><p id=\"vote-winner\" data-vote-winner=\"");
    escape_into(winner, &mut s);
    s.push_str("\"><strong>");
    if winner.is_empty() {
        s.push_str("No protocol is selected");
    } else {
        s.push_str("Winner: ");
        escape_into(&isolate(winner), &mut s);
    }
    s.push_str("</strong>. ");
    escape_into(&vote.why, &mut s);
    if let Some(x) = &vote.java_exception {
        s.push_str(" Java throws ");
        text_in(&mut s, "code", x);
    }
    s.push_str("</p><p id=\"leader\" data-leader=\"");
    escape_into(leader, &mut s);
    s.push_str("\" data-next-leader=\"");
    escape_into(next, &mut s);
    s.push_str("\">");
    if leader.is_empty() {
        s.push_str("Nobody leads: no member was accepted.");
    } else {
        text_in(&mut s, "strong", leader);
        s.push_str(" leads (the first accepted member to join). ");
        if next.is_empty() {
            s.push_str("Nobody else could lead.");
        } else {
            s.push_str("If the leader leaves, ");
            text_in(&mut s, "strong", next);
            s.push_str(" leads next (first key of the members HashMap, not the second joiner).");
        }
    }
    if let Some(why) = last_change {
        text_in(
            &mut s,
            "span class=\"why\"",
            &format!(" Last change: {why}"),
        );
    }
    s.push_str("</p>");
    s
}

/// What each protocol stops: eager (every member, all it owns, one round trip) beside
/// cooperative (only what moves, two round trips).
pub fn stops(
    rev: &rebalance_lab_core::group::Revocations,
    cooperative_note: Option<&str>,
) -> String {
    let mut s = String::from(
        "<table class=\"protocols-side\"><tr><th>eager: every member stops all it owns, 1 round trip</th>\
         <th>cooperative: only what moves stops, 2 round trips</th></tr><tr><td>",
    );
    for (id, n) in &rev.eager {
        text_in(&mut s, "div", &format!("{id}: {n}"));
    }
    s.push_str("</td><td>");
    for (id, n, which) in &rev.cooperative {
        text_in(&mut s, "div", &format!("{id}: {n} ({which})"));
    }
    if let Some(note) = cooperative_note {
        text_in(&mut s, "div class=\"note\"", note);
    }
    s.push_str("</td></tr></table>");
    if rev.eager.is_empty() {
        s.push_str("<p class=\"note\">Nobody owned partitions before: pin a baseline, then change the group, to see what each protocol stops.</p>");
    }
    s
}

/// The what-if's table of one change under each assignor (`#assignor-changes`: a row per
/// assignor with `data-assignor`, `data-moved`, `data-paused`, `data-rebalances`,
/// `data-idle`, or `data-pending` while the line is still computing), then its note.
pub fn assignor_changes(
    changes: &[rebalance_lab_core::scenario::whatif::AssignorChange],
) -> String {
    let left = changes.iter().filter(|c| c.is_pending()).count();
    let mut s = String::from(
        "<table class=\"compare\" id=\"assignor-changes\"><caption>The same change under each assignor",
    );
    if left > 0 {
        // a large group's lines come one assignor at a time, after the repaint
        s.push_str(&format!(
            " (computing: {} of {} done)",
            changes.len() - left,
            changes.len()
        ));
    }
    s.push_str(
        "</caption><thead><tr><th scope=\"col\">assignor</th><th scope=\"col\">max / min before</th><th scope=\"col\">max / min after</th>\
         <th scope=\"col\">partitions moved</th><th scope=\"col\">partitions paused</th><th scope=\"col\">members idle</th></tr></thead><tbody>",
    );
    for ch in changes {
        s.push_str(&format!("<tr data-assignor=\"{}\"", ch.kind.name()));
        // a line still computing has no figures yet: it says so instead of zeros
        if ch.is_pending() {
            s.push_str(" data-pending=\"true\"");
        } else {
            s.push_str(&format!(
                " data-moved=\"{}\" data-paused=\"{}\" data-rebalances=\"{}\" data-idle=\"{}\"",
                ch.moved, ch.paused, ch.rebalances, ch.idle
            ));
        }
        s.push_str(&format!("><th scope=\"row\">{}</th>", ch.kind.name()));
        match ch.cells() {
            Ok(cells) => {
                for x in &cells {
                    text_in(&mut s, "td", x);
                }
            }
            Err(e) => text_in(&mut s, "td colspan=\"5\"", &e),
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table><p class=\"hint\">Paused: partitions nobody consumes during the rebalance (eager assignors: all; cooperative-sticky: only those that move");
    if changes.iter().any(|c| c.kind.is_broker()) {
        s.push_str("; the broker's, which never rebalance: those that move, until the members have reconciled");
    }
    s.push_str(").</p>");
    s
}

/// The range and round-robin totals side by side (`#compare`, `data-differ`; a row per member
/// with `data-compare-member`, `data-range-total`, `data-roundrobin-total`), and the skew of
/// each.
pub fn side_by_side(rows: &[(&str, u32, u32)], skew: (&str, &str), differ: usize) -> String {
    let mut s = format!(
        "<table class=\"compare\" id=\"compare\" data-differ=\"{differ}\"><thead><tr><th>member</th><th>range</th><th>round-robin</th></tr></thead><tbody>"
    );
    for (id, r, o) in rows {
        s.push_str("<tr data-compare-member=\"");
        escape_into(id, &mut s);
        s.push_str("\">");
        text_in(&mut s, "td", id);
        s.push_str(&format!(
            "<td data-range-total=\"{r}\">{r}</td><td data-roundrobin-total=\"{o}\">{o}</td></tr>"
        ));
    }
    s.push_str("</tbody><tfoot><tr><td>skew</td>");
    text_in(&mut s, "td", skew.0);
    text_in(&mut s, "td", skew.1);
    s.push_str("</tr></tfoot></table>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`escape_into`] a new string.
    fn escape(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        escape_into(s, &mut out);
        out
    }

    #[test]
    fn a_line_still_computing_says_so_and_has_no_figures() {
        use rebalance_lab_core::assignor::AssignorKind;
        use rebalance_lab_core::scenario::whatif::{AssignorChange, PENDING};
        let m = assignor_changes(&[
            AssignorChange::failed(AssignorKind::Range, PENDING.to_string()),
            AssignorChange::failed(AssignorKind::Sticky, "above the bound".to_string()),
        ]);
        assert!(m.contains("(computing: 1 of 2 done)"), "{m}");
        assert!(
            m.contains("<tr data-assignor=\"range\" data-pending=\"true\">"),
            "{m}"
        );
        // a refused line is final: its figures (none) are written
        assert!(
            m.contains("<tr data-assignor=\"sticky\" data-moved=\"0\""),
            "{m}"
        );
        assert_eq!(m.matches("data-moved").count(), 1);
    }

    #[test]
    fn names_that_could_reorder_a_sentence_are_isolated() {
        assert_eq!(isolate("consumer-1"), "consumer-1");
        assert_eq!(
            isolate("\u{202E}gnp.exe"),
            "\u{2068}\u{202E}gnp.exe\u{2069}"
        );
        assert_eq!(isolate("\u{5D0}\u{5D1}"), "\u{2068}\u{5D0}\u{5D1}\u{2069}");
    }
    use rebalance_lab_core::protocol::{FieldPath, FieldValue, Span};

    /// Undoes [`escape`], to show nothing was lost.
    fn unescape(s: &str) -> String {
        s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    /// Text that can neither open a tag nor leave a quoted attribute value, and whose only
    /// `&` start the five entities written here.
    fn assert_inert(escaped: &str) {
        for c in ['<', '>', '"', '\''] {
            assert!(!escaped.contains(c), "{c:?} left in {escaped:.80}");
        }
        for (i, _) in escaped.match_indices('&') {
            let rest = &escaped[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| rest.starts_with(e)),
                "stray & in {escaped:.80}"
            );
        }
    }

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(escape("<>&\"'"), "&lt;&gt;&amp;&quot;&#39;");
        assert_eq!(escape("orders"), "orders");
        // An entity in the input is text, not an entity.
        assert_eq!(escape("&lt;"), "&amp;lt;");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn hostile_names_come_out_inert() {
        let long: String = "<a href='x'>&\"".repeat(10 * 1024 / 14 + 1);
        assert!(long.len() >= 10 * 1024);
        let names = [
            "<img src=x onerror=alert(1)>",
            "\"><script>alert(1)</script>",
            "' onmouseover='alert(1)",
            "javascript:alert(1)",
            "topic\u{202e}gpj.exe",
            "&#x3c;script&#x3e;",
            long.as_str(),
        ];
        for name in names {
            let e = escape(name);
            assert_inert(&e);
            assert_eq!(unescape(&e), name);
        }
        assert_eq!(
            escape("<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert(1)&gt;"
        );
        // No markup character in it: it stays text. It is only ever painted as text or a
        // data attribute, never an href, so it cannot run.
        assert_eq!(escape("javascript:alert(1)"), "javascript:alert(1)");
        // Escaping is about markup, not display: the RTL override passes through as a
        // character (it cannot open a tag; it can only reorder what follows it).
        assert_eq!(escape("topic\u{202e}gpj.exe"), "topic\u{202e}gpj.exe");
        // Appends, keeping what was there.
        let mut s = String::from("<b>");
        escape_into("<i>", &mut s);
        assert_eq!(s, "<b>&lt;i&gt;");
    }

    #[test]
    fn a_hostile_topic_in_a_field_row_stays_text() {
        let f = Field {
            path: FieldPath::top("topics").at(0),
            depth: 1,
            prefix: Some(Span::new(6, 8)),
            payload: Span::new(8, 36),
            value: FieldValue::Text("<img src=x onerror=alert(1)>".into()),
        };
        let mut s = String::new();
        field_row(3, &f, &mut s);
        assert_eq!(
            s,
            "<li class=\"field depth-1 f4\" tabindex=\"0\" data-index=\"3\" \
             data-bytes=\"6-36\" data-field=\"topics[0]\"><span class=\"field-path\">topics[0]</span>\
             <span class=\"field-value\">&quot;&lt;img src=x onerror=alert(1)&gt;&quot;</span>\
             <span class=\"field-where\">@0x0006 +30 (2 prefix, 28 payload)</span></li>"
        );
        // Exactly the row's own tags: the topic opened none.
        assert_eq!(s.matches('<').count(), 8);
    }

    #[test]
    fn rows_without_a_prefix_and_byte_cells() {
        let f = Field {
            path: FieldPath::top("generation_id"),
            depth: 0,
            prefix: None,
            payload: Span::new(20, 24),
            value: FieldValue::Int(-1),
        };
        let mut s = String::new();
        field_row(0, &f, &mut s);
        assert!(s.contains("data-bytes=\"20-24\" data-field=\"generation_id\""));
        assert!(s.contains("<span class=\"field-value\">-1</span>"));
        assert!(s.contains("<span class=\"field-where\">@0x0014 +4</span>"));
        let mut s = String::new();
        byte_cell(0, 0x00, 0, &mut s);
        byte_cell(1, 0xab, field_colour(7), &mut s);
        assert_eq!(
            s,
            "<span class=\"byte f0\" data-offset=\"0\">00</span><span class=\"byte f2\" data-offset=\"1\">ab</span>"
        );
    }

    #[test]
    fn the_group_panel_markup_keeps_hostile_ids_as_text() {
        use rebalance_lab_core::group::{select_protocol, JoinRequest, Revocations};
        let evil = "<img src=x onerror=alert(1)>";
        let vote = select_protocol(&[
            JoinRequest::new(evil, &["range"]),
            JoinRequest::new("b\"'", &["range"]),
        ])
        .unwrap();
        let s = vote_and_leader(&vote, evil, "b\"'", Some(evil));
        assert!(s.contains("data-vote-winner=\"range\""), "{s}");
        assert!(
            s.contains("data-leader=\"&lt;img src=x onerror=alert(1)&gt;\""),
            "{s}"
        );
        assert!(s.contains("data-next-leader=\"b&quot;&#39;\""), "{s}");
        assert!(!s.contains("<img"), "{s}");
        let rev = Revocations {
            eager: vec![(evil.into(), 3)],
            cooperative: vec![(evil.into(), 1, "orders-0".into())],
        };
        let t = stops(&rev, None);
        assert!(
            !t.contains("<img") && t.contains("&lt;img src=x onerror=alert(1)&gt;: 3"),
            "{t}"
        );
        assert!(!t.contains("class=\"note\""));
        assert!(stops(&Revocations::default(), None).contains("Nobody owned partitions before"));
        // why the cooperative column is empty, when cooperative-sticky gives no answer
        let t = stops(
            &rev,
            Some("cooperative-sticky gives no answer for this change: java.lang.<IllegalStateException>"),
        );
        assert!(
            t.contains("cooperative-sticky gives no answer for this change: java.lang.&lt;IllegalStateException&gt;"),
            "{t}"
        );
        let c = rebalance_lab_core::group::coordinator("orders", 50).unwrap();
        let m = coordinator(&c);
        assert!(
            m.contains(&format!("data-coordinator-partition=\"{}\"", c.partition)),
            "{m}"
        );
        assert!(m.starts_with("<ol class=\"coordinator-steps\"><li>"), "{m}");
        assert!(m.contains("</li></ol><p id=\"coordinator\""), "{m}");
        assert_eq!(list("ul", &["a<b".into()]), "<ul><li>a&lt;b</li></ul>");
    }
}
