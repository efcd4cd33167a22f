//! The pinned baseline's text inside a link (`xb=`): `id,id,...|topic:o.o.o|topic:...`, owners
//! as indices into the id list (`-` for none), names percent-encoded.

use super::text::{escape, unescape};
use crate::scenario::whatif::Baseline;
use crate::scenario::MAX_PARTITIONS;

/// Writes a baseline's text form.
pub fn write_baseline(b: &Baseline) -> String {
    let mut s = String::new();
    for (i, m) in b.members.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        escape(m, &mut s);
    }
    for (t, owners) in &b.topics {
        s.push('|');
        escape(t, &mut s);
        s.push(':');
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
    for (k, part) in parts.enumerate() {
        let (topic, owners) = part
            .rsplit_once(':')
            .ok_or(format!("baseline topic {}: expected name:owners", k + 1))?;
        let topic = name(topic, "topic")?;
        if topics.iter().any(|(t, _)| *t == topic) {
            return Err(format!("baseline topic \"{topic}\" is listed twice"));
        }
        let mut list = Vec::new();
        if !owners.is_empty() {
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
}
