//! `StickyAssignor` (eager): every member revokes everything before the rebalance, and the
//! previous assignment reaches the leader in the StickyAssignor user data (partitions and,
//! from version 1, the generation).

use super::{Assignment, AssignorKind, GroupInput, StickyError};

/// Runs the StickyAssignor as the Java client does. Each member's previous assignment is
/// its [`owned`](crate::assignor::MemberMeta::owned) with its
/// [`generation`](crate::assignor::MemberMeta::generation) (what its user data carries; the
/// subscription's generation id, which Java compares when two members claim one partition,
/// is taken to be the same).
pub fn sticky(input: &GroupInput) -> Result<Assignment, StickyError> {
    super::assign(input, AssignorKind::Sticky)
}
