//! The stylesheet's colours against their text, in the light scheme and the dark one
//! (`prefers-color-scheme: dark`): WCAG AA asks a contrast of 4.5 or more for text (3 for
//! focus rings and marks); each member colour's ink must reach it on the plain colour and
//! where a pattern line crosses it.
#![cfg(not(target_arch = "wasm32"))]

fn channel(c: f64) -> f64 {
    if c <= 0.03928 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn luminance(rgb: [f64; 3]) -> f64 {
    0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
}

fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// `#rgb`, `#rrggbb` or `rgba(r,g,b,a)` as (rgb in 0..1, alpha).
fn parse(v: &str) -> ([f64; 3], f64) {
    let v = v.trim();
    if let Some(h) = v.strip_prefix('#') {
        let h: String = if h.len() == 3 {
            h.chars().flat_map(|c| [c, c]).collect()
        } else {
            h.to_string()
        };
        let n = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap() as f64 / 255.0;
        return ([n(0), n(2), n(4)], 1.0);
    }
    let inner = v
        .strip_prefix("rgba(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unknown colour {v}"));
    let p: Vec<f64> = inner
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    ([p[0] / 255.0, p[1] / 255.0, p[2] / 255.0], p[3])
}

fn var(css: &str, name: &str) -> String {
    let key = format!("{name}:");
    let at = css.find(&key).unwrap_or_else(|| panic!("{name} missing")) + key.len();
    css[at..].split(';').next().unwrap().trim().to_string()
}

fn tokens() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/styles/tokens.css")).unwrap()
}

/// A token's value in a scheme: the dark block's own where it sets one, else the light one.
fn token(css: &str, dark: bool, name: &str) -> String {
    const DARK: &str = "@media (prefers-color-scheme: dark)";
    let (light, dark_block) = match css.split_once(DARK) {
        Some((l, d)) => (l, d.split("@media").next().unwrap()),
        None => (css, ""),
    };
    if dark && dark_block.contains(&format!("{name}:")) {
        return var(dark_block, name);
    }
    var(light, name)
}

#[test]
fn every_member_colour_reads_with_its_ink() {
    let css = tokens();
    for dark in [false, true] {
        member_colours(&css, dark);
    }
}

fn member_colours(css: &str, dark: bool) {
    let mut worst = f64::MAX;
    for i in 0..8 {
        let (bg, _) = parse(&token(css, dark, &format!("--member-{i}")));
        let (ink, _) = parse(&token(css, dark, &format!("--member-{i}-ink")));
        let (line, alpha) = parse(&token(css, dark, &format!("--member-{i}-line")));
        let plain = contrast(bg, ink);
        // where a pattern line crosses the cell: the line blended over the colour
        let crossed = [0, 1, 2].map(|k| line[k] * alpha + bg[k] * (1.0 - alpha));
        let under_line = contrast(crossed, ink);
        assert!(
            plain >= 4.5,
            "--member-{i}: contrast {plain:.2} with its ink"
        );
        assert!(
            under_line >= plain - 1e-9,
            "--member-{i}: its pattern lowers the contrast ({under_line:.2} < {plain:.2})"
        );
        worst = worst.min(plain);
    }
    println!("lowest member colour contrast (dark: {dark}): {worst:.2}");
}

/// Text, links, alerts, notes and the grid's marks on the surfaces they sit on, in both
/// schemes; and the dark scheme really is dark (its page and panel darker than its ink).
#[test]
fn text_and_marks_read_in_both_schemes() {
    let css = tokens();
    let text = [
        ("--ink", "--bg"),
        ("--ink", "--panel"),
        ("--ink", "--note-bg"),
        ("--ink", "--button-bg"),
        ("--ink", "--button-hover"),
        ("--ink", "--pressed-bg"),
        ("--ink", "--warm-bg"),
        ("--muted", "--bg"),
        ("--muted", "--panel"),
        ("--muted", "--note-bg"),
        ("--link", "--panel"),
        ("--link", "--bg"),
        ("--alert-ink", "--alert-bg"),
        ("--alert-ink", "--panel"),
        ("--warm-ink", "--warm-bg"),
        ("--ok-ink", "--ok-bg"),
        ("--ok-ink", "--panel"),
        ("--ink", "--code-bg"),
    ];
    let marks = [
        ("--focus", "--panel"),
        ("--focus", "--bg"),
        ("--mark", "--panel"),
    ];
    for dark in [false, true] {
        let c = |name: &str| parse(&token(&css, dark, name)).0;
        for (fg, bg) in text {
            let k = contrast(c(fg), c(bg));
            assert!(k >= 4.5, "{fg} on {bg} (dark: {dark}): {k:.2}");
        }
        for (fg, bg) in marks {
            let k = contrast(c(fg), c(bg));
            assert!(k >= 3.0, "{fg} on {bg} (dark: {dark}): {k:.2}");
        }
        let darker = luminance(c("--panel")) < luminance(c("--ink"));
        assert_eq!(darker, dark, "dark: {dark}");
    }
    // the field colours of the bytes view carry their own dark ink in both schemes
    let hex =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/styles/hex.css")).unwrap();
    assert!(hex.contains(".f1, .f2, .f3, .f4, .f5, .f6, .byte.pre { color: var(--field-ink); }"));
    for bg in [
        "#fde0c5", "#d4ecd5", "#dcd6f0", "#fbe3ef", "#d6eef5", "#f1ecc4", "#c6dbef", "#e8f0fe",
    ] {
        let ink = parse(&token(&css, true, "--field-ink")).0;
        let where_ = parse(&token(&css, true, "--field-where")).0;
        assert!(contrast(ink, parse(bg).0) >= 4.5, "{bg}");
        assert!(contrast(where_, parse(bg).0) >= 4.5, "field-where on {bg}");
    }
    assert!(css.contains("@media (prefers-reduced-motion: reduce)"));
}
