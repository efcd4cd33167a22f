//! Member order as the Java client's range and round-robin assignors sort it: static members
//! (group.instance.id) first, then Java's `String.compareTo` (see [`crate::java`]).

use super::MemberMeta;
use crate::java::string_compare;
use std::cmp::Ordering;

/// Java's `MemberInfo.compareTo`: static members first, ordered by group.instance.id;
/// dynamic members by member id.
pub fn member_cmp(a: &MemberMeta, b: &MemberMeta) -> Ordering {
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => string_compare(x, y).then_with(|| string_compare(&a.id, &b.id)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => string_compare(&a.id, &b.id),
    }
}
