//! The classic group around the assignor, as Kafka's broker runs it (`ClassicGroup`,
//! `ClassicGroupMember`, `GroupCoordinatorService` in Kafka 3.7 to 4.x): which broker
//! coordinates a group ([`coordinator`]), which joiners the group accepts and which assignor
//! the members vote for ([`vote`]), who leads and who leads next ([`leader`]), and what the
//! common clients ask for by default ([`ClientPreset`]).
//!
//! Every order here is Java's: member and protocol maps are `java.util.HashMap`s, emulated by
//! [`crate::java::JavaHashMap`]. Results carry the steps and the reasons, so that a front end
//! can show each member's vote, the tally, the winner and why, the refused members, the
//! leader and the next leader, and the coordinator arithmetic without computing them again.
//!
//! [`reconcile`]: how the coordinator moves members from one target assignment to the next
//! under KIP-848 (`group.protocol=consumer`).

pub mod coordinator;
pub mod leader;
mod presets;
pub mod reconcile;
pub mod round;
pub mod vote;

pub use coordinator::{coordinator, Coordinator, CoordinatorError, DEFAULT_OFFSETS_PARTITIONS};
pub use leader::{
    leader_after, run_events, run_events_briefly, GroupEvent, LeaderHistory, LeaderStep,
};
pub use presets::ClientPreset;
pub use round::{
    join_metadata, rebalances_eagerly, revocations, round, Revocations, RoundAssignor, RoundMember,
    RoundStep,
};
/// A name in a sentence, quoted: as Rust's `{:?}` writes ASCII text (`"a\"b"`, `\0`, `\n`,
/// `\u{1b}`), escaping every control character and the bidirectional controls; other
/// characters as they are. (Written out, not `{:?}`: that brings Unicode's printable tables
/// into the page.)
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}') =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub use vote::{
    select, select_protocol, tally, Admission, DuplicateMemberId, Join, JoinError, JoinRequest,
    MemberVote, ProtocolSelection, Refusal, Tally,
};

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_is_debug_for_ascii_and_escapes_controls() {
        for s in [
            "orders",
            "a\"b\\c",
            "nul\0here",
            "tab\t\r\n",
            "\u{1b}[31m",
            "\u{7f}",
            "caf\u{e9} \u{1F600}",
        ] {
            assert_eq!(super::quoted(s), format!("{s:?}"), "{s:?}");
        }
        assert_eq!(super::quoted("x\u{202E}y\u{85}"), "\"x\\u{202e}y\\u{85}\"");
    }
}
