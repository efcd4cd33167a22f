//! One story under each way of running the group, side by side: what to change before a
//! deploy.

use super::{protocol_label, simulate, Group, Protocol, Run, Settings, Story, TimelineError};
use crate::assignor::AssignorKind;

/// A way of running the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The protocol.
    pub protocol: Protocol,
    /// Whether every member has a `group.instance.id`.
    pub static_membership: bool,
}

impl Variant {
    /// The four the table always compares: eager, cooperative-sticky, eager with static members,
    /// and the consumer protocol.
    pub const ALL: [Variant; 4] = [
        Variant {
            protocol: Protocol::Eager,
            static_membership: false,
        },
        Variant {
            protocol: Protocol::Cooperative,
            static_membership: false,
        },
        Variant {
            protocol: Protocol::Eager,
            static_membership: true,
        },
        Variant {
            protocol: Protocol::Consumer,
            static_membership: false,
        },
    ];

    /// How a person would say it, with the assignor it runs.
    pub fn label(self, assignor: AssignorKind) -> String {
        self.with_membership(protocol_label(self.protocol, assignor))
    }

    /// How a person would say it, as `run` ran it ([`Run::label`]).
    pub fn label_of(self, run: &Run) -> String {
        self.with_membership(run.label())
    }

    fn with_membership(self, protocol: String) -> String {
        if self.static_membership {
            format!("{protocol}, static members")
        } else {
            protocol
        }
    }

    /// A short name for the command line's JSON.
    pub fn name(self) -> String {
        if self.static_membership {
            format!("{}-static", self.protocol.name())
        } else {
            self.protocol.name().to_string()
        }
    }
}

/// The ways [`compare`] runs `group`: [`Variant::ALL`], then each member with its own
/// `partition.assignment.strategy` when some member lists other than the Java default.
pub fn variants(group: &Group) -> Vec<Variant> {
    let mut out = Variant::ALL.to_vec();
    if group.lists_its_own() {
        out.push(Variant {
            protocol: Protocol::Listed,
            static_membership: false,
        });
    }
    out
}

/// Runs `story` under each of [`variants`], the rest of `settings` kept.
pub fn compare(
    group: &Group,
    settings: &Settings,
    story: &Story,
) -> Vec<(Variant, Result<Run, TimelineError>)> {
    variants(group)
        .into_iter()
        .map(|v| {
            let mut s = *settings;
            s.protocol = v.protocol;
            s.client.static_membership = v.static_membership;
            (v, simulate(group, &s, story))
        })
        .collect()
}
