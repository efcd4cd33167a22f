//! `java.util.HashMap` (and `HashSet`, which is a `HashMap`) iteration order, emulated.
//!
//! Java iterates a `HashMap` bucket by bucket in ascending index, where a key's bucket is
//! `(h ^ (h >>> 16)) & (capacity - 1)` with `h` its `hashCode()`; within a bucket, in the
//! order the keys were added (a resize splits each bucket in two and keeps that order; a
//! removal unlinks one key and never shrinks the table). The capacity follows Java 17's
//! rules: `new HashMap<>()` allocates 16 buckets on the first `put` and doubles whenever the
//! size would exceed 0.75 x capacity; `new HashMap<>(n)` starts at the next power of two at
//! least `n`; a 9th key in one bucket doubles the table while it has fewer than 64 buckets.
//!
//! At 64 buckets or more, a 9th key in one bucket turns that bucket into a red-black tree,
//! whose linked order Java then rearranges. That needs 9 keys whose spread hashes agree in
//! their low 6+ bits; it is not emulated, and [`JavaHashMap::is_exact`] says when it happened
//! so that a caller can say the order may differ from Java's.

use super::Uuid;

/// A key's Java `hashCode()`.
pub trait JavaHash {
    /// What Java's `hashCode()` returns for this value.
    fn java_hash(&self) -> i32;
}

impl JavaHash for str {
    fn java_hash(&self) -> i32 {
        super::string::hash_code(self)
    }
}

impl JavaHash for String {
    fn java_hash(&self) -> i32 {
        super::string::hash_code(self)
    }
}

impl JavaHash for i32 {
    /// `Integer.hashCode` is the value.
    fn java_hash(&self) -> i32 {
        *self
    }
}

impl JavaHash for Uuid {
    fn java_hash(&self) -> i32 {
        self.hash_code()
    }
}

impl<T: JavaHash + ?Sized> JavaHash for &T {
    fn java_hash(&self) -> i32 {
        (**self).java_hash()
    }
}

/// `HashMap.hash`: the hash code with its high half folded into the low half.
pub fn spread(h: i32) -> u32 {
    let h = h as u32;
    h ^ (h >> 16)
}

/// `HashMap.tableSizeFor`: the next power of two at least `c` (1 for 0), capped at 2^30.
fn table_size_for(c: usize) -> usize {
    c.max(1)
        .checked_next_power_of_two()
        .unwrap_or(1 << 30)
        .min(1 << 30)
}

const TREEIFY_THRESHOLD: usize = 8;
const MIN_TREEIFY_CAPACITY: usize = 64;

/// A `java.util.HashMap<K, V>` that iterates in exactly Java's order (see the module docs).
#[derive(Debug, Clone)]
pub struct JavaHashMap<K, V> {
    /// Buckets, each holding entries in Java's linked order. Empty until the first insert
    /// (Java allocates the table lazily).
    buckets: Vec<Vec<(u32, K, V)>>,
    /// Capacity the table takes on first use (Java's `threshold` before allocation).
    initial_capacity: usize,
    /// Java's `threshold`: resize when the size exceeds it.
    threshold: usize,
    len: usize,
    exact: bool,
}

impl<K: PartialEq + JavaHash, V> Default for JavaHashMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: PartialEq + JavaHash, V> JavaHashMap<K, V> {
    /// `new HashMap<>()`.
    pub fn new() -> Self {
        JavaHashMap {
            buckets: Vec::new(),
            initial_capacity: 16,
            threshold: 0,
            len: 0,
            exact: true,
        }
    }

    /// `new HashMap<>(initialCapacity)`.
    pub fn with_capacity(initial_capacity: usize) -> Self {
        JavaHashMap {
            initial_capacity: table_size_for(initial_capacity),
            ..Self::new()
        }
    }

    /// `new HashSet<>(collection)` sizes its map `max((int) (n / .75f) + 1, 16)` before
    /// adding the elements (in the collection's order; use [`JavaHashMap::insert`]).
    pub fn for_collection_of(n: usize) -> Self {
        Self::with_capacity((((n as f32) / 0.75f32) as usize + 1).max(16))
    }

    /// `new HashMap<>(otherMap)` sizes its table for `n` entries as Java 17's
    /// `putMapEntries` does (`n / 0.75f + 1`) before copying them in the other map's order.
    pub fn for_map_of(n: usize) -> Self {
        let ft = (n as f32) / 0.75f32 + 1.0f32;
        let t = ft as usize;
        // threshold starts at 0, so any t > 0 sets it
        Self::with_capacity(t)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The table's current number of buckets (0 before the first insert).
    pub fn capacity(&self) -> usize {
        self.buckets.len()
    }

    /// False once a bucket would have become a red-black tree in Java (see the module
    /// docs): from then on the order may differ from Java's.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    fn index(&self, h: u32) -> usize {
        h as usize & (self.buckets.len() - 1)
    }

    fn resize(&mut self) {
        let old = self.buckets.len();
        let (cap, thr) = if old == 0 {
            let cap = self.initial_capacity;
            (cap, (cap as f32 * 0.75f32) as usize)
        } else if old >= 1 << 30 {
            self.threshold = usize::MAX;
            return;
        } else if old >= 16 {
            (old * 2, self.threshold * 2)
        } else {
            (old * 2, (old as f32 * 2.0 * 0.75f32) as usize)
        };
        let mut next: Vec<Vec<(u32, K, V)>> = (0..cap).map(|_| Vec::new()).collect();
        for bucket in std::mem::take(&mut self.buckets) {
            for e in bucket {
                let i = e.0 as usize & (cap - 1);
                next[i].push(e);
            }
        }
        self.buckets = next;
        self.threshold = thr;
    }

    /// `put(key, value)`: a new key goes last in its bucket; an existing key keeps its place
    /// and gets the new value, which is returned.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.buckets.is_empty() {
            self.resize();
        }
        let h = spread(key.java_hash());
        let i = self.index(h);
        if let Some(e) = self.buckets[i].iter_mut().find(|e| e.0 == h && e.1 == key) {
            return Some(std::mem::replace(&mut e.2, value));
        }
        self.buckets[i].push((h, key, value));
        if self.buckets[i].len() > TREEIFY_THRESHOLD {
            if self.buckets.len() < MIN_TREEIFY_CAPACITY {
                self.resize();
            } else {
                self.exact = false;
            }
        }
        self.len += 1;
        if self.len > self.threshold {
            self.resize();
        }
        None
    }

    /// `remove(key)`.
    pub fn remove<Q: PartialEq<K> + JavaHash + ?Sized>(&mut self, key: &Q) -> Option<V> {
        if self.buckets.is_empty() {
            return None;
        }
        let h = spread(key.java_hash());
        let i = self.index(h);
        let at = self.buckets[i]
            .iter()
            .position(|e| e.0 == h && *key == e.1)?;
        self.len -= 1;
        Some(self.buckets[i].remove(at).2)
    }

    /// `get(key)`.
    pub fn get<Q: PartialEq<K> + JavaHash + ?Sized>(&self, key: &Q) -> Option<&V> {
        if self.buckets.is_empty() {
            return None;
        }
        let h = spread(key.java_hash());
        self.buckets[self.index(h)]
            .iter()
            .find(|e| e.0 == h && *key == e.1)
            .map(|e| &e.2)
    }

    /// `get(key)`, mutable.
    pub fn get_mut<Q: PartialEq<K> + JavaHash + ?Sized>(&mut self, key: &Q) -> Option<&mut V> {
        if self.buckets.is_empty() {
            return None;
        }
        let h = spread(key.java_hash());
        let i = self.index(h);
        self.buckets[i]
            .iter_mut()
            .find(|e| e.0 == h && *key == e.1)
            .map(|e| &mut e.2)
    }

    /// `containsKey(key)`.
    pub fn contains_key<Q: PartialEq<K> + JavaHash + ?Sized>(&self, key: &Q) -> bool {
        self.get(key).is_some()
    }

    /// `clear()`: every key goes, the table keeps its size (Java never shrinks it), so keys
    /// added afterwards land in the buckets of the current capacity.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.len = 0;
    }

    /// Entries in Java's iteration order (`entrySet()`).
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.buckets.iter().flatten().map(|e| (&e.1, &e.2))
    }

    /// Keys in Java's iteration order (`keySet()`).
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.iter().map(|(k, _)| k)
    }
}

/// The iteration order of a `java.util.HashMap` (or `HashSet`) after `put`s of distinct keys
/// with these hash codes, in this order, and no removal: the positions of the keys in the
/// order Java iterates them. `table` is the bucket count the table takes at its first `put`
/// (16 for `new HashMap<>()`; [`JavaHashMap::table_for_collection_of`] for
/// `new HashSet<>(collection)`).
///
/// The same answer as inserting into a [`JavaHashMap`] and reading its keys (a test says
/// so), without a bucket list per key: the capacity is simulated with bucket counts only,
/// then the keys are stably sorted by their final bucket (a resize keeps each bucket's
/// order, so within a bucket the order is insertion order). `None` when a bucket would have
/// become a red-black tree, whose order is not emulated (see the module docs).
pub fn iteration_order(hashes: &[i32], table: usize) -> Option<Vec<u32>> {
    let spread: Vec<u32> = hashes.iter().map(|h| spread(*h)).collect();
    let mut cap = table.max(1);
    let mut threshold = (cap as f32 * 0.75f32) as usize;
    // Bucket counts only matter while a 9th key in one bucket can force a resize (below 64
    // buckets) or a tree (from 64); they are kept at every capacity to see the latter.
    let mut counts = vec![0u32; cap];
    for (n, h) in spread.iter().enumerate() {
        let b = *h as usize & (cap - 1);
        counts[b] += 1;
        let mut grow = false;
        if counts[b] as usize > TREEIFY_THRESHOLD {
            if cap < MIN_TREEIFY_CAPACITY {
                grow = true;
            } else {
                return None;
            }
        }
        let grow_then = |cap: usize, threshold: usize| -> (usize, usize) {
            if cap >= 1 << 30 {
                (cap, usize::MAX)
            } else if cap >= 16 {
                (cap * 2, threshold * 2)
            } else {
                (cap * 2, (cap as f32 * 2.0 * 0.75f32) as usize)
            }
        };
        if grow {
            (cap, threshold) = grow_then(cap, threshold);
        }
        if n + 1 > threshold {
            (cap, threshold) = grow_then(cap, threshold);
        }
        if counts.len() != cap {
            counts = vec![0; cap];
            for h in &spread[..=n] {
                counts[*h as usize & (cap - 1)] += 1;
            }
        }
    }
    // Counting sort by final bucket, stable.
    let mut start = vec![0u32; cap + 1];
    for h in &spread {
        start[(*h as usize & (cap - 1)) + 1] += 1;
    }
    for i in 0..cap {
        start[i + 1] += start[i];
    }
    let mut order = vec![0u32; spread.len()];
    for (i, h) in spread.iter().enumerate() {
        let b = *h as usize & (cap - 1);
        order[start[b] as usize] = i as u32;
        start[b] += 1;
    }
    Some(order)
}

impl<K, V> JavaHashMap<K, V> {
    /// The bucket count `new HashSet<>(collection)` of `n` elements starts with (the table
    /// [`JavaHashMap::for_collection_of`] allocates), for [`iteration_order`].
    pub fn table_for_collection_of(n: usize) -> usize {
        table_size_for((((n as f32) / 0.75f32) as usize + 1).max(16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_java() {
        let mut m = JavaHashMap::new();
        assert_eq!(m.capacity(), 0);
        for i in 0..12 {
            m.insert(i, ());
        }
        assert_eq!(m.capacity(), 16);
        m.insert(12, ());
        assert_eq!(m.capacity(), 32);
        assert_eq!(
            JavaHashMap::<i32, ()>::for_collection_of(13).initial_capacity,
            32
        );
        assert_eq!(
            JavaHashMap::<i32, ()>::for_collection_of(3).initial_capacity,
            16
        );
        assert_eq!(
            JavaHashMap::<i32, ()>::with_capacity(100).initial_capacity,
            128
        );
        assert_eq!(JavaHashMap::<i32, ()>::with_capacity(0).initial_capacity, 1);
    }

    #[test]
    fn protocol_names_in_bucket_order() {
        // The order the protocol vote breaks ties in (KAFKA-SEMANTICS.md).
        let mut m = JavaHashMap::new();
        for p in ["cooperative-sticky", "range", "roundrobin", "sticky"] {
            m.insert(p, 0);
        }
        let order: Vec<&str> = m.keys().copied().collect();
        assert_eq!(
            order,
            ["sticky", "range", "roundrobin", "cooperative-sticky"]
        );
    }

    #[test]
    fn clear_keeps_the_table() {
        let mut m = JavaHashMap::new();
        for i in 0..13 {
            m.insert(i, ());
        }
        m.clear();
        assert!(m.is_empty() && m.capacity() == 32);
        // 16 and 0 share a bucket at capacity 16, not at 32
        m.insert(16, ());
        m.insert(0, ());
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [0, 16]);
    }

    #[test]
    fn a_tree_bucket_is_reported() {
        // "Aa" and "BB" share a hash: 2^k strings of k such pairs all collide.
        let keys: Vec<String> = (0..16u32)
            .map(|n| {
                (0..4)
                    .map(|b| if n >> b & 1 == 1 { "Aa" } else { "BB" })
                    .collect()
            })
            .collect();
        let mut m = JavaHashMap::new();
        for k in &keys[..9] {
            m.insert(k.clone(), ());
        }
        // below 64 buckets the 9th colliding key doubles the table instead
        assert!(m.is_exact());
        assert_eq!(m.capacity(), 32);
        let mut m = JavaHashMap::with_capacity(64);
        for k in &keys[..9] {
            m.insert(k.clone(), ());
        }
        assert!(!m.is_exact());
    }

    #[test]
    fn iteration_order_is_the_maps_order() {
        // Pseudo-random hashes, colliding ones, and the resize-forcing nine in one bucket.
        let mut x: u64 = 848;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as i32
        };
        let mut cases: Vec<Vec<i32>> = Vec::new();
        for n in [0usize, 1, 5, 12, 13, 24, 25, 100, 1000, 3000] {
            cases.push((0..n).map(|_| next()).collect());
            cases.push((0..n as i32).map(|p| p * 16).collect());
            cases.push((0..n as i32).rev().collect());
        }
        for hashes in &cases {
            let mut seen = std::collections::HashSet::new();
            let hashes: Vec<i32> = hashes.iter().copied().filter(|h| seen.insert(*h)).collect();
            for (mut m, table) in [
                (JavaHashMap::new(), 16),
                (
                    JavaHashMap::for_collection_of(hashes.len()),
                    JavaHashMap::<i32, ()>::table_for_collection_of(hashes.len()),
                ),
            ] {
                for (i, h) in hashes.iter().enumerate() {
                    m.insert(*h, i as u32);
                }
                let want: Option<Vec<u32>> = m.is_exact().then(|| m.iter().map(|e| *e.1).collect());
                assert_eq!(
                    iteration_order(&hashes, table),
                    want,
                    "{} keys",
                    hashes.len()
                );
            }
        }
    }
}
