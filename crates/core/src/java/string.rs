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

/// The positions of `names` in Java `String` order (stable: equal names keep their input
/// order), as [`compare`] would sort them, but cheaper for many names sharing a prefix
/// (`consumer-1`, `consumer-2`, ...): each name gets a key of the 8 bytes after the prefix
/// common to all, and only names whose keys tie are compared in full.
pub fn order_of(names: &[&str]) -> Vec<u32> {
    let first = names.first().map_or(&b""[..], |n| n.as_bytes());
    let common = names.iter().fold(first.len(), |l, n| {
        if n.as_bytes().starts_with(&first[..l]) {
            return l; // (the usual case, one comparison)
        }
        first[..l]
            .iter()
            .zip(n.as_bytes())
            .take_while(|(x, y)| x == y)
            .count()
    });
    let mut keys: Vec<(u64, u32)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut k = [0u8; 8];
            for (d, b) in k.iter_mut().zip(&n.as_bytes()[common..]) {
                // UTF-16 order of lead bytes (see `compare`): EE, EF after F0..F4. A shorter
                // name pads with 0 and ties with a longer one: the full compare settles it.
                *d = match *b {
                    0xEE => 0xF5,
                    0xEF => 0xF6,
                    b => b,
                };
            }
            (u64::from_be_bytes(k), i as u32)
        })
        .collect();
    let in_full = |a: &(u64, u32), b: &(u64, u32)| {
        a.0.cmp(&b.0)
            .then_with(|| compare(names[a.1 as usize], names[b.1 as usize]))
            .then(a.1.cmp(&b.1))
    };
    if keys.len() > 64 {
        // A stable radix sort by key (input order within a key), then each run of
        // equal keys by the full compare.
        radix_sort(&mut keys);
        for run in keys.chunk_by_mut(|a, b| a.0 == b.0).filter(|r| r.len() > 1) {
            crate::collections::sort_by(run, in_full);
        }
    } else {
        crate::collections::sort_by(&mut keys, in_full);
    }
    keys.into_iter().map(|(_, i)| i).collect()
}

/// Sorts by the `u64`, stably: least significant byte first, skipping bytes every key
/// shares.
fn radix_sort(keys: &mut Vec<(u64, u32)>) {
    let (any, all) = keys
        .iter()
        .fold((0u64, !0u64), |(o, a), k| (o | k.0, a & k.0));
    let mut other = vec![(0u64, 0u32); keys.len()];
    for shift in (0..64).step_by(8) {
        if ((any ^ all) >> shift) & 0xff == 0 {
            continue;
        }
        let mut at = [0u32; 257];
        for k in keys.iter() {
            at[((k.0 >> shift) & 0xff) as usize + 1] += 1;
        }
        for i in 0..256 {
            at[i + 1] += at[i];
        }
        for k in keys.iter() {
            let b = ((k.0 >> shift) & 0xff) as usize;
            other[at[b] as usize] = *k;
            at[b] += 1;
        }
        std::mem::swap(keys, &mut other);
    }
}

/// Java's `String.hashCode`: `h = 31 * h + unit` over UTF-16 code units, wrapping 32-bit
/// signed arithmetic (a character outside the BMP counts as its two surrogates).
pub fn hash_code(s: &str) -> i32 {
    if s.is_ascii() {
        // one UTF-16 unit per byte
        // four at a time (31^4 h + 31^3 a + 31^2 b + 31 c + d: the same sum with a
        // quarter of the dependent multiplications)
        let mut chunks = s.as_bytes().chunks_exact(4);
        let mut h = 0i32;
        for c in &mut chunks {
            let tail = (c[0] as i32 * 29_791) + (c[1] as i32 * 961) + (c[2] as i32 * 31);
            h = h.wrapping_mul(923_521).wrapping_add(tail + c[3] as i32);
        }
        return chunks
            .remainder()
            .iter()
            .fold(h, |h, b| h.wrapping_mul(31).wrapping_add(*b as i32));
    }
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

    /// Positions of `names` sorted stably by [`compare`]: what `order_of` must give.
    #[cfg(not(target_arch = "wasm32"))]
    fn by_compare(names: &[&str]) -> Vec<u32> {
        let mut want: Vec<u32> = (0..names.len() as u32).collect();
        want.sort_by(|a, b| compare(names[*a as usize], names[*b as usize]));
        want
    }

    /// `order_of` against [`by_compare`] for `consumer-` and each tail.
    #[cfg(not(target_arch = "wasm32"))]
    fn check_prefixed(tails: &[String]) -> Result<(), proptest::test_runner::TestCaseError> {
        let full: Vec<String> = tails.iter().map(|t| format!("consumer-{t}")).collect();
        let names: Vec<&str> = full.iter().map(String::as_str).collect();
        proptest::prop_assert_eq!(order_of(&names), by_compare(&names));
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn order_of_is_a_stable_sort_by_compare(
            names in proptest::collection::vec("(c|co|\\PC)\\PC{0,9}", 0..40)
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(order_of(&names), by_compare(&names));
        }
        #[test]
        fn order_of_with_a_long_shared_prefix(
            tails in proptest::collection::vec("\\PC{0,12}", 0..40)
        ) {
            check_prefixed(&tails)?;
        }
        #[test]
        fn order_of_many_names_sorts_by_radix_and_ties(
            // over 64 names (the radix path), with long tails (keys that tie) and repeats
            tails in proptest::collection::vec("(\\PC{0,3}|[a-c]{8,11}|\u{E000}|\u{1F600}|a\u{0}|a)", 65..300)
        ) {
            check_prefixed(&tails)?;
        }
        #[test]
        fn hash_code_is_the_unit_by_unit_sum(s in "(\\PC{0,40}|[ -~]{0,40})") {
            let want = s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32));
            proptest::prop_assert_eq!(hash_code(&s), want);
        }
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
