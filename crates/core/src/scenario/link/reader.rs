//! Reads a link fragment, refusing anything it cannot read exactly with where and why.

use super::baseline::read_baseline;
use super::ids::read_member_id;
use super::text::{b64_value, Part};
use super::{BadPart, LinkError, LinkState, LINK_VERSION};
use crate::assignor::{AssignorKind, LeaderClient};
use crate::collections::Names;
use crate::scenario::{whatif, Member, Topic, MAX_PARTITIONS};

/// The most members a link may carry (each is at least a few characters; a real group
/// stays far below).
pub const MAX_MEMBERS: usize = 1_000_000;

/// Reads a link fragment (with or without the leading `#`, or a whole link).
/// Reads a link fragment (with or without the leading `#`, or a whole link): its head, its
/// sections, then the members (once the topics they subscribe to are read), then the app's
/// own sections (once the members they name are).
pub fn from_fragment(fragment: &str) -> Result<LinkState, LinkError> {
    let (whole, sections) = sections_of(fragment)?;
    let mut r = Reading::default();
    let mut seen = Names::default();
    for sec in &sections[1..] {
        let Some(eq) = sec.text.find('=') else {
            return Err(sec.err(format!("section \"{}\" has no '='", shorten(sec.text))));
        };
        let key = sec.take(eq);
        let val = sec.skip(eq + 1);
        if matches!(key.text, "a" | "t" | "m" | "p" | "g" | "l")
            && seen.insert(key.text.to_string(), 0).is_some()
        {
            return Err(sec.err(format!("section {}= appears twice", key.text)));
        }
        read_section(&mut r, sec, key, val)?;
    }
    if !seen.contains_key("t") || !seen.contains_key("m") {
        return Err(whole.err(format!(
            "the link is missing its {} section; was it cut short?",
            if !seen.contains_key("t") {
                "topics (t=)"
            } else {
                "members (m=)"
            }
        )));
    }
    let Reading {
        mut state,
        members,
        extras,
        topic_index,
    } = r;
    if let Some(val) = members {
        read_members(&mut state, val, &topic_index)?;
    }
    for (key, val) in extras {
        read_extra(&mut state, key, val, &topic_index)?;
    }
    Ok(state)
}

/// The link's text after any `#`, checked (ASCII, not empty, a format this version reads),
/// as a whole and split into its sections (the first is the version).
fn sections_of(fragment: &str) -> Result<(Part<'_>, Vec<Part<'_>>), LinkError> {
    let (text, at) = match fragment.find('#') {
        Some(i) => (&fragment[i + 1..], fragment[..=i].chars().count()),
        None => (fragment, 0),
    };
    // The writer percent-encodes every name: a link is ASCII. Refusing anything else up
    // front also means no slice below can fall inside a character.
    if let Some((i, c)) = text.char_indices().find(|(_, c)| !c.is_ascii()) {
        let mut enc = String::new();
        for b in c.to_string().bytes() {
            enc.push_str(&format!("%{b:02X}"));
        }
        return Err(LinkError {
            position: at + text[..i].chars().count(),
            message: format!(
                "\"{c}\" cannot appear in a link as it is; names are percent-encoded (\"{enc}\")",
            ),
        });
    }
    let whole = Part { text, at };
    if text.is_empty() {
        return Err(whole.err("the link is empty after '#'; a Rebalance Lab link starts with v1"));
    }
    let sections = whole.split(';');
    let head = &sections[0];
    if !head.text.starts_with('v') {
        return Err(head.err("a Rebalance Lab link starts with a format version such as v1"));
    }
    let version: u32 = head.skip(1).number("format version", "")?;
    if version > LINK_VERSION {
        return Err(head.err(format!(
            "this link uses format v{version}, made by a newer Rebalance Lab; this version reads v{LINK_VERSION}"
        )));
    }
    if version == 0 {
        return Err(head.err(format!("unknown link format v{version}")));
    }
    Ok((whole, sections))
}

/// What the main sections gave so far.
#[derive(Default)]
struct Reading<'a> {
    state: LinkState,
    /// The members' section, read once the topics are (it may come before them).
    members: Option<Part<'a>>,
    /// The app's own sections (`x…`), read once the members are.
    extras: Vec<(Part<'a>, Part<'a>)>,
    /// Each topic's place in the list, by name.
    topic_index: Names,
}

/// One of the main sections (`key=val`): one match over the format's cases.
fn read_section<'a>(
    r: &mut Reading<'a>,
    sec: &Part<'a>,
    key: Part<'a>,
    val: Part<'a>,
) -> Result<(), LinkError> {
    match key.text {
        "a" => {
            r.state.scenario.assignor = match val.text {
                "r" => AssignorKind::Range,
                "o" => AssignorKind::RoundRobin,
                "s" => AssignorKind::Sticky,
                "c" => AssignorKind::CooperativeSticky,
                "u" => AssignorKind::Uniform,
                "g" => AssignorKind::ServerRange,
                other => {
                    return Err(val.err(format!(
                        "assignor \"{}\" is not r (range), o (round-robin), s (sticky), c (cooperative-sticky), u (uniform) or g (server-range)",
                        shorten(other)
                    )))
                }
            }
        }
        "t" => {
            if val.text.is_empty() {
                return Ok(());
            }
            let mut total: u64 = 0;
            for (i, item) in val.split(',').iter().enumerate() {
                let Some(star) = item.text.rfind('*') else {
                    return Err(item.err(format!("topic {}: expected name*count", i + 1)));
                };
                let name = item.take(star).unescape("topic name")?;
                if name.is_empty() {
                    return Err(item.err(format!("topic {}: a topic name cannot be empty", i + 1)));
                }
                let count_part = item.skip(star + 1);
                let count: u64 = count_part.number("partition count", "")?;
                if count > MAX_PARTITIONS as u64 {
                    return Err(count_part.err(format!(
                        "topic \"{name}\": partition count {count} is above the limit of {MAX_PARTITIONS}"
                    )));
                }
                total += count;
                if total > MAX_PARTITIONS as u64 {
                    return Err(count_part.err(format!(
                        "the link's topics add up to more than {MAX_PARTITIONS} partitions (the limit) by topic \"{name}\""
                    )));
                }
                if r.topic_index.contains_key(&name) {
                    return Err(item.err(format!("topic \"{name}\" is listed twice")));
                }
                r.topic_index.insert(name.clone(), r.state.scenario.topics.len() as u32);
                r.state.scenario.topics.push(Topic {
                    name,
                    partitions: count as u32,
                });
            }
        }
        "m" => r.members = Some(val),
        "g" => {
            let f = val.split('*');
            if !(2..=3).contains(&f.len()) {
                return Err(val.err("group: expected ~group.id*partitions, then *v when the vote picks the assignor"));
            }
            r.state.scenario.group_id = f[0].optional("group id")?;
            let n: u32 = f[1].number("offsets.topic.num.partitions", "from 1 to 2147483647")?;
            if n == 0 || n > i32::MAX as u32 {
                return Err(f[1].err(format!("offsets.topic.num.partitions {n} is not from 1 to 2147483647")));
            }
            r.state.scenario.offsets_partitions = n;
            if let Some(v) = f.get(2) {
                if v.text != "v" {
                    return Err(v.err(format!("group: \"{}\" is not v (the vote picks the assignor)", shorten(v.text))));
                }
                r.state.scenario.assignor_by_vote = true;
            }
        }
        "l" => {
            r.state.scenario.leader_client = match val.text {
                "java" => LeaderClient::Java,
                "librdkafka" => LeaderClient::Librdkafka,
                other => {
                    return Err(val.err(format!(
                        "leader client \"{}\" is not java or librdkafka",
                        shorten(other)
                    )))
                }
            }
        }
        "p" => {
            if val.text.is_empty() {
                return Ok(());
            }
            for item in val.split(',') {
                let (topic, rest) = item.name_and_rest(
                    '*',
                    "partition racks topic",
                    "partition racks: expected topic*racks",
                )?;
                if r.state.scenario.partition_racks.contains_key(&topic) {
                    return Err(item.err(format!(
                        "partition racks of topic \"{topic}\" are listed twice"
                    )));
                }
                let mut parts = Vec::new();
                for p in rest.split('!') {
                    if parts.len() >= MAX_PARTITIONS as usize {
                        return Err(p.err(format!(
                            "partition racks of topic \"{topic}\": more than {MAX_PARTITIONS} partitions"
                        )));
                    }
                    let mut racks = Vec::new();
                    if !p.text.is_empty() {
                        for r in p.split(':') {
                            let rack = r.unescape("rack")?;
                            if rack.is_empty() {
                                return Err(r.err("a rack name cannot be empty"));
                            }
                            racks.push(rack);
                        }
                    }
                    parts.push(racks);
                }
                r.state.scenario.partition_racks.insert(topic, parts);
            }
        }
        k if k.starts_with('x') => r.extras.push((key.skip(1), val)),
        other => {
            return Err(sec.err(format!("unknown section \"{}\"", shorten(other))))
        }
    }
    Ok(())
}

/// The members' section: each member read against the topics, no id listed twice.
fn read_members(
    state: &mut LinkState,
    val: Part<'_>,
    topic_index: &Names,
) -> Result<(), LinkError> {
    if !val.text.is_empty() {
        let mut ids = Names::default();
        let mut prev_subscriptions = "";
        for (i, item) in val.split(',').iter().enumerate() {
            if i >= MAX_MEMBERS {
                return Err(item.err(format!(
                    "more than {MAX_MEMBERS} members (the limit of a link)"
                )));
            }
            let prev = state
                .scenario
                .members
                .last()
                .map(|m| (m, prev_subscriptions));
            let (m, v, subscriptions) =
                read_member(item, i, &state.scenario.topics, topic_index, prev)?;
            prev_subscriptions = subscriptions;
            if ids.insert(m.id.clone(), 0).is_some() {
                return Err(item.err(format!("member \"{}\" is listed twice", m.id)));
            }
            if let Some(v) = v {
                state.versions.insert(i, v);
            }
            state.scenario.members.push(m);
        }
    }
    Ok(())
}

/// One of the app's own sections (`xkey=val`): one match over the format's cases; a key this
/// version does not know is kept as it came.
fn read_extra(
    state: &mut LinkState,
    key: Part<'_>,
    val: Part<'_>,
    topic_index: &Names,
) -> Result<(), LinkError> {
    let k = key.unescape("app state key")?;
    if k == "j" {
        // written as it is, not escaped again (its names are escaped inside it)
        state.group_log = super::log::read_group_log(val, &state.scenario.members)?;
        return Ok(());
    }
    let v = val.unescape("app state value")?;
    match k.as_str() {
        "b" => {
            state.baseline = Some(read_baseline(&v).map_err(|message| BadPart {
                raw: v.clone(),
                error: LinkError {
                    position: val.at,
                    message: format!("baseline: {message}"),
                },
            }))
        }
        "s" => {
            let n = whatif::STORY_STEPS;
            let step: usize = val.number("story step", &format!("from 0 to {}", n - 1))?;
            if step >= n {
                return Err(val.err(format!(
                    "story step {step} does not exist (the story has {n} steps, 0 to {})",
                    n - 1
                )));
            }
            state.story_step = Some(step);
        }
        "l" => {
            // `range.4.rw-r`: the lesson's key, then its progress (lesson::Progress)
            let (key, rest) = v.split_once('.').unwrap_or((&v, ""));
            let lesson = crate::lesson::lesson(key)
                .ok_or_else(|| val.err(format!("there is no lesson \"{}\"", shorten(key))))?;
            let at = val.at + key.len() + 1;
            let p = crate::lesson::Progress::parse(rest).map_err(|e| LinkError {
                position: at + e.position,
                message: format!("lesson: {}", e.message),
            })?;
            p.fits(lesson)
                .map_err(|m| val.err(format!("lesson: {m}")))?;
            state.lesson = Some((lesson.key, p));
        }
        "p" => {
            // The pinned group is a link of its own: read it as one, and say where.
            let inner = from_fragment(&v).map_err(|e| {
                val.err(format!(
                    "pinned group, its character {}: {}",
                    e.position, e.message
                ))
            })?;
            if inner.pinned.is_some() || inner.baseline.is_some() {
                return Err(val.err("pinned group: it cannot carry a pin of its own"));
            }
            let renames = state.pinned.take().map(|p| p.1).unwrap_or_default();
            state.pinned = Some((inner.scenario, renames));
        }
        "o" => {
            // The person's own group is a link of its own: read it as one, and say where.
            let inner = from_fragment(&v).map_err(|e| {
                val.err(format!(
                    "your own group (xo), its character {}: {}",
                    e.position, e.message
                ))
            })?;
            if inner.own.is_some() || inner.lesson.is_some() || inner.story_step.is_some() {
                return Err(val.err(
                    "your own group (xo) cannot carry a story, a lesson or an own group of its own",
                ));
            }
            state.own = Some(Box::new(inner));
        }
        "t" => {
            let spec = crate::timeline::spec::Spec::parse(&v).map_err(|e| LinkError {
                position: val.at + e.position,
                message: format!("timeline: {}", e.message),
            })?;
            state.timeline = Some(spec);
        }
        "r" => read_renames(state, &val, &v)?,
        "g" => read_lag(state, &val, &v, topic_index)?,
        "k" => read_said(state, &val, &v)?,
        "i" => read_topic_ids(state, &val, &v, topic_index)?,
        "c" => read_colours(state, &val, &v)?,
        h if h.starts_with('h') && h.len() > 1 => {
            let i: usize = key.skip(1).number("member number of typed hex", "")?;
            if i >= state.scenario.members.len() {
                return Err(key.err(format!(
                    "typed hex for member {} but the link has {} members",
                    i + 1,
                    state.scenario.members.len()
                )));
            }
            state.hex_drafts.insert(i, v);
        }
        _ => state.extra.push((k, v)),
    }
    Ok(())
}

/// The pinned group's members that came back under new ids: `old!new,...`.
fn read_renames(state: &mut LinkState, val: &Part<'_>, v: &str) -> Result<(), LinkError> {
    let mut renames = Vec::new();
    if !v.is_empty() {
        for pair in v.split(',') {
            let (o, n) = pair
                .split_once('!')
                .ok_or_else(|| val.err("renames: expected old!new pairs split by ','"))?;
            let un = |t: &str| {
                super::text::unescape(t)
                    .map_err(|e| val.err(format!("renames: {e}")))
                    .and_then(|x| {
                        if x.is_empty() {
                            Err(val.err("renames: a member id cannot be empty"))
                        } else {
                            Ok(x)
                        }
                    })
            };
            renames.push((un(o)?, un(n)?));
        }
    }
    match state.pinned.as_mut() {
        Some(p) => p.1 = renames,
        None => return Err(val.err("renames (xr) come with a pinned group (xp) before them")),
    }
    Ok(())
}

/// An imported group's lag.
fn read_lag(
    state: &mut LinkState,
    val: &Part<'_>,
    v: &str,
    topic_index: &Names,
) -> Result<(), LinkError> {
    // `topic!lag.lag...,`: an imported group's lag, empty where not shown; at most
    // one entry per partition of a topic the link has
    let mut lag = crate::import::Lag::new();
    for item in v.split(',') {
        let (name, lags) = item
            .split_once('!')
            .ok_or_else(|| val.err("lag: expected topic!lag.lag... split by ','"))?;
        let name = super::text::unescape(name).map_err(|e| val.err(format!("lag: {e}")))?;
        let Some(&t) = topic_index.get(&name) else {
            return Err(val.err(format!(
                "lag: \"{}\" is not one of the link's topics",
                shorten(&name)
            )));
        };
        let partitions = state.scenario.topics[t as usize].partitions as usize;
        if lags.split('.').count() > partitions.max(1) {
            return Err(val.err(format!(
                "lag: topic \"{}\" has {partitions} partitions and more lags",
                shorten(&name)
            )));
        }
        let mut list = Vec::new();
        for l in lags.split('.') {
            list.push(if l.is_empty() {
                None
            } else {
                Some(l.parse::<i64>().map_err(|_| {
                    val.err(format!(
                        "lag: topic \"{}\": \"{}\" is not a lag",
                        shorten(&name),
                        shorten(l)
                    ))
                })?)
            });
        }
        if lag.insert(name, list).is_some() {
            return Err(val.err("lag: a topic is listed twice"));
        }
    }
    state.lag = Some(lag);
    Ok(())
}

/// What Kafka's tool said of an imported group.
fn read_said(state: &mut LinkState, val: &Part<'_>, v: &str) -> Result<(), LinkError> {
    // `[~state]*[~strategy]*line.message,...`: what Kafka's tool said of an
    // imported group, each text escaped, a cell empty when it was not printed
    let parts: Vec<&str> = v.splitn(3, '*').collect();
    let [st, strategy, warnings] = parts[..] else {
        return Err(
            val.err("Kafka's output: expected state*strategy*warnings (each part may be empty)")
        );
    };
    let text = |t: &str, what: &str| {
        super::text::unescape(t).map_err(|e| val.err(format!("Kafka's output, {what}: {e}")))
    };
    let cell = |t: &str, what: &str| match t {
        "" => Ok(None),
        t => match t.strip_prefix('~') {
            Some(t) => text(t, what).map(Some),
            None => Err(val.err(format!(
                "Kafka's output, {what}: expected '~' before it \
                     (an empty part: not printed)"
            ))),
        },
    };
    let mut said = crate::import::Printed {
        state: cell(st, "state")?,
        strategy: cell(strategy, "strategy")?,
        warnings: Vec::new(),
    };
    for w in warnings.split(',').filter(|_| !warnings.is_empty()) {
        let (line, message) = w
            .split_once('.')
            .ok_or_else(|| val.err("Kafka's output, a message: expected line.message"))?;
        let line = line.parse::<usize>().map_err(|_| {
            val.err(format!(
                "Kafka's output, a message: \"{}\" is not a line number",
                shorten(line)
            ))
        })?;
        said.warnings.push(crate::import::Warning {
            line,
            message: text(message, "a message")?,
        });
    }
    state.printed = Some(said);
    Ok(())
}

/// Each topic's id.
fn read_topic_ids(
    state: &mut LinkState,
    val: &Part<'_>,
    v: &str,
    topic_index: &Names,
) -> Result<(), LinkError> {
    // `name!id,name!id`: each topic's id, Kafka's Uuid text
    for pair in v.split(',') {
        let (name, id) = pair
            .split_once('!')
            .ok_or_else(|| val.err("topic ids: expected name!id pairs split by ','"))?;
        let name = super::text::unescape(name).map_err(|e| val.err(format!("topic ids: {e}")))?;
        let id = crate::java::Uuid::parse(id).map_err(|e| {
            val.err(format!(
                "topic ids: topic \"{}\": {}",
                shorten(&name),
                e.message
            ))
        })?;
        // (a reserved id, which the broker never gives a topic but pages before
        // this one took: the topic keeps the id derived from its name)
        let reserved = id.reserved_for_topics().is_some();
        if state.scenario.topic_ids.contains_key(&name) {
            return Err(val.err(format!(
                "topic ids: topic \"{}\" is given two ids",
                shorten(&name)
            )));
        }
        // (the topics come first in a link: `t` before the `x` parts)
        if !topic_index.contains_key(&name) {
            return Err(val.err(format!(
                "topic ids: \"{}\" is not one of the link's topics",
                shorten(&name)
            )));
        }
        if !reserved {
            state.scenario.topic_ids.insert(name, id.to_string());
        }
    }
    if let Some((a, b, id)) = state.scenario.topic_id_clash() {
        return Err(val.err(format!(
            "topic ids: topics \"{}\" and \"{}\" both have the id {id}: a topic id names one topic",
            shorten(&a),
            shorten(&b)
        )));
    }
    Ok(())
}

/// Each member's colour slot, when not in list order.
fn read_colours(state: &mut LinkState, val: &Part<'_>, v: &str) -> Result<(), LinkError> {
    let n = state.scenario.members.len();
    let mut slots = Vec::new();
    if !v.is_empty() {
        for (k, part) in v.split('.').enumerate() {
            if k >= n {
                return Err(val.err(format!("colours: more than the link's {n} members")));
            }
            let ok =
                !part.is_empty() && part.len() <= 6 && part.bytes().all(|c| c.is_ascii_digit());
            let slot: u32 = ok.then(|| part.parse().ok()).flatten().ok_or_else(|| {
                val.err(format!(
                    "colours: \"{}\" is not a colour number",
                    shorten(part)
                ))
            })?;
            if slots.contains(&slot) {
                return Err(val.err(format!("colours: colour {slot} is given twice")));
            }
            slots.push(slot);
        }
    }
    if slots.len() != n {
        return Err(val.err(format!("colours: {} given for {n} members", slots.len())));
    }
    // In list order is what no `xc` means: the same state either way.
    if slots.iter().enumerate().any(|(i, s)| *s as usize != i) {
        state.colours = Some(slots);
    }
    Ok(())
}

/// At most 24 characters of a piece of the link, for a message.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

/// Reads member `i` (after `prev`, with the subscriptions field it was read from): the
/// member, its subscription version, and its own subscriptions field.
fn read_member<'a>(
    item: &Part<'a>,
    i: usize,
    topics: &[Topic],
    topic_index: &Names,
    prev: Option<(&Member, &str)>,
) -> Result<(Member, Option<i16>, &'a str), LinkError> {
    let prev_id = prev.map_or("", |(m, _)| m.id.as_str());
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
    // Members usually list the same topics as the one before (a link writes them the same):
    // they share its list, read once (at 10,000 members on 50 topics, half a million names
    // not allocated).
    let subscriptions = f[3].text;
    match prev {
        Some((p, raw)) if raw == subscriptions && p.subscription.is_none() => {
            m.topics = p.topics.clone()
        }
        _ => m.topics = read_subscriptions(&f[3], i, topics, topic_index)?.into(),
    }
    let has_fields = !m.topics.is_empty();
    let Options {
        version,
        given,
        bytes_at,
        owned_given,
    } = read_options(&mut m, &f[4..], i)?;
    if let Some(b) = bytes_at {
        // With bytes, the topics, generation and owned partitions come from them alone: a
        // link that also spells them out is ambiguous.
        if has_fields || given[0] || owned_given {
            return Err(b.err(format!(
                "member {}: has subscription bytes (b) and also topics, a generation or owned partitions; with bytes, those come from the bytes",
                i + 1
            )));
        }
    }
    Ok((m, version, subscriptions))
}

/// A member's subscriptions field: a base64url bitmask over the link's topics, then
/// `!name` for each subscribed topic not in the list (one in the list counts as its bit).
fn read_subscriptions(
    field: &Part<'_>,
    i: usize,
    topics: &[Topic],
    topic_index: &Names,
) -> Result<Vec<String>, LinkError> {
    let subs = field.split('!');
    let mask = &subs[0];
    let mut bits = vec![false; topics.len()];
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
                if ti >= topics.len() {
                    return Err(LinkError {
                        position: mask.at + k,
                        message: format!(
                            "member {}: subscribes to topic #{} but the link lists {} \
                             topics",
                            i + 1,
                            ti + 1,
                            topics.len()
                        ),
                    });
                }
                bits[ti] = true;
            }
        }
    }
    // Topics named after the mask: one in the topic list counts as its bit (so the
    // member's topics come back the same however the link spelled them); a repeated
    // one once.
    let mut others: Vec<String> = Vec::new();
    for extra in &subs[1..] {
        let t = extra.unescape("subscribed topic")?;
        if t.is_empty() {
            return Err(extra.err(format!(
                "member {}: a subscribed topic name cannot be empty",
                i + 1
            )));
        }
        match topic_index.get(&t) {
            Some(k) => bits[*k as usize] = true,
            None if !others.contains(&t) => others.push(t),
            None => {}
        }
    }
    Ok(topics
        .iter()
        .zip(&bits)
        .filter(|(_, b)| **b)
        .map(|(t, _)| t.name.clone())
        .chain(others)
        .collect())
}

/// What a member's options said beyond the member itself: the version its bytes view
/// shows, which of `g`, `v`, `b`, `s` were given, where its bytes were, and whether owned
/// partitions were.
#[derive(Default)]
struct Options<'a> {
    version: Option<i16>,
    given: [bool; 4],
    bytes_at: Option<Part<'a>>,
    owned_given: bool,
}

/// Member `i`'s options (`*g…`, `*v…`, `*o…`, `*s…`, `*b…`), each read into `m`: one match
/// over the format's option letters.
fn read_options<'a>(m: &mut Member, opts: &[Part<'a>], i: usize) -> Result<Options<'a>, LinkError> {
    let mut o = Options::default();
    for opt in opts {
        let rest = opt.skip(1);
        let once = |given: &mut [bool; 4], k: usize| {
            if std::mem::replace(&mut given[k], true) {
                Err(opt.err(format!(
                    "member {}: field \"{}\" is given twice",
                    i + 1,
                    opt.text.get(..1).unwrap_or("")
                )))
            } else {
                Ok(())
            }
        };
        match opt.text.as_bytes().first() {
            Some(b'g') => {
                once(&mut o.given, 0)?;
                m.generation = Some(rest.number("generation", "in the int32 range")?)
            }
            Some(b'v') => {
                once(&mut o.given, 1)?;
                let v: i16 = rest.number("subscription version", "from 0 to 3")?;
                if !(0..=3).contains(&v) {
                    return Err(rest.err(format!("subscription version {v} is not 0 to 3")));
                }
                o.version = Some(v);
            }
            Some(b'o') => {
                let (t, ps) =
                    rest.name_and_rest('!', "owned topic", "owned partitions: expected topic!p:p")?;
                if m.owned.contains_key(&t) {
                    return Err(opt.err(format!(
                        "member {}: owned partitions of topic \"{t}\" are listed twice",
                        i + 1
                    )));
                }
                let mut list = Vec::new();
                if !ps.text.is_empty() {
                    for p in ps.split(':') {
                        if list.len() >= MAX_PARTITIONS as usize {
                            return Err(p.err("owned partitions: too many"));
                        }
                        list.push(p.number::<i32>("owned partition", "in the int32 range")?);
                    }
                }
                m.owned.insert(t, list);
                o.owned_given = true;
            }
            Some(b's') => {
                once(&mut o.given, 3)?;
                m.protocols.clear();
                if !rest.text.is_empty() {
                    for p in rest.split(':') {
                        let name = p.unescape("protocol")?;
                        if name.is_empty() {
                            return Err(p.err(format!(
                                "member {}: a protocol name cannot be empty",
                                i + 1
                            )));
                        }
                        m.protocols.push(name);
                    }
                }
            }
            Some(b'b') => {
                once(&mut o.given, 2)?;
                o.bytes_at = Some(*opt);
                let bytes = rest.b64("subscription bytes")?;
                let d = crate::protocol::decode_subscription(&bytes);
                // Bytes that do not decode are kept as they are: the member shows the error.
                if d.error.is_none() {
                    m.apply_subscription(&d.message);
                } else {
                    m.topics = Default::default();
                }
                m.subscription = Some(bytes);
            }
            _ => {
                return Err(opt.err(format!(
                    "member {}: unknown field \"{}\"",
                    i + 1,
                    shorten(opt.text)
                )))
            }
        }
    }
    Ok(o)
}
