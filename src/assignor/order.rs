//! Member order as the Java client sorts it: static members (group.instance.id) first, then
//! Java's `String.compareTo`, which compares UTF-16 code units, not Rust's `str` order.

use super::MemberMeta;
use std::cmp::Ordering;

/// Java's `String.compareTo`: lexicographic over UTF-16 code units.
///
/// It agrees with Rust's `str` order (code points) except when a character outside the BMP
/// (a surrogate pair, D800-DFFF) meets one in U+E000..U+FFFF: Java puts the surrogate first.
pub fn java_cmp(a: &str, b: &str) -> Ordering {
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

/// Java's `MemberInfo.compareTo`: static members first, ordered by group.instance.id;
/// dynamic members by member id.
pub fn member_cmp(a: &MemberMeta, b: &MemberMeta) -> Ordering {
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => java_cmp(x, y).then_with(|| java_cmp(&a.id, &b.id)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => java_cmp(&a.id, &b.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(not(target_arch = "wasm32"))]
    fn utf16_cmp(a: &str, b: &str) -> Ordering {
        a.encode_utf16().cmp(b.encode_utf16())
    }

    #[test]
    fn numeric_suffix_is_lexicographic() {
        assert_eq!(java_cmp("consumer-10", "consumer-2"), Ordering::Less);
    }

    #[test]
    fn surrogates_sort_before_private_use() {
        assert_eq!(java_cmp("\u{1F600}", "\u{E000}"), Ordering::Less);
        assert_eq!(java_cmp("\u{1F600}", "\u{FFFD}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{E000}"), Ordering::Greater);
        assert_eq!(java_cmp("a", "ab"), Ordering::Less);
        assert_eq!(java_cmp("é", "z"), Ordering::Greater);
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn agrees_with_utf16(a in "\\PC{0,6}", b in "\\PC{0,6}") {
            proptest::prop_assert_eq!(java_cmp(&a, &b), utf16_cmp(&a, &b));
        }
        #[test]
        fn agrees_with_utf16_shared_prefix(p in "\\PC{0,3}", a in "\\PC{0,3}", b in "\\PC{0,3}") {
            let (x, y) = (format!("{p}{a}"), format!("{p}{b}"));
            proptest::prop_assert_eq!(java_cmp(&x, &y), utf16_cmp(&x, &y));
        }
    }
}
