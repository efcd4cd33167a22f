//! Edits a person makes to a scenario, each checked: a refused edit says why and changes
//! nothing. The app's reducer is a thin layer over these.

use super::member_id::next_consumer_id;
use super::{Member, Scenario, Topic};

/// Partition counts the editor accepts (files and links may hold up to
/// [`super::MAX_PARTITIONS`]).
pub const EDIT_MAX_PARTITIONS: u32 = 10_000;

/// Parses a partition count typed by a person.
pub fn parse_partitions(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let bad = || format!("partitions must be a whole number from 1 to 10,000; \"{t}\" is not");
    if t.is_empty() {
        return Err("partitions must be a whole number from 1 to 10,000".into());
    }
    let n: u64 = t.parse().map_err(|_| bad())?;
    if !(1..=EDIT_MAX_PARTITIONS as u64).contains(&n) {
        return Err(format!(
            "partitions must be from 1 to 10,000; {n} is out of range"
        ));
    }
    Ok(n as u32)
}

fn unused(prefix: &str, taken: impl Fn(&str) -> bool) -> String {
    (0..)
        .map(|i| format!("{prefix}{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| prefix.to_string())
}

/// Adds a topic with a fresh name and 3 partitions; returns its name.
pub fn add_topic(s: &mut Scenario) -> String {
    // (nor, where ids are typed at all, a name whose derived id a topic has been given: a
    // topic id names one topic)
    let name = unused("topic-", |n| {
        s.topics.iter().any(|t| t.name == n) || id_taken(s, n)
    });
    s.topics.push(Topic {
        name: name.clone(),
        partitions: 3,
    });
    name
}

fn id_taken(s: &Scenario, name: &str) -> bool {
    !s.topic_ids.is_empty()
        && s.topic_with_id(&crate::assignor::derived_topic_id(name).to_string(), name)
            .is_some()
}

/// Renames a topic; subscriptions (and owned partitions, racks) follow the new name.
pub fn rename_topic(s: &mut Scenario, index: usize, name: &str) -> Result<(), String> {
    let old = s.topics.get(index).ok_or("no such topic")?.name.clone();
    if name == old {
        return Ok(());
    }
    if name.is_empty() {
        return Err("a topic name cannot be empty".into());
    }
    if s.topics.iter().any(|t| t.name == name) {
        return Err(format!("there is already a topic named \"{name}\""));
    }
    // (the topic keeps a typed id; without one its id is the new name's, which no other
    // topic may have: checked before anything changes)
    // (ids derived from distinct names never meet: only typed ones can be in the way)
    if !s.topic_ids.is_empty() && !s.topic_ids.contains_key(&old) {
        let id = crate::assignor::derived_topic_id(name).to_string();
        if let Some(other) = s.topic_with_id(&id, &old) {
            return Err(format!(
                "topic \"{other}\" has the id {id}, the id the name \"{name}\" gives: a topic id names one topic"
            ));
        }
    }
    s.topics[index].name = name.to_string();
    for m in &mut s.members {
        if m.subscription.is_some() {
            continue; // the bytes say what the member subscribes to
        }
        // (a list that names the topic is written anew: it may be shared)
        if m.topics.contains(&old) {
            m.topics = m
                .topics
                .iter()
                .map(|t| {
                    if *t == old {
                        name.to_string()
                    } else {
                        t.clone()
                    }
                })
                .collect::<Vec<_>>()
                .into();
        }
        if let Some(p) = m.owned.remove(&old) {
            m.owned.insert(name.to_string(), p);
        }
    }
    if let Some(r) = s.partition_racks.remove(&old) {
        s.partition_racks.insert(name.to_string(), r);
    }
    // (the topic keeps its id: only the broker's assignors read ids)
    if let Some(id) = s.topic_ids.remove(&old) {
        s.topic_ids.insert(name.to_string(), id);
    }
    Ok(())
}

/// Sets a topic's id from typed text, taken exactly where Kafka's `Uuid.fromString` takes it
/// ([`crate::java::Uuid::parse`]; spaces around the text in the box are tidied away first) and
/// kept in Kafka's canonical form; a reserved id is refused as the broker refuses it. Empty
/// text gives the topic back its derived id ([`crate::assignor::derived_topic_id`]). Two
/// topics never share an id.
pub fn set_topic_id(s: &mut Scenario, index: usize, text: &str) -> Result<(), String> {
    let name = s.topics.get(index).ok_or("no such topic")?.name.clone();
    let text = text.trim();
    // (empty: the id derived from the name, which no other topic may have either)
    let id = if text.is_empty() {
        crate::assignor::derived_topic_id(&name).to_string()
    } else {
        let id = crate::java::Uuid::parse(text).map_err(|e| e.to_string())?;
        if let Some(why) = id.reserved_for_topics() {
            return Err(why.to_string());
        }
        id.to_string()
    };
    if let Some(other) = s.topic_with_id(&id, &name) {
        return Err(format!(
            "topic \"{other}\" already has the id {id}: a topic id names one topic"
        ));
    }
    if text.is_empty() {
        s.topic_ids.remove(&name);
    } else {
        s.topic_ids.insert(name, id);
    }
    Ok(())
}

/// Sets a topic's partition count from typed text.
pub fn set_partitions(s: &mut Scenario, index: usize, text: &str) -> Result<(), String> {
    let n = parse_partitions(text)?;
    s.topics.get_mut(index).ok_or("no such topic")?.partitions = n;
    Ok(())
}

/// The replica racks of a topic's partitions as a person writes them: partitions split by
/// `;`, racks by `,` (`a,b;b,c;c,a`). Empty text means no racks.
pub fn format_partition_racks(racks: &[Vec<String>]) -> String {
    racks
        .iter()
        .map(|r| r.join(","))
        .collect::<Vec<_>>()
        .join(";")
}

/// Sets the replica racks of a topic's partitions from typed text (see
/// [`format_partition_racks`]); used by rack-aware range (KIP-881).
pub fn set_partition_racks(s: &mut Scenario, index: usize, text: &str) -> Result<(), String> {
    let topic = s.topics.get(index).ok_or("no such topic")?;
    let (name, partitions) = (topic.name.clone(), topic.partitions);
    if text.trim().is_empty() {
        s.partition_racks.remove(&name);
        return Ok(());
    }
    let parts: Vec<Vec<String>> = text
        .split(';')
        .map(|p| {
            p.split(',')
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty())
                .collect()
        })
        .collect();
    if parts.len() > partitions as usize {
        return Err(format!(
            "{} rack lists for {partitions} partitions: one list per partition, split by ';'",
            parts.len()
        ));
    }
    s.partition_racks.insert(name, parts);
    Ok(())
}

/// Removes a topic from the metadata; members keep their subscriptions to it (Kafka skips
/// a subscribed topic that is missing from metadata).
pub fn remove_topic(s: &mut Scenario, index: usize) {
    if index < s.topics.len() {
        let t = s.topics.remove(index);
        s.partition_racks.remove(&t.name);
        s.topic_ids.remove(&t.name);
    }
}

/// Adds a member subscribed as the last member is (to every topic when it is the first),
/// with the id the coordinator would give a real Java consumer joining this group
/// ([`next_consumer_id`]), so it sorts as a real join would; returns its id. `seed` makes
/// the id's UUID.
pub fn add_member(s: &mut Scenario, seed: u64) -> String {
    let mut id = next_consumer_id(s.members.iter().map(|m| m.id.as_str()), seed);
    let mut k = 1;
    while s.members.iter().any(|m| m.id == id) {
        id = next_consumer_id(
            s.members.iter().map(|m| m.id.as_str()),
            seed.wrapping_add(k),
        );
        k += 1;
    }
    let topics: Vec<String> = match s.members.last() {
        Some(m) if m.subscription.is_none() => m.topics.to_vec(),
        _ => s.topics.iter().map(|t| t.name.clone()).collect(),
    };
    let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
    s.members.push(Member::new(&id, &topics));
    id
}

/// The most members "members: N" sets in one step.
pub const MAX_MEMBER_COUNT: usize = 10_000;

/// Sets the group to `text` members in one step: members join (as [`add_member`]) or the
/// last listed ones leave. Returns the ids that joined and left.
pub fn set_member_count(
    s: &mut Scenario,
    text: &str,
    seed: u64,
) -> Result<(Vec<String>, Vec<String>), String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("\"{}\" is not a number of members", text.trim()))?;
    if n > MAX_MEMBER_COUNT {
        return Err(format!(
            "{n} members: this sets at most {MAX_MEMBER_COUNT} in one step"
        ));
    }
    let mut joined = Vec::new();
    let mut left = Vec::new();
    while s.members.len() > n {
        left.push(s.members.pop().map(|m| m.id).unwrap_or_default());
    }
    let mut k = 0u64;
    while s.members.len() < n {
        joined.push(add_member(s, seed.wrapping_add(k * 7919)));
        k += 1;
    }
    Ok((joined, left))
}

/// Changes a member id.
pub fn rename_member(s: &mut Scenario, index: usize, id: &str) -> Result<(), String> {
    let old = &s.members.get(index).ok_or("no such member")?.id;
    if old == id {
        return Ok(());
    }
    if id.is_empty() {
        return Err("a member id cannot be empty".into());
    }
    if s.members.iter().any(|m| m.id == id) {
        return Err(format!("there is already a member with id \"{id}\""));
    }
    s.members[index].id = id.to_string();
    Ok(())
}

/// Sets or clears (empty text) the group.instance.id.
pub fn set_instance_id(s: &mut Scenario, index: usize, text: &str) -> Result<(), String> {
    let m = s.members.get_mut(index).ok_or("no such member")?;
    m.instance_id = (!text.is_empty()).then(|| text.to_string());
    Ok(())
}

/// Sets or clears (empty text) the client.rack.
pub fn set_rack(s: &mut Scenario, index: usize, text: &str) -> Result<(), String> {
    let m = s.members.get_mut(index).ok_or("no such member")?;
    m.rack = (!text.is_empty()).then(|| text.to_string());
    // The rack lives in the bytes too: the form wins and the bytes are regenerated.
    m.subscription = None;
    Ok(())
}

/// Subscribes or unsubscribes a member to a topic.
pub fn set_subscribed(s: &mut Scenario, index: usize, topic: &str, on: bool) -> Result<(), String> {
    let m = s.members.get_mut(index).ok_or("no such member")?;
    let mut topics = m.topics.to_vec();
    topics.retain(|t| t != topic);
    if on {
        topics.push(topic.to_string());
    }
    m.topics = topics.into();
    // The form now says what the member subscribes to; its bytes are regenerated from it.
    m.subscription = None;
    Ok(())
}

/// Removes a member.
pub fn remove_member(s: &mut Scenario, index: usize) {
    if index < s.members.len() {
        s.members.remove(index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_bounds() {
        assert_eq!(parse_partitions("7"), Ok(7));
        assert!(parse_partitions("0").unwrap_err().contains("out of range"));
        assert!(parse_partitions("10001").is_err());
        assert!(parse_partitions("99999999999999999999999").is_err());
        assert!(parse_partitions("-1").is_err());
        assert!(parse_partitions("").is_err());
        assert!(parse_partitions("3.5").is_err());
    }

    #[test]
    fn partition_racks() {
        let mut s = super::super::presets::preset("seven-three").unwrap();
        set_partition_racks(&mut s, 0, "a,b; b ,c;;c").unwrap();
        assert_eq!(
            s.partition_racks["orders"][1],
            vec!["b".to_string(), "c".to_string()]
        );
        assert!(s.partition_racks["orders"][2].is_empty());
        assert_eq!(
            format_partition_racks(&s.partition_racks["orders"]),
            "a,b;b,c;;c"
        );
        assert!(set_partition_racks(&mut s, 0, "a;a;a;a;a;a;a;a")
            .unwrap_err()
            .contains("8 rack lists for 7"));
        set_partition_racks(&mut s, 0, " ").unwrap();
        assert!(s.partition_racks.is_empty());
    }

    #[test]
    fn duplicates_refused() {
        let mut s = super::super::presets::preset("three-topics").unwrap();
        assert!(rename_topic(&mut s, 0, "t1").is_err());
        assert!(rename_member(&mut s, 0, "C1").is_err());
        rename_topic(&mut s, 0, "orders").unwrap();
        assert!(s
            .members
            .iter()
            .all(|m| m.topics.contains(&"orders".to_string())));
        let id = add_member(&mut s, 1);
        assert!(id.starts_with("consumer-my-group-1-"), "{id}");
        // the next one counts on, and subscribes as the last member does
        s.members.last_mut().unwrap().topics = vec!["orders".into()].into();
        let next = add_member(&mut s, 2);
        assert!(next.starts_with("consumer-my-group-2-"), "{next}");
        assert_eq!(s.members.last().unwrap().topics[..], ["orders"]);
        let (joined, left) = set_member_count(&mut s, "6", 3).unwrap();
        assert_eq!((joined.len(), left.len(), s.members.len()), (2, 0, 6));
        let (joined, left) = set_member_count(&mut s, " 1 ", 3).unwrap();
        assert_eq!((joined.len(), left.len(), s.members.len()), (0, 5, 1));
        assert!(set_member_count(&mut s, "10001", 3).is_err());
        assert!(set_member_count(&mut s, "x", 3)
            .unwrap_err()
            .contains("not a number"));
        assert_eq!(add_topic(&mut s), "topic-0");
    }
}
