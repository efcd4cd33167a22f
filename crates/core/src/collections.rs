//! The core's hash maps: std's `HashMap` with a fast hasher for short keys (FxHash, its bits
//! mixed), which the assignors' name lookups need at Kafka's benchmark scale.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
