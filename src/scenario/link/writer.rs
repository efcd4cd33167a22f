//! Writes the link fragment.

use super::baseline::write_baseline;
use super::ids::write_member_id;
use super::text::{b64_encode, bitmask, escape};
use super::{LinkState, LINK_VERSION};
use crate::assignor::AssignorKind;
use crate::collections::FastMap;

/// The assignor's letter in the `a` section.
pub(super) fn assignor_letter(kind: AssignorKind) -> char {
    match kind {
        AssignorKind::Range => 'r',
        AssignorKind::RoundRobin => 'o',
        AssignorKind::Sticky => 's',
        AssignorKind::CooperativeSticky => 'c',
    }
}

/// Writes the link fragment (without `#`) for a scenario and the app's state.
pub fn to_fragment(state: &LinkState) -> String {
    let s = &state.scenario;
    let mut out = format!("v{LINK_VERSION};a=");
    out.push(assignor_letter(s.assignor));
    out.push_str(";t=");
    let mut index: FastMap<&str, usize> = FastMap::default();
    for (i, t) in s.topics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        index.entry(t.name.as_str()).or_insert(i);
        escape(&t.name, &mut out);
        out.push('*');
        out.push_str(&t.partitions.to_string());
    }
    out.push_str(";m=");
    let mut prev_id = "";
    let mut bits = vec![false; s.topics.len()];
    for (i, m) in s.members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_member_id(&m.id, prev_id, &mut out);
        prev_id = &m.id;
        for opt in [&m.instance_id, &m.rack] {
            out.push('*');
            if let Some(v) = opt {
                out.push('~');
                escape(v, &mut out);
            }
        }
        out.push('*');
        if let Some(b) = &m.subscription {
            // The bytes are the member's subscription: nothing else is needed.
            out.push_str("*b");
            b64_encode(b, &mut out);
        } else {
            bits.iter_mut().for_each(|b| *b = false);
            let mut others = Vec::new();
            for t in &m.topics {
                match index.get(t.as_str()) {
                    Some(k) => bits[*k] = true,
                    None => others.push(t),
                }
            }
            bitmask(&bits, &mut out);
            for t in others {
                out.push('!');
                escape(t, &mut out);
            }
            if let Some(g) = m.generation {
                out.push_str(&format!("*g{g}"));
            }
            for (t, ps) in &m.owned {
                out.push_str("*o");
                escape(t, &mut out);
                out.push('!');
                for (k, p) in ps.iter().enumerate() {
                    if k > 0 {
                        out.push(':');
                    }
                    out.push_str(&p.to_string());
                }
            }
        }
        if let Some(v) = state.versions.get(&i) {
            out.push_str(&format!("*v{v}"));
        }
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
            escape(t, &mut out);
            out.push('*');
            for (k, racks) in parts.iter().enumerate() {
                if k > 0 {
                    out.push('!');
                }
                for (j, r) in racks.iter().enumerate() {
                    if j > 0 {
                        out.push(':');
                    }
                    escape(r, &mut out);
                }
            }
        }
    }
    let mut extra = |k: &str, v: &str| {
        out.push_str(";x");
        escape(k, &mut out);
        out.push('=');
        escape(v, &mut out);
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
    for (i, t) in &state.hex_drafts {
        extra(&format!("h{i}"), t);
    }
    for (k, v) in &state.extra {
        extra(k, v);
    }
    out
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
