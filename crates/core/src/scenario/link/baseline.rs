//! The pinned baseline's text inside a link (`xb=`): `id,id,...|topic:o.o.o|topic:...`, owners
//! as indices into the id list (`-` for none), names percent-encoded. A topic whose owners are
//! those of the topic before it, partition for partition, is written `topic:=`: every topic
//! of a group whose topics are alike gets the same owners from range (and from round-robin when
//! the members divide the partitions), and at 10,000 members x 500,000 partitions the owners
//! were 2.5 of the link's 3 MB, beyond the 2 MB a browser keeps of an address.

use super::text::{escape, unescape};
use crate::scenario::whatif::Baseline;
use crate::scenario::{MAX_PARTITIONS, MAX_TOTAL_PARTITIONS};

/// Writes a baseline's text form.
pub fn write_baseline(b: &Baseline) -> String {
    let mut s = String::new();
    for (i, m) in b.members.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        escape(m, &mut s);
    }
    let mut before: Option<&Vec<Option<u32>>> = None;
    for (t, owners) in &b.topics {
        s.push('|');
        escape(t, &mut s);
        s.push(':');
        if before.replace(owners) == Some(owners) && !owners.is_empty() {
            s.push('=');
            continue;
        }
        for (k, o) in owners.iter().enumerate() {
            if k > 0 {
                s.push('.');
            }
            match o {
                Some(o) => s.push_str(&o.to_string()),
                None => s.push('-'),
            }
        }
    }
    s
}

/// Reads [`write_baseline`]'s text; every problem says what and where.
pub fn read_baseline(text: &str) -> Result<Baseline, String> {
    let mut parts = text.split('|');
    let members_text = parts.next().unwrap_or_default();
    let name = |s: &str, what: &str| -> Result<String, String> {
        let n = unescape(s).map_err(|e| format!("baseline {what}: {e}"))?;
        if n.is_empty() {
            return Err(format!("baseline {what}: a name cannot be empty"));
        }
        Ok(n)
    };
    let members: Vec<String> = if members_text.is_empty() {
        Vec::new()
    } else {
        members_text
            .split(',')
            .map(|m| name(m, "member"))
            .collect::<Result<_, _>>()?
    };
    let mut topics: Vec<(String, Vec<Option<u32>>)> = Vec::new();
    let mut total = 0u64;
    for (k, part) in parts.enumerate() {
        let (topic, owners) = part
            .rsplit_once(':')
            .ok_or(format!("baseline topic {}: expected name:owners", k + 1))?;
        let topic = name(topic, "topic")?;
        if topics.iter().any(|(t, _)| *t == topic) {
            return Err(format!("baseline topic \"{topic}\" is listed twice"));
        }
        let mut list = Vec::new();
        if owners == "=" {
            // (bounded: every partition of the baseline counts against the scenario's limit)
            match topics.last() {
                Some((_, l)) if total + l.len() as u64 <= MAX_TOTAL_PARTITIONS => list = l.clone(),
                Some(_) => {
                    return Err(format!(
                        "baseline topic \"{topic}\" has too many partitions"
                    ))
                }
                None => {
                    return Err(format!(
                        "baseline topic \"{topic}\": \"=\" needs a topic before it"
                    ))
                }
            }
        } else if !owners.is_empty() {
            for o in owners.split('.') {
                if list.len() >= MAX_PARTITIONS as usize {
                    return Err(format!(
                        "baseline topic \"{topic}\" has too many partitions"
                    ));
                }
                if o == "-" {
                    list.push(None);
                    continue;
                }
                let valid = !o.is_empty() && o.len() <= 10 && o.bytes().all(|c| c.is_ascii_digit());
                let i: u32 = valid.then(|| o.parse().ok()).flatten().ok_or_else(|| {
                    let shown: String = o.chars().take(24).collect();
                    format!("baseline topic \"{topic}\": owner \"{shown}\" is not a member number")
                })?;
                if i as usize >= members.len() {
                    return Err(format!(
                        "baseline topic \"{topic}\": owner {i} but the baseline lists {} members",
                        members.len()
                    ));
                }
                list.push(Some(i));
            }
        }
        total += list.len() as u64;
        topics.push((topic, list));
    }
    Ok(Baseline { members, topics })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::whatif::story;

    #[test]
    fn round_trip_and_errors() {
        let b = Baseline::of(&story()[1].scenario);
        assert_eq!(read_baseline(&write_baseline(&b)).unwrap(), b);
        assert!(read_baseline("a,b|t:0.5").unwrap_err().contains("owner 5"));
        assert!(read_baseline("a|t").is_err());
        assert!(read_baseline("a|t:0|t:0").unwrap_err().contains("twice"));
        assert!(read_baseline(",|t:0").unwrap_err().contains("empty"));
        assert!(read_baseline("a|t:+0")
            .unwrap_err()
            .contains("not a member number"));
    }

    /// A topic with the owners of the one before it is `=`; it reads back as that list.
    #[test]
    fn alike_topics_are_written_once() {
        let alike = vec![Some(0), Some(1), None, Some(1)];
        let b = Baseline {
            members: vec!["a".into(), "b".into()],
            topics: vec![
                ("t0".into(), alike.clone()),
                ("t1".into(), alike.clone()),
                ("t2".into(), vec![Some(1)]),
                ("t3".into(), vec![Some(1)]),
                ("t4".into(), alike.clone()),
                ("t5".into(), alike),
            ],
        };
        let text = write_baseline(&b);
        assert_eq!(text, "a,b|t0:0.1.-.1|t1:=|t2:1|t3:=|t4:0.1.-.1|t5:=");
        assert_eq!(read_baseline(&text).unwrap(), b);
        assert!(read_baseline("a|t:=")
            .unwrap_err()
            .contains("needs a topic before it"));
        assert!(read_baseline("a|t:0|u:=x").is_err());
        // (a short text cannot make a baseline larger than a scenario may be)
        let mut big = String::from("a|t:0");
        big.push_str(&".0".repeat(MAX_PARTITIONS as usize - 1));
        for k in 0..9 {
            big.push_str(&format!("|u{k}:="));
        }
        assert_eq!(read_baseline(&big).unwrap().topics.len(), 10);
        big.push_str("|v:=");
        assert!(read_baseline(&big)
            .unwrap_err()
            .contains("too many partitions"));
    }
}
