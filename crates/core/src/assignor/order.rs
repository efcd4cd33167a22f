//! Member order as the leader's client sorts it for range and round-robin.
//!
//! The Java client: static members (group.instance.id) first, then Java's
//! `String.compareTo` (see [`crate::java`]). librdkafka (`rd_kafka_group_member_cmp`): two
//! static members by instance id, any other pair by member id, both compared as bytes
//! (`memcmp` over the UTF-8, then the shorter first), with no static-members-first rule.

use super::MemberMeta;
use crate::java::string_compare;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The client library of the group leader, which computes the assignment in the classic
/// protocol and so decides the member order of range and round-robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LeaderClient {
    /// The Apache Kafka Java client (the reference answers).
    #[default]
    Java,
    /// librdkafka (confluent-kafka-python, -go, -dotnet, node-rdkafka ...).
    Librdkafka,
}

impl LeaderClient {
    /// The other client (the group panel's comparison of the two leaders' answers).
    pub fn other(self) -> LeaderClient {
        match self {
            LeaderClient::Java => LeaderClient::Librdkafka,
            LeaderClient::Librdkafka => LeaderClient::Java,
        }
    }

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            LeaderClient::Java => "java",
            LeaderClient::Librdkafka => "librdkafka",
        }
    }
}

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

/// librdkafka's `rd_kafka_group_member_cmp` (librdkafka 2.x, src/rdkafka_assignor.c): two
/// static members compare by instance id, any other pair (a mixed pair included) by member
/// id; strings compare as bytes (`rd_kafkap_str_cmp`: `memcmp`, then length).
///
/// With both static and dynamic members this is not always a total order (a static member
/// can sort before a dynamic one by member id, which sorts before another static member,
/// which sorts before the first by instance id); see [`librdkafka_order_is_total`].
pub fn librdkafka_member_cmp(a: &MemberMeta, b: &MemberMeta) -> Ordering {
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ => a.id.as_bytes().cmp(b.id.as_bytes()),
    }
}

/// Member indices of `members` in librdkafka's order.
///
/// librdkafka sorts with C `qsort`; for a total order every sort gives the same answer. A
/// top-down merge sort is used here because it never panics (Rust's `sort_by` may, on a
/// comparison that is not a total order) and is deterministic when the order is cyclic.
pub fn librdkafka_order(members: &[MemberMeta]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..members.len() as u32).collect();
    let mut scratch = order.clone();
    merge_sort(&mut order, &mut scratch, &|a: &u32, b: &u32| {
        librdkafka_member_cmp(&members[*a as usize], &members[*b as usize])
    });
    order
}

/// False when librdkafka's comparison is cyclic over these members (only possible when
/// static and dynamic members mix): librdkafka's order then depends on its C library's
/// `qsort`, and [`librdkafka_order`]'s answer is one possibility, not a prediction.
pub fn librdkafka_order_is_total(members: &[MemberMeta]) -> bool {
    let statics = members.iter().filter(|m| m.instance_id.is_some()).count();
    if statics == 0 || statics == members.len() {
        return true;
    }
    // A cyclic comparison cannot be laid out in a line with every pair in order.
    let order = librdkafka_order(members);
    order.iter().enumerate().all(|(i, a)| {
        order[i + 1..].iter().all(|b| {
            librdkafka_member_cmp(&members[*a as usize], &members[*b as usize]) != Ordering::Greater
        })
    })
}

fn merge_sort<T: Copy>(v: &mut [T], scratch: &mut [T], cmp: &impl Fn(&T, &T) -> Ordering) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mid = n / 2;
    {
        let (lo, hi) = v.split_at_mut(mid);
        let (slo, shi) = scratch.split_at_mut(mid);
        merge_sort(lo, slo, cmp);
        merge_sort(hi, shi, cmp);
    }
    let (mut i, mut j) = (0, mid);
    for out in scratch.iter_mut().take(n) {
        // Stable: the left run wins ties.
        if j == n || (i < mid && cmp(&v[i], &v[j]) != Ordering::Greater) {
            *out = v[i];
            i += 1;
        } else {
            *out = v[j];
            j += 1;
        }
    }
    v.copy_from_slice(&scratch[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(id: &str, instance: Option<&str>) -> MemberMeta {
        MemberMeta {
            id: id.into(),
            instance_id: instance.map(Into::into),
            ..Default::default()
        }
    }

    #[test]
    fn bytes_not_utf16() {
        // U+FF21 is EF BC A1 in UTF-8, U+1F600 is F0 9F 98 80: bytes put the fullwidth
        // letter first, UTF-16 (D83D DE00 < FF21) the emoji.
        let (a, b) = (m("\u{FF21}", None), m("\u{1F600}", None));
        assert_eq!(librdkafka_member_cmp(&a, &b), Ordering::Less);
        assert_eq!(member_cmp(&a, &b), Ordering::Greater);
    }

    #[test]
    fn no_static_members_first() {
        let (stat, dynamic) = (m("b", Some("x")), m("a", None));
        assert_eq!(librdkafka_member_cmp(&dynamic, &stat), Ordering::Less);
        assert_eq!(member_cmp(&dynamic, &stat), Ordering::Greater);
        // two static members: instance id decides, not member id
        let (s1, s2) = (m("a", Some("z")), m("b", Some("y")));
        assert_eq!(librdkafka_member_cmp(&s2, &s1), Ordering::Less);
        // a NUL is a byte like any other (memcmp, not strcmp)
        assert_eq!(
            librdkafka_member_cmp(&m("a\0b", None), &m("a\0c", None)),
            Ordering::Less
        );
    }

    #[test]
    fn cyclic_mixed_group_is_reported_and_does_not_panic() {
        // s1 < d by member id, d < s2 by member id, s2 < s1 by instance id.
        let members = [m("a", Some("z")), m("b", None), m("c", Some("y"))];
        assert!(!librdkafka_order_is_total(&members));
        let order = librdkafka_order(&members);
        assert_eq!(order.len(), 3);
        let total = [m("a", Some("y")), m("b", None), m("c", Some("z"))];
        assert!(librdkafka_order_is_total(&total));
        assert_eq!(librdkafka_order(&total), vec![0, 1, 2]);
    }
}
