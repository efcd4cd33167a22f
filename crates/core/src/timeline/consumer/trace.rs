//! The ConsumerGroupHeartbeat requests of a run and what the coordinator answered, in the
//! shape of the consumer oracle's output (`crates/core/tests/java/consumer/`), so a run can be
//! replayed through Kafka's own `GroupMetadataManager` and compared.

/// The consumer protocol's errors a run can meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeartbeatError {
    /// NONE.
    None,
    /// UNKNOWN_MEMBER_ID: the coordinator has no member of that id (fenced, or left).
    UnknownMemberId,
    /// FENCED_MEMBER_EPOCH: the member's epoch is not one the coordinator accepts.
    FencedMemberEpoch,
    /// UNRELEASED_INSTANCE_ID: a static member's instance id is held by a member that did
    /// not leave with epoch -2.
    UnreleasedInstanceId,
    /// FENCED_INSTANCE_ID: another member holds the instance id.
    FencedInstanceId,
}

impl HeartbeatError {
    /// Kafka's name for the error.
    pub fn name(self) -> &'static str {
        match self {
            HeartbeatError::None => "NONE",
            HeartbeatError::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            HeartbeatError::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            HeartbeatError::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            HeartbeatError::FencedInstanceId => "FENCED_INSTANCE_ID",
        }
    }
}

/// A ConsumerGroupHeartbeat as the Java consumer sends it: a field it does not send is
/// `None` (the coordinator keeps what it has).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeartbeatRequest {
    /// The client (its alias).
    pub client: String,
    /// Its member id (the lab's, standing for the UUID Kafka's coordinator makes).
    pub member_id: String,
    /// 0 to join, -1 to leave, -2 for a static member's leave, else its epoch.
    pub member_epoch: i32,
    /// `group.instance.id`.
    pub instance_id: Option<String>,
    /// `max.poll.interval.ms`, sent when joining.
    pub rebalance_timeout_ms: Option<i64>,
    /// The topics, sent when joining.
    pub subscribed: Option<Vec<String>>,
    /// The partitions it owns (indices into the run's partitions), sent when joining and with
    /// the first heartbeat after each reconciliation.
    pub owned: Option<Vec<usize>>,
}

/// The coordinator's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeartbeatResponse {
    /// The client it goes to.
    pub client: String,
    /// Its error.
    pub error: HeartbeatError,
    /// The member's epoch now (-1 or -2 after a leave).
    pub member_epoch: i32,
    /// The member's assigned partitions, present on a full request or when they changed.
    pub assignment: Option<Vec<usize>>,
}

/// `ConsumerGroupMember`'s state as the coordinator holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberLine {
    /// Its member id.
    pub member_id: String,
    /// Its epoch (-2 while a static member is away).
    pub epoch: i32,
    /// `MemberState`'s name.
    pub state: &'static str,
    /// Its assigned partitions.
    pub assigned: Vec<usize>,
    /// Partitions it must revoke.
    pub revoking: Vec<usize>,
}

/// The consumer group after a step that changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupLine {
    /// `ConsumerGroupState`'s name: Empty, Assigning, Reconciling or Stable.
    pub state: &'static str,
    /// The group epoch.
    pub group_epoch: i32,
    /// The epoch of the target assignment.
    pub assignment_epoch: i32,
    /// The members, by member id.
    pub members: Vec<MemberLine>,
    /// Each member's target, by member id.
    pub target: Vec<(String, Vec<usize>)>,
}
