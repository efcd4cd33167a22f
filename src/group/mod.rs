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
pub use leader::{leader_after, run_events, GroupEvent, LeaderHistory, LeaderStep};
pub use presets::ClientPreset;
pub use round::{revocations, round, Revocations, RoundMember, RoundStep};
pub use vote::{
    select_protocol, tally, Admission, DuplicateMemberId, JoinError, JoinRequest, MemberVote,
    ProtocolSelection, Refusal, Tally,
};
