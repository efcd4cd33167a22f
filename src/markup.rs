//! Markup written as strings, for the two views that paint straight into the DOM (the
//! grid's cells and the bytes with their field tree): HTML escaping, and the markup of one
//! byte and one field row. Everything else is `html!`, which escapes for itself.
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
}
