//! The scenario's URL form: the fragment after `#`, versioned and compact.
//!
//! ```text
//! v1;a=r;t=orders*6,payments*3;m=c0***D,c1*~static-1*~eu-west-1a*B*g4*oorders!0:1
//! ```
//! - sections split by `;`, each `key=value`; `v1` comes first and says the format version.
//! - `a`: assignor, `r` (range), `o` (round-robin), `s` (sticky), `c` (cooperative-sticky).
//! - `t`: topics, `name*count` split by `,`.
//! - `m`: members split by `,`, each `id*instance*rack*subscriptions*options...`: instance
//!   and rack are empty when absent and `~value` when present; subscriptions are a base64url
//!   bitmask over the topic list, then `!name` for each subscribed topic not in the list;
//!   options are `g<generation>`, `o<topic>!p:p:p` (owned partitions), `b<base64url bytes>`
//!   (raw subscription) and `v<version>` (the version its bytes view shows). A member id may
//!   start with `^.` (the previous member's id without its UUID) or `^N.` (the first N bytes
//!   of the previous member's id) and end with `~` and
//!   22 base64url characters (a coordinator UUID: `-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`).
//! - `p`: partition racks, `topic*racks!racks!...` with racks split by `:`.
//! - `x`: extra state of the app (kept verbatim for it).
//!
//! Names are percent-encoded except `A-Z a-z 0-9 - . _`, so every separator is unambiguous
//! and a browser never rewrites the fragment. One implementation serves the app and
//! `rebalance-lab link`.

use super::{Member, Scenario, Topic, MAX_PARTITIONS};
use crate::assignor::AssignorKind;
use crate::collections::{FastMap, VecMap};
use std::fmt;

/// The format version this build writes and reads.
pub const LINK_VERSION: u32 = 1;

/// Why a link cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError {
    /// Character index in the fragment (after `#`) where the problem starts.
    pub position: usize,
    /// What failed.
    pub message: String,
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "link, character {}: {}", self.position, self.message)
    }
}

impl std::error::Error for LinkError {}

/// A scenario and the app's extra state (the `x` section), as a link carries them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkState {
    /// The scenario.
    pub scenario: Scenario,
    /// Subscription view version chosen per member (index), when not the default.
    pub versions: VecMap<usize, i16>,
    /// Extra key/value pairs of the app (baseline, story step), kept in order.
    pub extra: Vec<(String, String)>,
}

fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_')
}

/// Percent-encodes every byte outside `A-Z a-z 0-9 - . _`.
pub fn escape(s: &str, out: &mut String) {
    const H: &[u8; 16] = b"0123456789ABCDEF";
    for b in s.bytes() {
        if is_plain(b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(H[(b >> 4) as usize] as char);
            out.push(H[(b & 15) as usize] as char);
        }
    }
}

/// Reverses [`escape`].
pub fn unescape(s: &str) -> Result<String, String> {
    Part { text: s, at: 0 }
        .unescape("text")
        .map_err(|e| e.message)
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64_encode(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..=n {
            out.push(B64[((v >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
}

fn b64_value(c: u8) -> Option<u32> {
    B64.iter().position(|x| *x == c).map(|p| p as u32)
}

/// A cursor over the fragment that knows its character position, for messages.
struct Part<'a> {
    text: &'a str,
    /// character offset of text[0] in the whole fragment
    at: usize,
}

impl<'a> Part<'a> {
    fn err(&self, msg: impl Into<String>) -> LinkError {
        LinkError {
            position: self.at,
            message: msg.into(),
        }
    }

    /// Splits on `sep`, each piece knowing its position.
    fn split(&self, sep: char) -> Vec<Part<'a>> {
        let mut out = Vec::new();
        let mut at = self.at;
        for piece in self.text.split(sep) {
            out.push(Part { text: piece, at });
            at += piece.chars().count() + 1;
        }
        out
    }

    fn skip(&self, n_bytes: usize) -> Part<'a> {
        Part {
            text: &self.text[n_bytes..],
            at: self.at + self.text[..n_bytes].chars().count(),
        }
    }

    fn unescape(&self, what: &str) -> Result<String, LinkError> {
        let b = self.text.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                let hex = |k: usize| b.get(k).and_then(|c| (*c as char).to_digit(16));
                match (hex(i + 1), hex(i + 2)) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => {
                        return Err(LinkError {
                            position: self.at + self.text[..i].chars().count(),
                            message: format!("{what}: '%' must be followed by two hex digits"),
                        })
                    }
                }
                i += 3;
            } else if is_plain(b[i]) {
                out.push(b[i]);
                i += 1;
            } else {
                let ch = self.text[i..].chars().next().unwrap_or('?');
                return Err(LinkError {
                    position: self.at + self.text[..i].chars().count(),
                    message: format!("{what}: unexpected character \"{ch}\""),
                });
            }
        }
        String::from_utf8(out)
            .map_err(|_| self.err(format!("{what}: not valid UTF-8 once decoded")))
    }

    /// `name<sep>rest`: the unescaped name and the rest, or `missing` as the error.
    fn name_and_rest(
        &self,
        sep: char,
        what: &str,
        missing: &str,
    ) -> Result<(String, Part<'a>), LinkError> {
        let Some(at) = self.text.find(sep) else {
            return Err(self.err(missing));
        };
        let name = Part {
            text: &self.text[..at],
            at: self.at,
        }
        .unescape(what)?;
        Ok((name, self.skip(at + sep.len_utf8())))
    }

    fn optional(&self, what: &str) -> Result<Option<String>, LinkError> {
        if self.text.is_empty() {
            return Ok(None);
        }
        match self.text.strip_prefix('~') {
            Some(_) => self.skip(1).unescape(what).map(Some),
            None => Err(self.err(format!("{what}: expected empty or '~' then a value"))),
        }
    }

    fn number<T: std::str::FromStr>(&self, what: &str, max_desc: &str) -> Result<T, LinkError> {
        self.text.parse::<T>().map_err(|_| {
            self.err(format!(
                "{what}: \"{}\" is not a number {max_desc}",
                self.text
            ))
        })
    }

    fn b64(&self, what: &str) -> Result<Vec<u8>, LinkError> {
        let b = self.text.as_bytes();
        if b.len() % 4 == 1 {
            return Err(self.err(format!(
                "{what}: base64 text is cut short (length {})",
                b.len()
            )));
        }
        let mut out = Vec::with_capacity(b.len() * 3 / 4);
        for (ci, chunk) in b.chunks(4).enumerate() {
            let mut v = 0u32;
            for (k, c) in chunk.iter().enumerate() {
                let d = b64_value(*c).ok_or_else(|| LinkError {
                    position: self.at + ci * 4 + k,
                    message: format!("{what}: \"{}\" is not a base64url character", *c as char),
                })?;
                v |= d << (18 - 6 * k);
            }
            for k in 0..chunk.len() - 1 {
                out.push((v >> (16 - 8 * k)) as u8);
            }
        }
        Ok(out)
    }
}

/// Writes the bitmask with the bits at `indices` (sorted) set, up to the last one: one
/// character per six topics, so the cost is the length written, not the topic count.
fn bitmask(indices: &[usize], out: &mut String) {
    let Some(&last) = indices.last() else {
        return;
    };
    let mut i = 0;
    for chunk in (0..=last).step_by(6) {
        let mut v = 0usize;
        while i < indices.len() && indices[i] < chunk + 6 {
            v |= 1 << (indices[i] - chunk);
            i += 1;
        }
        out.push(B64[v] as char);
    }
}

/// Each topic's position in the topic list, by name (the first one for a repeated name).
fn topic_indices(s: &Scenario) -> FastMap<&str, usize> {
    let mut index = FastMap::default();
    for (i, t) in s.topics.iter().enumerate() {
        index.entry(t.name.as_str()).or_insert(i);
    }
    index
}

/// How many characters the members' subscription bitmasks take in the fragment: one per
/// six topics up to the last topic each member subscribes to, so up to members × topics
/// / 6, the one part of a link that can grow faster than the scenario file.
pub fn subscription_mask_len(s: &Scenario) -> u64 {
    let index = topic_indices(s);
    s.members
        .iter()
        .filter(|m| m.subscription.is_none())
        .filter_map(|m| m.topics.iter().filter_map(|t| index.get(t.as_str())).max())
        .map(|last| (*last as u64) / 6 + 1)
        .sum()
}

/// Writes the link fragment (without `#`) for a scenario and the app's extra state.
pub fn to_fragment(state: &LinkState) -> String {
    let s = &state.scenario;
    let mut out = format!("v{LINK_VERSION};a=");
    out.push(match s.assignor {
        AssignorKind::Range => 'r',
        AssignorKind::RoundRobin => 'o',
        AssignorKind::Sticky => 's',
        AssignorKind::CooperativeSticky => 'c',
    });
    out.push_str(";t=");
    for (i, t) in s.topics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        escape(&t.name, &mut out);
        out.push('*');
        out.push_str(&t.partitions.to_string());
    }
    out.push_str(";m=");
    let index = topic_indices(s);
    let mut indices: Vec<usize> = Vec::new();
    let mut prev_id = "";
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
        if m.subscription.is_none() {
            let mut others = Vec::new();
            indices.clear();
            for t in &m.topics {
                match index.get(t.as_str()) {
                    Some(&k) => indices.push(k),
                    None => others.push(t),
                }
            }
            indices.sort_unstable();
            bitmask(&indices, &mut out);
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
                let list: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                out.push_str(&list.join(":"));
            }
        } else if let Some(b) = &m.subscription {
            // The bytes are the member's subscription: nothing else is needed.
            out.push_str("*b");
            b64_encode(b, &mut out);
        }
        if let Some(v) = state.versions.get(&i) {
            out.push_str(&format!("*v{v}"));
        }
    }
    if !s.partition_racks.is_empty() {
        out.push_str(";p=");
        for (i, (t, parts)) in s.partition_racks.iter().enumerate() {
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
    for (k, v) in &state.extra {
        out.push_str(";x");
        escape(k, &mut out);
        out.push('=');
        escape(v, &mut out);
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

/// Reads a link fragment (with or without the leading `#`, or a whole link).
pub fn from_fragment(fragment: &str) -> Result<LinkState, LinkError> {
    let (text, at) = match fragment.find('#') {
        Some(i) => (&fragment[i + 1..], fragment[..=i].chars().count()),
        None => (fragment, 0),
    };
    let whole = Part { text, at };
    let sections = whole.split(';');
    let head = &sections[0];
    let Some(v) = head.text.strip_prefix('v') else {
        return Err(head.err("a Rebalance Lab link starts with a format version such as v1"));
    };
    let version: u32 = head.skip(1).number("format version", "")?;
    if version > LINK_VERSION {
        return Err(head.err(format!(
            "this link uses format v{version}, made by a newer Rebalance Lab; this version reads v{LINK_VERSION}"
        )));
    }
    if version == 0 {
        return Err(head.err(format!("unknown link format v{v}")));
    }
    let mut state = LinkState::default();
    let mut seen_members = false;
    let mut seen_topics = false;
    let mut members_part: Option<&Part<'_>> = None;
    for sec in &sections[1..] {
        let Some(eq) = sec.text.find('=') else {
            return Err(sec.err(format!("section \"{}\" has no '='", sec.text)));
        };
        let key = &sec.text[..eq];
        let val = sec.skip(eq + 1);
        match key {
            "a" => {
                state.scenario.assignor = match val.text {
                    "r" => AssignorKind::Range,
                    "o" => AssignorKind::RoundRobin,
                    "s" => AssignorKind::Sticky,
                    "c" => AssignorKind::CooperativeSticky,
                    other => {
                        return Err(val.err(format!(
                            "assignor \"{other}\" is not r (range) or o (round-robin)"
                        )))
                    }
                }
            }
            "t" => {
                seen_topics = true;
                if val.text.is_empty() {
                    continue;
                }
                for (i, item) in val.split(',').iter().enumerate() {
                    let Some(star) = item.text.rfind('*') else {
                        return Err(item.err(format!("topic {}: expected name*count", i + 1)));
                    };
                    let name = Part {
                        text: &item.text[..star],
                        at: item.at,
                    }
                    .unescape("topic name")?;
                    let count_part = item.skip(star + 1);
                    let count: u64 = count_part.number("partition count", "")?;
                    if count > MAX_PARTITIONS as u64 {
                        return Err(count_part.err(format!(
                            "topic \"{name}\": partition count {count} is above the limit of {MAX_PARTITIONS}"
                        )));
                    }
                    if state.scenario.topics.iter().any(|t| t.name == name) {
                        return Err(item.err(format!("topic \"{name}\" is listed twice")));
                    }
                    state.scenario.topics.push(Topic {
                        name,
                        partitions: count as u32,
                    });
                }
            }
            "m" => {
                seen_members = true;
                members_part = Some(sec);
            }
            "p" => {
                if val.text.is_empty() {
                    continue;
                }
                for item in val.split(',') {
                    let (topic, rest) = item.name_and_rest(
                        '*',
                        "partition racks topic",
                        "partition racks: expected topic*racks",
                    )?;
                    let mut parts = Vec::new();
                    for p in rest.split('!') {
                        let mut racks = Vec::new();
                        if !p.text.is_empty() {
                            for r in p.split(':') {
                                racks.push(r.unescape("rack")?);
                            }
                        }
                        parts.push(racks);
                    }
                    state.scenario.partition_racks.insert(topic, parts);
                }
            }
            k if k.starts_with('x') => {
                let k = Part {
                    text: &k[1..],
                    at: sec.at + 1,
                }
                .unescape("app state key")?;
                let v = val.unescape("app state value")?;
                state.extra.push((k, v));
            }
            other => return Err(sec.err(format!("unknown section \"{other}\""))),
        }
    }
    let total: u64 = state
        .scenario
        .topics
        .iter()
        .map(|t| t.partitions as u64)
        .sum();
    if total > MAX_PARTITIONS as u64 {
        return Err(whole.err(format!(
            "the link's topics add up to {total} partitions; the limit is {MAX_PARTITIONS}"
        )));
    }
    if !seen_topics || !seen_members {
        return Err(whole.err(format!(
            "the link is missing its {} section; was it cut short?",
            if !seen_topics {
                "topics (t=)"
            } else {
                "members (m=)"
            }
        )));
    }
    if let Some(sec) = members_part {
        let val = sec.skip(2);
        if !val.text.is_empty() {
            for (i, item) in val.split(',').iter().enumerate() {
                let prev_id = state.scenario.members.last().map_or("", |m| m.id.as_str());
                let (m, v) = read_member(item, i, &state.scenario.topics, prev_id)?;
                if state.scenario.members.iter().any(|o| o.id == m.id) {
                    return Err(item.err(format!("member \"{}\" is listed twice", m.id)));
                }
                if let Some(v) = v {
                    state.versions.insert(i, v);
                }
                state.scenario.members.push(m);
            }
        }
    }
    Ok(state)
}

/// The canonical lower-case UUID at the end of a coordinator member id
/// (`client.id-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), as 16 bytes.
fn trailing_uuid(id: &str) -> Option<[u8; 16]> {
    let (_, uuid) = crate::scenario::whatif::split_member_id(id)?;
    // Only the canonical lower-case form packs: the reader writes it back lower-case.
    if uuid.bytes().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let digits: String = uuid.chars().filter(|c| *c != '-').collect();
    crate::protocol::hex::parse_hex(&digits)
        .ok()?
        .try_into()
        .ok()
}

/// A member id without its packable UUID: what `^.` repeats.
fn head_of(id: &str) -> &str {
    if trailing_uuid(id).is_some() {
        &id[..id.len() - 37]
    } else {
        id
    }
}

/// A member id, compactly: `^.` repeats the previous id's client.id (all before its UUID),
/// `^N.` reuses the first N bytes of the previous id, and a trailing
/// coordinator UUID is written as `~` and 22 base64url characters. Shared link length stays
/// short for real member ids (`consumer-orders-1-<uuid>` fifty times).
fn write_member_id(id: &str, prev: &str, out: &mut String) {
    let (head, uuid) = match trailing_uuid(id) {
        Some(u) => (&id[..id.len() - 37], Some(u)),
        None => (id, None),
    };
    let prev_head = head_of(prev);
    let mut common = head
        .bytes()
        .zip(prev.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !head.is_char_boundary(common) {
        common -= 1;
    }
    if !head.is_empty() && head == prev_head {
        // The same client.id as the previous member: the usual case.
        out.push_str("^.");
    } else if common >= 4 {
        out.push_str(&format!("^{common}."));
        escape(&head[common..], out);
    } else {
        escape(head, out);
    }
    if let Some(u) = uuid {
        out.push('~');
        b64_encode(&u, out);
    }
}

fn read_member_id(p: &Part<'_>, prev: &str) -> Result<String, LinkError> {
    let mut rest = Part {
        text: p.text,
        at: p.at,
    };
    let mut id = String::new();
    if let Some(r) = rest.text.strip_prefix("^.") {
        let _ = r;
        let prev_head = head_of(prev);
        if prev_head.is_empty() {
            return Err(p.err(
                "member id: '^.' repeats the previous member's client.id, but there is none",
            ));
        }
        id.push_str(prev_head);
        rest = p.skip(2);
    } else if let Some(r) = rest.text.strip_prefix('^') {
        let dot = r
            .find('.')
            .ok_or_else(|| p.err("member id: '^' must be followed by a length and '.'"))?;
        let n: usize = Part {
            text: &r[..dot],
            at: p.at + 1,
        }
        .number("member id prefix length", "")?;
        let shared = prev.get(..n).ok_or_else(|| {
            p.err(format!(
                "member id: reuses {n} bytes of the previous member id, which is shorter"
            ))
        })?;
        id.push_str(shared);
        rest = p.skip(dot + 2);
    }
    let (text, uuid) = match rest.text.find('~') {
        Some(t) => (&rest.text[..t], Some(rest.skip(t + 1))),
        None => (rest.text, None),
    };
    id.push_str(&Part { text, at: rest.at }.unescape("member id")?);
    if let Some(u) = uuid {
        let bytes = u.b64("member id UUID")?;
        if bytes.len() != 16 {
            return Err(u.err(format!(
                "member id UUID: {} bytes, a UUID has 16",
                bytes.len()
            )));
        }
        let h = crate::protocol::hex::to_hex(&bytes);
        id.push_str(&format!(
            "-{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        ));
    }
    Ok(id)
}

fn read_member(
    item: &Part<'_>,
    i: usize,
    topics: &[Topic],
    prev_id: &str,
) -> Result<(Member, Option<i16>), LinkError> {
    let f = item.split('*');
    if f.len() < 4 {
        return Err(item.err(format!(
            "member {}: expected id*instance*rack*subscriptions, found {} of those fields",
            i + 1,
            f.len()
        )));
    }
    let mut m = Member {
        id: read_member_id(&f[0], prev_id)?,
        instance_id: f[1].optional("group.instance.id")?,
        rack: f[2].optional("rack")?,
        ..Default::default()
    };
    let subs = f[3].split('!');
    let mask = &subs[0];
    for (k, c) in mask.text.bytes().enumerate() {
        let v = b64_value(c).ok_or_else(|| LinkError {
            position: mask.at + k,
            message: format!(
                "member {}: subscriptions: \"{}\" is not a base64url character",
                i + 1,
                c as char
            ),
        })?;
        for bit in 0..6 {
            if v & (1 << bit) != 0 {
                let ti = k * 6 + bit;
                let t = topics.get(ti).ok_or_else(|| LinkError {
                    position: mask.at + k,
                    message: format!(
                        "member {}: subscribes to topic #{} but the link lists {} topics",
                        i + 1,
                        ti + 1,
                        topics.len()
                    ),
                })?;
                m.topics.push(t.name.clone());
            }
        }
    }
    for extra in &subs[1..] {
        m.topics.push(extra.unescape("subscribed topic")?);
    }
    let mut version = None;
    for opt in &f[4..] {
        let rest = opt.skip(opt.text.len().min(1));
        match opt.text.as_bytes().first() {
            Some(b'g') => m.generation = Some(rest.number("generation", "in the int32 range")?),
            Some(b'v') => {
                let v: i16 = rest.number("subscription version", "from 0 to 3")?;
                if !(0..=3).contains(&v) {
                    return Err(rest.err(format!("subscription version {v} is not 0 to 3")));
                }
                version = Some(v);
            }
            Some(b'o') => {
                let (t, ps) =
                    rest.name_and_rest('!', "owned topic", "owned partitions: expected topic!p:p")?;
                let mut list = Vec::new();
                if !ps.text.is_empty() {
                    for p in ps.split(':') {
                        list.push(p.number::<i32>("owned partition", "in the int32 range")?);
                    }
                }
                m.owned.insert(t, list);
            }
            Some(b'b') => {
                let bytes = rest.b64("subscription bytes")?;
                let d = crate::protocol::decode_subscription(&bytes);
                // Bytes that do not decode are kept as they are: the member shows the error.
                if d.error.is_none() {
                    m.apply_subscription(&d.message);
                }
                m.subscription = Some(bytes);
            }
            _ => return Err(opt.err(format!("member {}: unknown field \"{}\"", i + 1, opt.text))),
        }
    }
    Ok((m, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Scenario {
        Scenario {
            topics: vec![
                Topic {
                    name: "orders".into(),
                    partitions: 6,
                },
                Topic {
                    name: "<img src=x onerror=alert(1)>".into(),
                    partitions: 3,
                },
            ],
            partition_racks: [(
                "orders".to_string(),
                vec![vec!["a".into(), "b:c".into()], vec![]],
            )]
            .into_iter()
            .collect(),
            members: vec![
                Member {
                    id: "consumer-1 é".into(),
                    instance_id: Some("".into()),
                    rack: Some("eu*1".into()),
                    topics: vec!["<img src=x onerror=alert(1)>".into(), "gone".into()],
                    owned: [("orders".to_string(), vec![0, -1])].into_iter().collect(),
                    generation: Some(-7),
                    subscription: None,
                },
                Member::new("c2", &[]),
            ],
            assignor: AssignorKind::RoundRobin,
        }
    }

    #[test]
    fn round_trip() {
        let st = LinkState {
            scenario: sample(),
            versions: [(1, 2)].into_iter().collect(),
            extra: vec![("base".into(), "x;y=z".into())],
        };
        let f = to_fragment(&st);
        assert_eq!(from_fragment(&f).unwrap(), st);
        assert_eq!(from_fragment(&format!("http://h/#{f}")).unwrap(), st);
    }

    #[test]
    fn bytes_survive() {
        let mut s = sample();
        let bytes = crate::protocol::hex::parse_hex(
            "00030000000100057330312d610000000000000000ffffffff0000",
        )
        .unwrap();
        s.members[1].subscription = Some(bytes.clone());
        s.members[1].apply_subscription(&crate::protocol::decode_subscription(&bytes).message);
        let st = LinkState {
            scenario: s,
            ..Default::default()
        };
        let back = from_fragment(&to_fragment(&st)).unwrap();
        assert_eq!(
            back.scenario.members[1].subscription.as_deref(),
            Some(&bytes[..])
        );
        assert_eq!(back.scenario.members[1].topics, vec!["s01-a".to_string()]);
    }

    #[test]
    fn broken_links_say_where() {
        let f = to_fragment(&LinkState {
            scenario: sample(),
            ..Default::default()
        });
        for cut in 1..f.len() {
            if !f.is_char_boundary(cut) {
                continue;
            }
            // Never panics; either reads (a cut that still parses) or says where.
            let _ = from_fragment(&f[..cut]);
        }
        let e = from_fragment("v9;a=r;t=;m=").unwrap_err();
        assert!(e.message.contains("newer"), "{e}");
        let e = from_fragment("v1;a=r;t=a*99999999999;m=").unwrap_err();
        assert!(e.message.contains("above the limit"), "{e}");
        assert_eq!(e.position, 11);
        let e = from_fragment("v1;a=r;t=a*1").unwrap_err();
        assert!(e.message.contains("cut short"), "{e}");
        let e = from_fragment("v1;a=r;t=a*900000,b*900000;m=").unwrap_err();
        assert!(e.message.contains("add up to 1800000"), "{e}");
        let e = from_fragment("hello").unwrap_err();
        assert!(e.message.contains("format version"), "{e}");
    }

    /// Members with these ids, all subscribed to 20 topics of 12 partitions.
    fn twenty_topics(ids: &[String]) -> Scenario {
        let topics: Vec<Topic> = (0..20)
            .map(|i| Topic {
                name: format!("topic-{i}"),
                partitions: 12,
            })
            .collect();
        let names: Vec<&str> = topics.iter().map(|t| t.name.as_str()).collect();
        let members = ids.iter().map(|id| Member::new(id, &names)).collect();
        Scenario {
            topics,
            members,
            ..Default::default()
        }
    }

    #[test]
    fn coordinator_member_ids_are_compact() {
        let ids: Vec<String> = (0..50)
            .map(|i| crate::scenario::whatif::coordinator_member_id("consumer-orders-1", i))
            .collect();
        let mut scenario = twenty_topics(&ids);
        scenario.members.push(Member::new("ab", &[]));
        scenario.members.push(Member::new(
            "x-0123456789ABCDEF-0123-4567-89ab-cdef01234567",
            &[],
        ));
        let st = LinkState {
            scenario,
            ..Default::default()
        };
        let link = to_link("http://127.0.0.1:8080/", &st);
        assert!(link.len() < 2000, "{}", link.len());
        assert_eq!(from_fragment(&link).unwrap(), st);
        assert!(from_fragment("v1;a=r;t=;m=^9.x***")
            .unwrap_err()
            .message
            .contains("shorter"));
        assert!(from_fragment("v1;a=r;t=;m=^.***")
            .unwrap_err()
            .message
            .contains("there is none"));
        assert!(from_fragment("v1;a=r;t=;m=a~AAAA***")
            .unwrap_err()
            .message
            .contains("a UUID has 16"));
    }

    #[test]
    fn fifty_members_twenty_topics_fit() {
        let ids: Vec<String> = (0..50).map(|i| format!("consumer-{i}")).collect();
        let st = LinkState {
            scenario: twenty_topics(&ids),
            ..Default::default()
        };
        let link = to_link("http://127.0.0.1:8080/", &st);
        assert!(link.len() < 2000, "{}", link.len());
    }
}
