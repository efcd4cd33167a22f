//! Which partition of `__consumer_offsets`, hence which broker, coordinates a group:
//! `GroupCoordinatorService.partitionFor`, `Utils.abs(groupId.hashCode()) % numPartitions`.

use crate::java::{string_hash_code, utils_abs};
use std::fmt;

/// `offsets.topic.num.partitions`' default.
pub const DEFAULT_OFFSETS_PARTITIONS: u32 = 50;

/// The coordinator arithmetic for one group id, step by step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coordinator {
    /// The group id.
    pub group_id: String,
    /// Its length in UTF-16 code units (what `hashCode` runs over).
    pub utf16_units: usize,
    /// `groupId.hashCode()`: `h = 31 * h + unit` over UTF-16 units, 32-bit wrapping.
    pub hash_code: i32,
    /// `Utils.abs(hash_code)`: `Math.abs`, except `Integer.MIN_VALUE` gives 0.
    pub abs: i32,
    /// `offsets.topic.num.partitions`.
    pub offsets_partitions: u32,
    /// `abs % offsets_partitions`: the `__consumer_offsets` partition whose leader
    /// coordinates the group.
    pub partition: u32,
}

impl Coordinator {
    /// True when `hashCode` is `Integer.MIN_VALUE` (where `Math.abs` would stay negative).
    pub fn hash_is_min_value(&self) -> bool {
        self.hash_code == i32::MIN
    }

    /// The error JoinGroup answers for this group id, if any: an empty group id maps to a
    /// partition (0) but `GroupCoordinatorService.joinGroup` refuses it first.
    pub fn join_error(&self) -> Option<&'static str> {
        self.group_id.is_empty().then_some("INVALID_GROUP_ID")
    }

    /// The arithmetic as lines of text, one step a line.
    pub fn explain(&self) -> Vec<String> {
        let mut out = vec![format!(
            "hashCode of {} over its {} UTF-16 unit(s) = {}",
            super::quoted(&self.group_id),
            self.utf16_units,
            self.hash_code
        )];
        out.push(if self.hash_is_min_value() {
            format!(
                "Utils.abs({}) = 0 (Integer.MIN_VALUE maps to 0; Math.abs would stay negative)",
                self.hash_code
            )
        } else {
            format!("Utils.abs({}) = {}", self.hash_code, self.abs)
        });
        out.push(format!(
            "{} % {} = {}: partition {} of __consumer_offsets; its leader broker coordinates the group",
            self.abs, self.offsets_partitions, self.partition, self.partition
        ));
        if let Some(e) = self.join_error() {
            out.push(format!(
                "but JoinGroup refuses an empty group id ({e}) before the partition is used"
            ));
        }
        out
    }
}

/// Why there is no coordinator partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoordinatorError {
    /// `offsets.topic.num.partitions` must be between 1 and `Integer.MAX_VALUE` (Java's
    /// `% 0` throws).
    PartitionsOutOfRange(u64),
}

impl fmt::Display for CoordinatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordinatorError::PartitionsOutOfRange(n) => write!(
                f,
                "offsets.topic.num.partitions must be between 1 and {}, not {n}",
                i32::MAX
            ),
        }
    }
}

impl std::error::Error for CoordinatorError {}

/// The coordinator partition of `group_id` with `offsets_partitions` partitions of
/// `__consumer_offsets`.
pub fn coordinator(
    group_id: &str,
    offsets_partitions: u64,
) -> Result<Coordinator, CoordinatorError> {
    if offsets_partitions == 0 || offsets_partitions > i32::MAX as u64 {
        return Err(CoordinatorError::PartitionsOutOfRange(offsets_partitions));
    }
    let hash_code = string_hash_code(group_id);
    let abs = utils_abs(hash_code);
    let n = offsets_partitions as u32;
    Ok(Coordinator {
        group_id: group_id.to_string(),
        utf16_units: group_id.encode_utf16().count(),
        hash_code,
        abs,
        offsets_partitions: n,
        // abs is never negative (Utils.abs), so the Java remainder is the Rust one.
        partition: abs as u32 % n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_partitions() {
        let c = coordinator("orders", 50).unwrap();
        assert_eq!(
            (c.hash_code, c.abs, c.partition),
            (-1008770331, 1008770331, 31)
        );
        let c = coordinator("polygenelubricants", 50).unwrap();
        assert!(c.hash_is_min_value());
        assert_eq!((c.abs, c.partition), (0, 0));
        // the bit mask that many explanations use gives another partition
        assert_eq!((-1008770331i32 & 0x7fff_ffff) % 50, 17);
        // a surrogate pair counts as two units
        let c = coordinator("\u{1F680}-launch-group", 50).unwrap();
        assert_eq!(
            (c.utf16_units, c.hash_code, c.partition),
            (15, -1131586673, 23)
        );
    }

    #[test]
    fn empty_group_id_maps_to_zero_but_is_refused() {
        let c = coordinator("", 50).unwrap();
        assert_eq!(c.partition, 0);
        assert_eq!(c.join_error(), Some("INVALID_GROUP_ID"));
        assert!(c.explain().last().unwrap().contains("INVALID_GROUP_ID"));
        assert_eq!(coordinator("g", 50).unwrap().join_error(), None);
    }

    #[test]
    fn partitions_must_be_a_positive_int() {
        assert!(coordinator("g", 0).is_err());
        assert!(coordinator("g", 1 << 31).is_err());
        assert_eq!(coordinator("g", i32::MAX as u64).unwrap().partition, 103);
    }
}
