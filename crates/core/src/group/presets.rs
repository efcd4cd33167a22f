//! What the common clients put in their JoinGroup by default.

use serde::{Deserialize, Serialize};

/// A client library with its default `partition.assignment.strategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClientPreset {
    /// The Apache Kafka Java client: `[range, cooperative-sticky]` (since 3.0).
    Java,
    /// librdkafka and the clients built on it: `range,roundrobin`.
    Librdkafka,
    /// kafka-python: `[range, roundrobin]`.
    KafkaPython,
}

impl ClientPreset {
    /// Every preset.
    pub const ALL: [ClientPreset; 3] = [
        ClientPreset::Java,
        ClientPreset::Librdkafka,
        ClientPreset::KafkaPython,
    ];

    /// The default protocol (assignor) names, in preference order.
    pub fn protocols(self) -> &'static [&'static str] {
        match self {
            ClientPreset::Java => &["range", "cooperative-sticky"],
            ClientPreset::Librdkafka | ClientPreset::KafkaPython => &["range", "roundrobin"],
        }
    }

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ClientPreset::Java => "java",
            ClientPreset::Librdkafka => "librdkafka",
            ClientPreset::KafkaPython => "kafka-python",
        }
    }

    /// Parses [`ClientPreset::name`].
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }

    /// How the default reads in that client's configuration.
    pub fn config(self) -> &'static str {
        match self {
            ClientPreset::Java => {
                "partition.assignment.strategy = [RangeAssignor, CooperativeStickyAssignor]"
            }
            ClientPreset::Librdkafka => "partition.assignment.strategy=range,roundrobin",
            ClientPreset::KafkaPython => {
                "partition_assignment_strategy=(RangePartitionAssignor, RoundRobinPartitionAssignor)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_and_librdkafka_share_only_range() {
        let j = ClientPreset::Java.protocols();
        let r = ClientPreset::Librdkafka.protocols();
        let common: Vec<_> = j.iter().filter(|p| r.contains(p)).collect();
        assert_eq!(common, [&"range"]);
        for p in ClientPreset::ALL {
            assert_eq!(ClientPreset::parse(p.name()), Some(p));
        }
    }
}
