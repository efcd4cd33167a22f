//! The core's hash maps: std's `HashMap` with a fast hasher for short keys (FxHash, its bits
//! mixed), which the assignors' name lookups need at Kafka's benchmark scale; and one stable
//! sort for every element type ([`sort_by`]: std's compiles a copy per type into the page).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Sorts `v` stably by `cmp`, as `slice::sort_by` does.
///
/// The comparisons run through one non-generic index sort, so the page holds a single copy
/// of the sort code whatever the element type; only the final permutation (swaps) is
/// generic. With `slice::sort_by` at the 20 call sites of the core's own orders, each
/// element type compiled its own copy of std's sort at the core's opt-level 3: the page's
/// module gained 276 KB of sort code, 125 KiB gzip, and went over the size alarm
/// (`scripts/test.sh`, SIZE: 443 KiB gzip with this sort, 557 KiB with std's).
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

/// Names to numbers (an index, or 0 where only presence matters), looked up by `&str`.
pub(crate) type Names = FastMap<String, u32>;
