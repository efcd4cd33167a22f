//! What we reproduce of Java itself, once: the floor every exact answer stands on.
//!
//! Kafka's answers depend on Java library behaviour as much as on Kafka's own logic: member
//! order on `String.compareTo`, the coordinator on `String.hashCode`, the protocol vote, the
//! next leader and the broker's uniform assignor on `java.util.HashMap` iteration order, topic
//! order on Kafka's `Uuid`. Each is here, tested against values recorded from a real JVM
//! (`tests/vectors/java.json`, made by `tests/java/RecordJava.java`); nothing else in the
//! crate sorts or iterates "close enough".

pub mod hash_map;
pub mod string;
mod tree_bin;
pub mod uuid;

pub use hash_map::{iteration_order, JavaHash, JavaHashMap};
pub use string::{
    compare as string_compare, hash_code as string_hash_code, order_of as string_order,
};
pub use uuid::Uuid;

/// Kafka's `Utils.abs`: `Math.abs`, except that `Integer.MIN_VALUE` maps to 0 (not to
/// itself, and not to `n & 0x7fffffff` as many explanations write it).
pub fn utils_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utils_abs_maps_min_to_zero() {
        assert_eq!(utils_abs(i32::MIN), 0);
        assert_eq!(utils_abs(-5), 5);
        assert_eq!(utils_abs(i32::MAX), i32::MAX);
        // the bit mask that popular explanations use differs
        assert_ne!(utils_abs(-5), -5 & 0x7fff_ffff);
    }
}
