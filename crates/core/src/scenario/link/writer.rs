//! Writes the link fragment.

use super::baseline::write_baseline;
use super::ids::write_member_id;
use super::text::{b64_encode, bitmask, escape};
use super::MAX_MEMBERS;
use super::{LinkState, LINK_VERSION};
use crate::assignor::{AssignorKind, LeaderClient};
use crate::collections::Names;
use crate::group::DEFAULT_OFFSETS_PARTITIONS;
use crate::scenario::{is_java_protocols, Scenario, MAX_PARTITIONS};

/// The assignor's letter in the `a` section.
pub(super) fn assignor_letter(kind: AssignorKind) -> char {
    match kind {
        AssignorKind::Range => 'r',
        AssignorKind::RoundRobin => 'o',
        AssignorKind::Sticky => 's',
        AssignorKind::CooperativeSticky => 'c',
        AssignorKind::Uniform => 'u',
        AssignorKind::ServerRange => 'g',
    }
}

/// Each topic's position in the topic list, by name (the first one for a repeated name).
fn topic_indices(s: &Scenario) -> Names {
    let mut index = Names::default();
    for (i, t) in s.topics.iter().enumerate() {
        index.entry(t.name.clone()).or_insert(i as u32);
    }
    index
}

/// How many characters the members' subscription bitmasks take in the fragment: one per
/// six topics up to the last topic each member subscribes to, so up to members x topics
/// / 6, the one part of a link that can grow faster than the scenario file.
pub fn subscription_mask_len(s: &Scenario) -> u64 {
    let index = topic_indices(s);
    s.members
        .iter()
        .filter(|m| m.subscription.is_none())
        .filter_map(|m| m.topics.iter().filter_map(|t| index.get(t.as_str())).max())
        .map(|last| u64::from(*last) / 6 + 1)
        .sum()
}

/// Why a link written for this scenario could not be read back, if it could not: the limits
/// and rules of the reader (names are never empty; at most [`MAX_MEMBERS`] members and
/// [`MAX_PARTITIONS`] partitions in all; subscription bitmasks of at most `max_mask`
/// characters). The app never builds such a scenario; a scenario file can hold one.
pub fn writable(s: &Scenario, max_mask: u64) -> Result<(), String> {
    let total = s.total_partitions();
    if total > MAX_PARTITIONS as u64 {
        return Err(format!(
            "{total} partitions in all: a link carries at most {MAX_PARTITIONS}"
        ));
    }
    if s.members.len() > MAX_MEMBERS {
        return Err(format!(
            "{} members: a link carries at most {MAX_MEMBERS}",
            s.members.len()
        ));
    }
    if let Some(t) = s.topics.iter().position(|t| t.name.is_empty()) {
        return Err(format!(
            "topics[{t}]: a topic name cannot be empty in a link"
        ));
    }
    for (i, m) in s.members.iter().enumerate() {
        if m.id.is_empty() {
            return Err(format!(
                "members[{i}].id: a member id cannot be empty in a link"
            ));
        }
        if m.protocols.iter().any(|p| p.is_empty()) {
            return Err(format!(
                "members[{i}].protocols: a protocol name cannot be empty in a link"
            ));
        }
        if m.subscription.is_none() && m.topics.iter().any(|t| t.is_empty()) {
            return Err(format!(
                "members[{i}].topics: a subscribed topic name cannot be empty in a link"
            ));
        }
    }
    for (t, parts) in &s.partition_racks {
        if parts.iter().flatten().any(|r| r.is_empty()) {
            return Err(format!(
                "partition_racks[\"{t}\"]: a rack name cannot be empty in a link"
            ));
        }
    }
    let mask = subscription_mask_len(s);
    if mask > max_mask {
        return Err(format!(
            "the link would hold {} MiB of subscription bitmasks (one character per six \
             topics per member), above the limit of {} MiB; no browser opens a link that long",
            mask >> 20,
            max_mask >> 20
        ));
    }
    Ok(())
}

/// Writes the link fragment (without `#`) for a scenario and the app's state.
pub fn to_fragment(state: &LinkState) -> String {
    fragment_of(&state.scenario, state)
}

/// The link fragment of `s` alone (the app's state at its defaults), without a copy of it.
pub fn scenario_fragment(s: &Scenario) -> String {
    fragment_of(s, &LinkState::default())
}

/// The fragment of scenario `s` with the rest of `state` (whose own scenario is not read).
pub fn fragment_of(s: &Scenario, state: &LinkState) -> String {
    let mut out = format!("v{LINK_VERSION};a=");
    out.push(assignor_letter(s.assignor));
    write_topics(s, &mut out);
    write_members(s, state, &mut out);
    write_group(s, &mut out);
    write_app_state(s, state, &mut out);
    out
}

/// `;t=`: each topic's name and partition count.
fn write_topics(s: &Scenario, out: &mut String) {
    out.push_str(";t=");
    for (i, t) in s.topics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        escape(&t.name, out);
        out.push('*');
        out.push_str(&t.partitions.to_string());
    }
}

/// `;m=`: each member (see `write_member`), with its bytes' version when not the default.
fn write_members(s: &Scenario, state: &LinkState, out: &mut String) {
    out.push_str(";m=");
    let index = topic_indices(s);
    let mut indices: Vec<usize> = Vec::new();
    let mut prev_id = "";
    for (i, m) in s.members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_member_id(&m.id, prev_id, out);
        prev_id = &m.id;
        for opt in [&m.instance_id, &m.rack] {
            out.push('*');
            if let Some(v) = opt {
                out.push('~');
                escape(v, out);
            }
        }
        out.push('*');
        if let Some(b) = &m.subscription {
            // The bytes are the member's subscription: nothing else is needed.
            out.push_str("*b");
            b64_encode(b, out);
        } else {
            let mut others = Vec::new();
            indices.clear();
            for t in m.topics.iter() {
                match index.get(t.as_str()) {
                    Some(&k) => indices.push(k as usize),
                    None => others.push(t),
                }
            }
            crate::collections::sort(&mut indices);
            indices.dedup();
            bitmask(&indices, out);
            for t in others {
                out.push('!');
                escape(t, out);
            }
            if let Some(g) = m.generation {
                out.push_str(&format!("*g{g}"));
            }
            for (t, ps) in &m.owned {
                out.push_str("*o");
                escape(t, out);
                out.push('!');
                for (k, p) in ps.iter().enumerate() {
                    if k > 0 {
                        out.push(':');
                    }
                    out.push_str(&p.to_string());
                }
            }
        }
        if !is_java_protocols(&m.protocols) {
            out.push_str("*s");
            for (k, p) in m.protocols.iter().enumerate() {
                if k > 0 {
                    out.push(':');
                }
                escape(p, out);
            }
        }
        if let Some(v) = state.versions.get(&i) {
            out.push_str(&format!("*v{v}"));
        }
    }
}

/// `;g=`, `;l=`, `;p=`: the group (its id, the offsets topic's partitions, whether the vote
/// picks the assignor), the leader's client and the partitions' racks, each only when not
/// the default.
fn write_group(s: &Scenario, out: &mut String) {
    if s.group_id.is_some()
        || s.offsets_partitions != DEFAULT_OFFSETS_PARTITIONS
        || s.assignor_by_vote
    {
        out.push_str(";g=");
        if let Some(g) = &s.group_id {
            out.push('~');
            escape(g, out);
        }
        out.push('*');
        out.push_str(&s.offsets_partitions.to_string());
        if s.assignor_by_vote {
            out.push_str("*v");
        }
    }
    if s.leader_client != LeaderClient::Java {
        out.push_str(";l=");
        out.push_str(s.leader_client.name());
    }
    // A topic listed with no partitions' racks says nothing: it is left out.
    let racks: Vec<_> = s
        .partition_racks
        .iter()
        .filter(|(_, parts)| !parts.is_empty())
        .collect();
    if !racks.is_empty() {
        out.push_str(";p=");
        for (i, (t, parts)) in racks.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            escape(t, out);
            out.push('*');
            for (k, racks) in parts.iter().enumerate() {
                if k > 0 {
                    out.push('!');
                }
                for (j, r) in racks.iter().enumerate() {
                    if j > 0 {
                        out.push(':');
                    }
                    escape(r, out);
                }
            }
        }
    }
}

/// The app's own sections (`;x…=`): the baseline, the story's step, the lesson, typed hex,
/// an import's lag and what Kafka's tool said, the topics' ids, the pinned group, colours,
/// what the link kept without knowing, and the group's log.
fn write_app_state(s: &Scenario, state: &LinkState, out: &mut String) {
    let mut extra = |k: &str, v: &str| {
        out.push_str(";x");
        escape(k, out);
        out.push('=');
        escape(v, out);
    };
    if let Some(b) = &state.baseline {
        match b {
            Ok(b) => extra("b", &write_baseline(b)),
            Err(bad) => extra("b", &bad.raw),
        }
    }
    if let Some(k) = state.story_step {
        extra("s", &k.to_string());
    }
    if let Some(t) = &state.timeline {
        extra("t", &t.write());
    }
    if let Some((key, p)) = &state.lesson {
        extra("l", &format!("{key}.{p}"));
    }
    for (i, t) in &state.hex_drafts {
        extra(&format!("h{i}"), t);
    }
    // An imported group's lag: `topic!lag.lag...` per topic, empty where not shown.
    if let Some(lag) = state.lag.as_ref().filter(|l| !l.is_empty()) {
        let mut v = String::new();
        // (only the topics the link has, at most one lag per partition: a topic renamed,
        // removed or shrunk since the import keeps the link readable)
        for (topic, lags) in lag.iter() {
            let Some(t) = s.topics.iter().find(|t| t.name == *topic) else {
                continue;
            };
            let lags = &lags[..lags.len().min(t.partitions as usize)];
            if lags.is_empty() {
                continue;
            }
            if !v.is_empty() {
                v.push(',');
            }
            escape(topic, &mut v);
            v.push('!');
            for (k, l) in lags.iter().enumerate() {
                if k > 0 {
                    v.push('.');
                }
                if let Some(l) = l {
                    v.push_str(&l.to_string());
                }
            }
        }
        if !v.is_empty() {
            extra("g", &v);
        }
    }
    // What Kafka's tool said of an imported group: `[~state]*[~strategy]*line.message,...`.
    // (written when nothing was said too: the part is what brings an import's summary back)
    if let Some(said) = &state.printed {
        let mut v = String::new();
        for cell in [&said.state, &said.strategy] {
            if let Some(t) = cell {
                v.push('~');
                escape(t, &mut v);
            }
            v.push('*');
        }
        for (k, w) in said.warnings.iter().enumerate() {
            if k > 0 {
                v.push(',');
            }
            v.push_str(&w.line.to_string());
            v.push('.');
            escape(&w.message, &mut v);
        }
        extra("k", &v);
    }
    // The topics' ids (the broker's assignors read them), in Kafka's canonical form.
    if !s.topic_ids.is_empty() {
        let mut ids = String::new();
        for (i, (name, id)) in s.topic_ids.iter().enumerate() {
            if i > 0 {
                ids.push(',');
            }
            escape(name, &mut ids);
            ids.push('!');
            ids.push_str(&super::super::canonical_topic_id(id));
        }
        extra("i", &ids);
    }
    if let Some((p, renames)) = &state.pinned {
        extra(
            "p",
            &to_fragment(&LinkState {
                scenario: p.clone(),
                ..Default::default()
            }),
        );
        if !renames.is_empty() {
            let mut r = String::new();
            for (i, (o, n)) in renames.iter().enumerate() {
                if i > 0 {
                    r.push(',');
                }
                escape(o, &mut r);
                r.push('!');
                escape(n, &mut r);
            }
            extra("r", &r);
        }
    }
    if let Some(c) = &state.colours {
        let list: Vec<String> = c.iter().map(|k| k.to_string()).collect();
        extra("c", &list.join("."));
    }
    for (k, v) in &state.extra {
        extra(k, v);
    }
    if !state.group_log.is_empty() {
        // (not escaped again: its names are escaped inside it, its separators are ASCII)
        out.push_str(";xj=");
        out.push_str(&super::log::write_group_log(&s.members, &state.group_log));
    }
    if let Some(own) = &state.own {
        out.push_str(";xo=");
        escape(&to_fragment(own), out);
    }
}

/// The whole link for a base address such as `http://127.0.0.1:8080/`.
pub fn to_link(base: &str, state: &LinkState) -> String {
    link_with_fragment(base, &to_fragment(state))
}

/// The whole link for a base address and a fragment already written by [`to_fragment`].
pub fn link_with_fragment(base: &str, fragment: &str) -> String {
    let base = base.split('#').next().unwrap_or(base);
    format!("{base}#{fragment}")
}
