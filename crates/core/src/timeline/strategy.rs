//! A classic member's `partition.assignment.strategy` over time: the assignors the timeline
//! runs for it, the rebalance protocol its list gives (eager or cooperative), and the
//! checks a group's lists must pass before a run.
//!
//! The Java consumer's constructor (`ConsumerCoordinator`, KAFKA-SEMANTICS.md section 9)
//! takes the rebalance protocols every listed assignor supports and uses the highest: range,
//! roundrobin and sticky support only EAGER, cooperative-sticky supports EAGER and
//! COOPERATIVE. So a member rebalances cooperatively only when it lists cooperative-sticky
//! alone, and the Java default `[range, cooperative-sticky]` rebalances eagerly.

use super::spec::short;
use crate::assignor::AssignorKind;
pub use crate::group::rebalances_eagerly;

/// The assignor names a classic member may list here: the Java client's own
/// ([`AssignorKind::CLIENT`]), as a message lists them.
pub fn names() -> String {
    AssignorKind::CLIENT.map(AssignorKind::name).join(", ")
}

/// How a person would say what a list does: `[cooperative-sticky, range] (eager)`.
pub fn describe(list: &[String]) -> String {
    let kind = if rebalances_eagerly(list) {
        "eager"
    } else {
        "cooperative"
    };
    format!("[{}] ({kind})", list.join(", "))
}

/// Checks each member's list, `(member name, list)`: every list names assignors of
/// [`names`], each once, and some assignor is listed by every member, or the coordinator
/// would refuse a member's JoinGroup with INCONSISTENT_GROUP_PROTOCOL.
pub fn check<'a>(lists: impl IntoIterator<Item = (&'a str, &'a [String])>) -> Result<(), String> {
    let mut common: Option<(Vec<&str>, &str)> = None;
    for (member, list) in lists {
        if list.is_empty() {
            return Err(format!(
                "member {member} lists no partition.assignment.strategy: the Java consumer needs at least one assignor"
            ));
        }
        for (i, name) in list.iter().enumerate() {
            if AssignorKind::of_protocol(name).is_none() {
                return Err(format!(
                    "member {member} lists \"{}\" in partition.assignment.strategy: the timeline runs the Java client's assignors ({})",
                    short(name),
                    names()
                ));
            }
            if list[..i].contains(name) {
                return Err(format!(
                    "member {member} lists {name} twice in partition.assignment.strategy"
                ));
            }
        }
        match &mut common {
            None => common = Some((list.iter().map(String::as_str).collect(), member)),
            Some((names, first)) => {
                names.retain(|n| list.iter().any(|l| l == n));
                if names.is_empty() {
                    return Err(format!(
                        "members {first} and {member} (with the members between) list no assignor in common: the coordinator would refuse {member}'s JoinGroup with INCONSISTENT_GROUP_PROTOCOL"
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn only_cooperative_sticky_alone_rebalances_cooperatively() {
        assert!(rebalances_eagerly(&list(&["range", "cooperative-sticky"])));
        assert!(rebalances_eagerly(&list(&["cooperative-sticky", "range"])));
        assert!(rebalances_eagerly(&list(&["sticky"])));
        assert!(!rebalances_eagerly(&list(&["cooperative-sticky"])));
        assert_eq!(
            describe(&list(&["cooperative-sticky", "range"])),
            "[cooperative-sticky, range] (eager)"
        );
    }

    #[test]
    fn lists_are_checked_with_the_member_named() {
        let a = list(&["range", "cooperative-sticky"]);
        let b = list(&["cooperative-sticky"]);
        let c = list(&["roundrobin"]);
        assert_eq!(check([("a", &a[..]), ("b", &b[..])]), Ok(()));
        let e = check([("a", &a[..]), ("b", &b[..]), ("c", &c[..])]).unwrap_err();
        assert!(e.contains("members a and c") && e.contains("INCONSISTENT_GROUP_PROTOCOL"));
        let custom = list(&["com.example.MyAssignor"]);
        let e = check([("x", &custom[..])]).unwrap_err();
        assert!(e.contains("member x") && e.contains("com.example.MyAssignor"));
        let twice = list(&["range", "range"]);
        assert!(check([("y", &twice[..])]).unwrap_err().contains("twice"));
        assert!(check([("z", &[][..])])
            .unwrap_err()
            .contains("no partition"));
    }
}
