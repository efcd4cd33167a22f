//! The stylesheet's member colours against their text: WCAG AA asks a contrast of 4.5 or
//! more for text; each colour's ink must reach it on the plain colour and where a pattern
//! line crosses it.
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

#[test]
fn every_member_colour_reads_with_its_ink() {
    let css =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/styles/tokens.css")).unwrap();
    let mut worst = f64::MAX;
    for i in 0..8 {
        let (bg, _) = parse(&var(&css, &format!("--member-{i}")));
        let (ink, _) = parse(&var(&css, &format!("--member-{i}-ink")));
        let (line, alpha) = parse(&var(&css, &format!("--member-{i}-line")));
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
    println!("lowest member colour contrast: {worst:.2}");
}
