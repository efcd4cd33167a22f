//! Readers of what Kafka's tools print: the output of `kafka-consumer-groups.sh --describe
//! --group G` in its views, alone or pasted together, as Kafka 2.8 to 4.x print them:
//! - the offsets view (`--describe`): GROUP, TOPIC, PARTITION, CURRENT-OFFSET,
//!   LOG-END-OFFSET, LAG, CONSUMER-ID, HOST, CLIENT-ID, one row per partition (an unowned
//!   partition has `-` as its consumer; a member that owns nothing has `-` as its topic);
//! - the members view (`--members`, `--members --verbose`): GROUP, CONSUMER-ID,
//!   GROUP-INSTANCE-ID (only when a member has one), HOST, CLIENT-ID, #PARTITIONS, and
//!   ASSIGNMENT (see [`assignment`] for its forms); newer columns are read and ignored;
//! - the state view (`--state`): GROUP, COORDINATOR (ID), ASSIGNMENT-STRATEGY, STATE, #MEMBERS;
//! - the messages printed instead of or beside them ("Consumer group 'g' has no active
//!   members.", "Warning: Consumer group 'g' is rebalancing.", "Error: Consumer group 'g'
//!   does not exist."), which become [`Warning`]s.
//!
//! Columns are found by their header word, never by position in the list, and cells by
//! the rule in [`table`]. `-` means none. Whatever cannot be read is an [`ImportError`]
//! with its line and column, never a panic; nothing is allocated from a number read off
//! the text beyond what the scenario limits allow ([`crate::scenario::MAX_PARTITIONS`] per
//! topic, [`crate::scenario::MAX_TOTAL_PARTITIONS`] in all).

mod assignment;
mod error;
mod read;
mod render;
mod table;

pub use error::{ErrorKind, ImportError};
pub use render::render_offsets;

use crate::assignor::AssignorKind;
use crate::scenario::Scenario;
use std::collections::BTreeMap;

/// An assignment as observed or computed: member id to topic to partitions (ascending).
pub type Observed = BTreeMap<String, BTreeMap<String, Vec<i32>>>;

/// Lag per partition: topic to, per partition from 0, its lag when shown.
pub type Lag = BTreeMap<String, Vec<Option<i64>>>;

/// Whether `lag` shows any partition's lag (the offsets view was read): without it there is
/// no lag to sum, show or export.
pub fn shows_lag(lag: &Lag) -> bool {
    lag.values().flatten().any(Option::is_some)
}

/// Something the text says that the scenario cannot carry, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Line, from 1.
    pub line: usize,
    /// What it says.
    pub message: String,
}

/// What Kafka's tool printed of a group beside its members, partitions and lag: the STATE
/// and ASSIGNMENT-STRATEGY cells and its messages. The page keeps it in a link (`xk`), so a
/// shared import tells the same story.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Printed {
    /// The STATE cell as printed.
    pub state: Option<String>,
    /// The ASSIGNMENT-STRATEGY cell as printed (empty for a group without members).
    pub strategy: Option<String>,
    /// Kafka's messages, and what did not add up.
    pub warnings: Vec<Warning>,
}

/// What an import read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Import {
    /// Topics by name (partition count: the highest partition seen plus one) and members,
    /// in the order the text first shows them (id,
    /// group.instance.id, client.id, the topics they own partitions of, and those
    /// partitions as `owned`). Its assignor is the one `--state` names, else range.
    pub scenario: Scenario,
    /// The group id.
    pub group_id: Option<String>,
    /// The assignor `--state` names, when this version knows it.
    pub assignor: Option<AssignorKind>,
    /// The ASSIGNMENT-STRATEGY cell as printed (empty for a group without members).
    pub strategy: Option<String>,
    /// The STATE cell as printed (Stable, Empty, PreparingRebalance, ...).
    pub state: Option<String>,
    /// Lag per partition, from the offsets view.
    pub lag: Lag,
    /// Messages, and what did not add up (a partition shown with two owners, ...).
    pub warnings: Vec<Warning>,
    /// The observed assignment, every member present.
    pub assignment: Observed,
}

/// Reads the output of `kafka-consumer-groups.sh --describe` (see the module docs).
pub fn parse(text: &str) -> Result<Import, ImportError> {
    read::parse(text)
}

/// True when a text is not JSON, so it should be read as `kafka-consumer-groups.sh` output.
pub fn looks_like_consumer_groups(text: &str) -> bool {
    !matches!(text.trim_start().chars().next(), Some('{') | Some('['))
}
