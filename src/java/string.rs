//! `java.lang.String`: `compareTo` and `hashCode`, over UTF-16 code units.

use std::cmp::Ordering;

/// Java's `String.compareTo`: lexicographic over UTF-16 code units.
///
/// It agrees with Rust's `str` order (code points) except when a character outside the BMP
/// (a surrogate pair, D800-DFFF) meets one in U+E000..U+FFFF: Java puts the surrogate first.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let Some(i) = ab.iter().zip(bb).position(|(x, y)| x != y) else {
        return ab.len().cmp(&bb.len());
    };
    let (x, y) = (ab[i], bb[i]);
    // UTF-8 byte order is code point order. UTF-16 differs only between U+E000..U+FFFF
    // (lead bytes EE, EF) and supplementary characters (lead bytes F0..F4, surrogates in
    // UTF-16, which sort lower). Those always differ at the lead byte; a differing
    // continuation byte means both characters share a lead byte, hence a range.
    if x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0) {
        return y.cmp(&x);
    }
    x.cmp(&y)
}

/// Java's `String.hashCode`: `h = 31 * h + unit` over UTF-16 code units, wrapping 32-bit
/// signed arithmetic (a character outside the BMP counts as its two surrogates).
pub fn hash_code(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_suffix_is_lexicographic() {
        assert_eq!(compare("consumer-10", "consumer-2"), Ordering::Less);
    }

    #[test]
    fn surrogates_sort_before_private_use() {
        assert_eq!(compare("\u{1F600}", "\u{E000}"), Ordering::Less);
        assert_eq!(compare("\u{1F600}", "\u{FFFD}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{E000}"), Ordering::Greater);
        assert_eq!(compare("a", "ab"), Ordering::Less);
        assert_eq!(compare("é", "z"), Ordering::Greater);
    }

    #[test]
    fn known_hash_codes() {
        assert_eq!(hash_code(""), 0);
        assert_eq!(hash_code("polygenelubricants"), i32::MIN);
        assert_eq!(hash_code("Aa"), 2112);
        assert_eq!(hash_code("BB"), 2112);
        // U+1F600 is the surrogates D83D DE00: 31 * 0xD83D + 0xDE00
        assert_eq!(hash_code("\u{1F600}"), 31 * 0xD83D + 0xDE00);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn utf16_cmp(a: &str, b: &str) -> Ordering {
        a.encode_utf16().cmp(b.encode_utf16())
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn agrees_with_utf16(a in "\\PC{0,6}", b in "\\PC{0,6}") {
            proptest::prop_assert_eq!(compare(&a, &b), utf16_cmp(&a, &b));
        }
        #[test]
        fn agrees_with_utf16_shared_prefix(p in "\\PC{0,3}", a in "\\PC{0,3}", b in "\\PC{0,3}") {
            let (x, y) = (format!("{p}{a}"), format!("{p}{b}"));
            proptest::prop_assert_eq!(compare(&x, &y), utf16_cmp(&x, &y));
        }
    }
}
