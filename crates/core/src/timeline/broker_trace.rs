//! The requests a run's clients sent and what the coordinator decided, in the shape of the
//! oracles' output (`../shared/tools/oracle-timeline` for the classic protocols,
//! `crates/core/tests/java/consumer/` for the consumer protocol), so a run can be replayed
//! through Kafka's own `GroupMetadataManager` and compared.

use super::broker::{Api, GroupLine, Response};
use super::consumer::trace::{self as consumer, HeartbeatError};

/// A request as the oracle's script writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The client (its alias).
    pub client: String,
    /// Which request.
    pub api: Api,
    /// JoinGroup: a restarted or reset client, with no member id.
    pub new_member: bool,
    /// JoinGroup: the protocols with their metadata.
    pub protocols: Vec<(String, Vec<u8>)>,
    /// SyncGroup from the leader: each member's assignment, by client alias.
    pub assignments: Vec<(String, Vec<u8>)>,
    /// SyncGroup: the generation it syncs (-1 for other requests).
    pub generation: i32,
    /// JoinGroup: its session and rebalance timeouts (ms).
    pub timeouts: Option<(i64, i64)>,
}

/// One line of the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A client's request reached the coordinator.
    Request {
        /// When (ms).
        t: i64,
        /// The request.
        request: Request,
    },
    /// The coordinator answered.
    Response {
        /// When (ms).
        t: i64,
        /// The response.
        response: Response,
    },
    /// The group after a step that changed it.
    Group {
        /// When (ms).
        t: i64,
        /// The group.
        group: GroupLine,
    },
    /// A coordinator timer fired.
    TimerFired {
        /// When (ms).
        t: i64,
        /// Its key, as Kafka writes it.
        key: String,
    },
    /// A ConsumerGroupHeartbeat reached the coordinator (the consumer protocol).
    Heartbeat {
        /// When (ms).
        t: i64,
        /// The request.
        request: consumer::HeartbeatRequest,
    },
    /// The coordinator answered a ConsumerGroupHeartbeat.
    HeartbeatAnswer {
        /// When (ms).
        t: i64,
        /// The response.
        response: consumer::HeartbeatResponse,
    },
    /// The consumer group after a step that changed it.
    ConsumerGroup {
        /// When (ms).
        t: i64,
        /// The group.
        group: consumer::GroupLine,
    },
}

impl Line {
    /// A request, a response or a timer, for a person: when the coordinator handled it
    /// (ms; the client hears an answer a round trip later), who (a client, or the
    /// coordinator), and what (`sends JoinGroup (no member id)`, `JoinGroup answered: NONE
    /// (generation 3, ...)`). `None` for the group's lines, which the run's events tell.
    pub fn as_row(&self) -> Option<(i64, String, String)> {
        match self {
            Line::Request { t, request } => Some((
                *t,
                request.client.clone(),
                format!(
                    "sends {}{}",
                    request.api.name(),
                    if request.new_member {
                        " (no member id)"
                    } else {
                        ""
                    }
                ),
            )),
            Line::Response { t, response: r } => {
                let mut what = format!("{} answered: {}", r.api.name(), r.error.name());
                if r.api == super::broker::Api::JoinGroup && r.generation >= 0 {
                    what += &format!(
                        " (generation {}, member id {}, leader {})",
                        r.generation, r.member_id, r.leader
                    );
                }
                Some((*t, r.client.clone(), what))
            }
            Line::TimerFired { t, key } => {
                Some((*t, "coordinator".to_string(), format!("timer {key} fires")))
            }
            Line::Heartbeat { t, request: r } => {
                let what = match r.member_epoch {
                    0 => "sends ConsumerGroupHeartbeat to join (epoch 0)".to_string(),
                    -1 => "sends ConsumerGroupHeartbeat to leave (epoch -1)".to_string(),
                    -2 => "sends ConsumerGroupHeartbeat to leave for now (epoch -2)".to_string(),
                    e => match &r.owned {
                        Some(owned) => format!(
                            "sends ConsumerGroupHeartbeat (epoch {e}, owns {} partition{})",
                            owned.len(),
                            if owned.len() == 1 { "" } else { "s" }
                        ),
                        None => format!("sends ConsumerGroupHeartbeat (epoch {e})"),
                    },
                };
                Some((*t, r.client.clone(), what))
            }
            Line::HeartbeatAnswer { t, response: r } => {
                let mut what = format!("ConsumerGroupHeartbeat answered: {}", r.error.name());
                if r.error == HeartbeatError::None {
                    what += &format!(" (member epoch {}", r.member_epoch);
                    if let Some(a) = &r.assignment {
                        what += &format!(
                            ", assigned {} partition{}",
                            a.len(),
                            if a.len() == 1 { "" } else { "s" }
                        );
                    }
                    what += ")";
                }
                Some((*t, r.client.clone(), what))
            }
            Line::Group { .. } | Line::ConsumerGroup { .. } => None,
        }
    }
}

impl Line {
    /// When.
    pub fn time(&self) -> i64 {
        match self {
            Line::Request { t, .. }
            | Line::Response { t, .. }
            | Line::Group { t, .. }
            | Line::TimerFired { t, .. }
            | Line::Heartbeat { t, .. }
            | Line::HeartbeatAnswer { t, .. }
            | Line::ConsumerGroup { t, .. } => *t,
        }
    }
}

/// `Api` by the oracle's name.
pub fn api_named(name: &str) -> Option<Api> {
    [
        Api::JoinGroup,
        Api::SyncGroup,
        Api::Heartbeat,
        Api::LeaveGroup,
    ]
    .into_iter()
    .find(|a| a.name() == name)
}

/// Standard base64 with padding, as the oracle writes bytes.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What the oracle needs to replay a run: its settings and the requests as scripted actions
/// (no client automation: every request is in the script, at the time it reached the
/// coordinator). A SyncGroup carries its generation's assignment whoever sends it, because
/// Kafka picks a new leader from a `HashMap` over random ids and only the leader's counts.
pub fn oracle_scenario(
    description: &str,
    members: &[(String, Option<String>)],
    session_timeout_ms: i64,
    rebalance_timeout_ms: i64,
    initial_rebalance_delay_ms: i64,
    wire: &[Line],
    end_ms: i64,
) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let mut clients = Map::new();
    for (alias, instance) in members {
        clients.insert(
            alias.clone(),
            json!({
                "member_id": null,
                "group_instance_id": instance,
                "session_timeout_ms": session_timeout_ms,
                "rebalance_timeout_ms": rebalance_timeout_ms,
                "protocol_type": "consumer",
                "protocols": [{"name": "range", "metadata": ""}],
            }),
        );
    }
    // each generation's plan, to give every SyncGroup of that generation
    let mut plans: std::collections::BTreeMap<i32, Value> = std::collections::BTreeMap::new();
    for line in wire {
        if let Line::Request { request, .. } = line {
            if request.api == Api::SyncGroup && !request.assignments.is_empty() {
                let m: Map<String, Value> = request
                    .assignments
                    .iter()
                    .map(|(alias, bytes)| (alias.clone(), json!(base64(bytes))))
                    .collect();
                plans.insert(request.generation, Value::Object(m));
            }
        }
    }
    let mut actions = Vec::new();
    let mut own_timeouts = std::collections::BTreeSet::new();
    for line in wire {
        let Line::Request { t, request } = line else {
            continue;
        };
        let mut a = Map::new();
        a.insert("t_ms".into(), json!(t));
        a.insert("member".into(), json!(request.client));
        match request.api {
            Api::JoinGroup => {
                a.insert("action".into(), json!("join"));
                if request.new_member {
                    a.insert("new_member".into(), json!(true));
                }
                // timeouts other than the members' (a script's `with`), and every join of
                // that client after (the oracle keeps a join's values for the next)
                let defaults = (session_timeout_ms, rebalance_timeout_ms);
                if let Some((session, rebalance)) = request.timeouts {
                    if (session, rebalance) != defaults || own_timeouts.contains(&request.client) {
                        own_timeouts.insert(request.client.clone());
                        a.insert("session_timeout_ms".into(), json!(session));
                        a.insert("rebalance_timeout_ms".into(), json!(rebalance));
                    }
                }
                let protocols: Vec<Value> = request
                    .protocols
                    .iter()
                    .map(|(name, meta)| json!({"name": name, "metadata": base64(meta)}))
                    .collect();
                a.insert("protocols".into(), Value::Array(protocols));
            }
            Api::SyncGroup => {
                a.insert("action".into(), json!("sync"));
                if let Some(p) = plans.get(&request.generation) {
                    a.insert("assignments".into(), p.clone());
                }
            }
            Api::Heartbeat => {
                a.insert("action".into(), json!("heartbeat"));
            }
            Api::LeaveGroup => {
                a.insert("action".into(), json!("leave"));
            }
        }
        actions.push(Value::Object(a));
    }
    json!({
        "description": description,
        "group_id": super::classic::GROUP_ID,
        "broker": {"group.initial.rebalance.delay.ms": initial_rebalance_delay_ms},
        "members": clients,
        "actions": actions,
        "end_ms": end_ms,
    })
}
