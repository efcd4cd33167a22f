//! Small collections for the core, chosen for the size of the WebAssembly bundle.
//!
//! std's `BTreeMap` and its sorts are generic: every key and value type gets its own copy of
//! the tree code (several KiB each) and every element type its own copy of the sort (about
//! 4 KiB). The scenario's maps are small (a few topics, a few members), so a sorted vector
//! serves them as well, and every sort goes through one index sort. Hash maps use FxHash.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::marker::PhantomData;

/// Sorts `v` stably by `cmp`.
///
/// The comparisons run through one non-generic index sort, so the bundle holds a single
/// copy of the sort code whatever the element type; only the final permutation (swaps) is
/// generic.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if let Some(perm) = sorted_indices(v.len(), &mut |a, b| cmp(&v[a], &v[b])) {
        permute(v, perm);
    }
}

/// Sorts `v` stably by its natural order (see [`sort_by`]).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The sorted order of `0..n` by `cmp`, or `None` when it is already sorted: one pass then,
/// and nothing allocated (the page writes 10,000 members' already sorted topic lists into
/// each link, where the sort itself took 15 to 30 ms).
fn sorted_indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Option<Vec<u32>> {
    if (1..n).all(|i| cmp(i - 1, i) != Ordering::Greater) {
        return None;
    }
    // Indices are u32 (half the memory of usize natively); u32::MAX marks a placed slot.
    assert!(n < u32::MAX as usize, "sort: {n} elements is too many");
    let mut idx: Vec<u32> = (0..n as u32).collect();
    idx.sort_by(|&a, &b| cmp(a as usize, b as usize));
    Some(idx)
}

/// Puts `v[perm[i]]` at position `i`, following each cycle of the permutation with swaps.
fn permute<T>(v: &mut [T], mut perm: Vec<u32>) {
    const DONE: u32 = u32::MAX;
    for start in 0..v.len() {
        if perm[start] == DONE {
            continue;
        }
        let mut at = start;
        loop {
            let from = perm[at] as usize;
            perm[at] = DONE;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// A map kept as a vector sorted by key: the same order and the same methods as the
/// `BTreeMap` uses it replaces, for maps of a few entries.
///
/// `insert` moves the entries after the key, so building a big map one key at a time is
/// quadratic; `collect`, deserializing and [`VecMap::from_vec_merging`] sort once instead.
/// A repeated key keeps its last value in `collect` and in deserializing (as `BTreeMap`).
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value for `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value for `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it had.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value for `key`, inserted as `V::default()` when missing.
    pub fn entry_or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, V::default()));
                i
            }
        };
        &mut self.entries[i].1
    }
}

impl<K, V> VecMap<K, V> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// A map of `entries`, sorted once (not inserted one by one); `merge` folds the value of
    /// a repeated key into the earlier one.
    pub fn from_vec_merging(mut entries: Vec<(K, V)>, mut merge: impl FnMut(&mut V, V)) -> Self {
        sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        let mut out: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match out.last_mut() {
                Some(last) if last.0 == k => merge(&mut last.1, v),
                _ => out.push((k, v)),
            }
        }
        VecMap { entries: out }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// A map of `entries` where a repeated key keeps the value that comes last (and the
    /// key that came first), as `BTreeMap::from_iter` and serde's `BTreeMap` do. One sort,
    /// not one insertion per entry (which is quadratic in the number of keys).
    pub fn from_vec_last_wins(entries: Vec<(K, V)>) -> Self {
        // The sort is stable, so equal keys stay in input order and the last one replaces.
        Self::from_vec_merging(entries, |earlier, later| *earlier = later)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Later entries win over earlier ones with the same key, as in `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_vec_last_wins(iter.into_iter().collect())
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for this key")
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = VecMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            /// A key given twice keeps its last value, as serde's `BTreeMap` does (and as
            /// inserting one by one did). Collected, then sorted once: a file with a
            /// million keys must not cost a million insertions into a sorted vector.
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // The size hint comes from the input: trust it only up to a small bound.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(4096));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(VecMap::from_vec_last_wins(entries))
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// FxHash: a fast hasher for short keys (topic names); the default SipHash would dominate
/// the assignment time at Kafka's benchmark scale.
///
/// Plain FxHash ends with a multiplication, so keys that differ only in their last bytes
/// (`consumer-0000001`, `consumer-0000002`, ...) differ only in the high bits of the hash,
/// and a hash table, which picks buckets from the low bits, puts them all in one probe
/// sequence: quadratic in the number of keys. `finish` therefore mixes the bits (the
/// splitmix64 finalizer). Natively the state also starts from a per-process random seed,
/// so a file cannot be built to collide (in the browser, where the scenario is the user's
/// own, it starts from zero).
#[derive(Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Default for FxHasher {
    fn default() -> Self {
        FxHasher(seed())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn seed() -> u64 {
    use std::hash::BuildHasher;
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u64))
}

#[cfg(target_arch = "wasm32")]
fn seed() -> u64 {
    0
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ (*b as u64)).wrapping_mul(K);
        }
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Names to numbers (an index, or 0 where only presence matters): the one string-keyed hash
/// map of the code the page runs. Every key and value type of a std map compiles its own
/// copy of the table code into the bundle; owning the keys costs one allocation per name
/// inserted, and look-ups take a `&str`.
pub(crate) type Names = FastMap<String, u32>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_by_is_stable_and_matches_std() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for n in [0usize, 1, 2, 3, 10, 57, 500] {
            let v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    ((rng % 7) as u8, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "n = {n}");
        }
    }

    #[test]
    fn sort_by_of_sorted_or_nearly_sorted_input() {
        // Already in order (equal keys kept in place): the one pass that allocates nothing.
        let mut v = vec![(1, 'a'), (1, 'b'), (2, 'c'), (5, 'd'), (5, 'e')];
        sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, [(1, 'a'), (1, 'b'), (2, 'c'), (5, 'd'), (5, 'e')]);
        // In order but for the last element, or the first: sorted, stably.
        let mut v = vec![(1, 'a'), (2, 'b'), (2, 'c'), (3, 'd'), (2, 'e')];
        sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, [(1, 'a'), (2, 'b'), (2, 'c'), (2, 'e'), (3, 'd')]);
        let mut v = vec![9, 1, 2, 3];
        sort(&mut v);
        assert_eq!(v, [1, 2, 3, 9]);
    }

    #[test]
    fn vec_map_behaves_like_btree_map() {
        let mut m: VecMap<String, u32> = VecMap::new();
        assert_eq!(m.insert("b".into(), 1), None);
        assert_eq!(m.insert("a".into(), 2), None);
        assert_eq!(m.insert("b".into(), 3), Some(1));
        *m.entry_or_default("c".into()) += 5;
        *m.entry_or_default("c".into()) += 1;
        assert_eq!(
            m.keys().map(String::as_str).collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(m["c"], 6);
        assert_eq!(m.get("a"), Some(&2));
        assert_eq!(m.remove("a"), Some(2));
        assert!(!m.contains_key("a"));
        assert_eq!(m.len(), 2);
        let from: VecMap<u8, u8> = [(2, 1), (1, 1), (2, 9)].into_iter().collect();
        assert_eq!(from.iter().collect::<Vec<_>>(), [(&1, &1), (&2, &9)]);
        let summed = VecMap::from_vec_merging(vec![(3, 1), (1, 1), (3, 2), (3, 4)], |a, b| *a += b);
        assert_eq!(summed.iter().collect::<Vec<_>>(), [(&1, &1), (&3, &7)]);
    }
}
