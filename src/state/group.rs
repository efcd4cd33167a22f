//! The group around the assignment: its id, the offsets topic, each member's strategies,
//! the assignor (chosen, or the vote's), the leader's client.

use super::{AppState, HistoryMode, Outcome};
use rebalance_lab_core::assignor::{AssignorKind, LeaderClient};
use rebalance_lab_core::group::ClientPreset;
use std::rc::Rc;

/// The assignor chosen by hand, over the vote.
pub(super) fn set_assignor(next: &mut AppState, kind: AssignorKind) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    s.assignor = kind;
    s.assignor_by_vote = false;
    Outcome::Changed(HistoryMode::Push)
}

pub(super) fn set_group_id(next: &mut AppState, text: String) -> Outcome {
    Rc::make_mut(&mut next.scenario).group_id = Some(text);
    Outcome::Changed(HistoryMode::Replace)
}

pub(super) fn set_offsets_partitions(next: &mut AppState, text: &str) -> Outcome {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=i32::MAX as u32).contains(&n) => {
            Rc::make_mut(&mut next.scenario).offsets_partitions = n;
            Outcome::Changed(HistoryMode::Replace)
        }
        _ => Outcome::refused(
            "offsets-partitions",
            "offsets.topic.num.partitions is a whole number from 1 to 2147483647".into(),
        ),
    }
}

/// A member's partition.assignment.strategy typed (names split by commas).
pub(super) fn set_protocols(next: &mut AppState, index: usize, text: &str) -> Outcome {
    let Some(m) = Rc::make_mut(&mut next.scenario).members.get_mut(index) else {
        return Outcome::refused(format!("member-{index}-protocols"), "no such member".into());
    };
    m.protocols = text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect();
    Outcome::Changed(HistoryMode::Replace)
}

/// A member's strategy list set to a client's default.
pub(super) fn use_client_preset(
    next: &mut AppState,
    index: usize,
    preset: ClientPreset,
) -> Outcome {
    if let Some(m) = Rc::make_mut(&mut next.scenario).members.get_mut(index) {
        m.protocols = preset.protocols().iter().map(|p| p.to_string()).collect();
    }
    Outcome::Changed(HistoryMode::Push)
}

/// The assignor follows the vote again.
pub(super) fn follow_vote(next: &mut AppState) -> Outcome {
    Rc::make_mut(&mut next.scenario).assignor_by_vote = true;
    Outcome::Changed(HistoryMode::Push)
}

pub(super) fn set_leader_client(next: &mut AppState, client: LeaderClient) -> Outcome {
    Rc::make_mut(&mut next.scenario).leader_client = client;
    Outcome::Changed(HistoryMode::Push)
}
