//! The group's joins and leaves inside a link (`xj=`), so that who leads survives a reload:
//! the coordinator's members `HashMap` never shrinks and keeps its removals' traces, so the
//! leader after a leave depends on the whole history, not only on who is left.
//!
//! Entries split by `,`, each `+` (joins) or `-` (leaves) then the member: `N` (the link's
//! member `N`, from 0), `N.M` (members `N` to `M` in turn) or `~name` (a member no longer
//! listed, percent-encoded).

use super::text::{escape, unescape};
use crate::collections::Names;
use crate::group::GroupEvent;
use crate::scenario::Member;

/// Writes the log's text form; `members` are the link's members.
pub fn write_group_log(members: &[Member], log: &[GroupEvent]) -> String {
    let index: Names = members
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.clone(), i as u32))
        .collect();
    // (join?, first index, last index) of the run being written
    let mut run: Option<(bool, u32, u32)> = None;
    let mut out = String::new();
    let flush = |out: &mut String, run: (bool, u32, u32)| {
        if !out.is_empty() {
            out.push(',');
        }
        out.push(if run.0 { '+' } else { '-' });
        out.push_str(&run.1.to_string());
        if run.2 > run.1 {
            out.push('.');
            out.push_str(&run.2.to_string());
        }
    };
    for e in log {
        let (join, id) = match e {
            GroupEvent::Join(id) => (true, id),
            GroupEvent::Leave(id) => (false, id),
        };
        match index.get(id.as_str()) {
            Some(&i) => {
                run = match run {
                    Some(r) if r.0 == join && r.2.checked_add(1) == Some(i) => Some((join, r.1, i)),
                    Some(r) => {
                        flush(&mut out, r);
                        Some((join, i, i))
                    }
                    None => Some((join, i, i)),
                };
            }
            None => {
                if let Some(r) = run.take() {
                    flush(&mut out, r);
                }
                if !out.is_empty() {
                    out.push(',');
                }
                out.push(if join { '+' } else { '-' });
                out.push('~');
                escape(id, &mut out);
            }
        }
    }
    if let Some(r) = run {
        flush(&mut out, r);
    }
    out
}

/// Reads [`write_group_log`]'s text for the link's `members`; every problem says what and
/// which entry.
pub fn read_group_log(text: &str, members: &[Member]) -> Result<Vec<GroupEvent>, String> {
    let mut log = Vec::new();
    if text.is_empty() {
        return Ok(log);
    }
    let n = members.len();
    for (k, entry) in text.split(',').enumerate() {
        let at = || format!("joins and leaves, entry {}", k + 1);
        let (join, rest) = match entry.as_bytes().first() {
            Some(b'+') => (true, &entry[1..]),
            Some(b'-') => (false, &entry[1..]),
            _ => return Err(format!("{}: expected + (joins) or - (leaves)", at())),
        };
        let event = |id: String| {
            if join {
                GroupEvent::Join(id)
            } else {
                GroupEvent::Leave(id)
            }
        };
        if let Some(name) = rest.strip_prefix('~') {
            let id = unescape(name).map_err(|e| format!("{}: {e}", at()))?;
            if id.is_empty() {
                return Err(format!("{}: a member id cannot be empty", at()));
            }
            log.push(event(id));
            continue;
        }
        let index = |t: &str| -> Result<usize, String> {
            let ok = !t.is_empty() && t.len() <= 7 && t.bytes().all(|c| c.is_ascii_digit());
            match ok.then(|| t.parse::<usize>().ok()).flatten() {
                Some(i) if i < n => Ok(i),
                _ => Err(format!(
                    "{}: \"{}\" is not a member of the link (0 to {})",
                    at(),
                    super::reader::shorten(t),
                    n as i64 - 1
                )),
            }
        };
        let (a, b) = match rest.split_once('.') {
            Some((a, b)) => (index(a)?, index(b)?),
            None => {
                let i = index(rest)?;
                (i, i)
            }
        };
        if b < a {
            return Err(format!("{}: members {a} to {b} run backwards", at()));
        }
        for m in &members[a..=b] {
            log.push(event(m.id.clone()));
        }
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(ids: &[&str]) -> Vec<Member> {
        ids.iter().map(|id| Member::new(id, &[])).collect()
    }

    #[test]
    fn runs_of_listed_members_and_names_of_gone_ones() {
        let m = members(&["a", "b", "c"]);
        let j = |s: &str| GroupEvent::Join(s.into());
        let l = |s: &str| GroupEvent::Leave(s.into());
        let log = vec![
            j("lead,er"),
            j("a"),
            j("b"),
            j("c"),
            l("lead,er"),
            l("b"),
            j("b"),
        ];
        let text = write_group_log(&m, &log);
        assert_eq!(text, "+~lead%2Cer,+0.2,-~lead%2Cer,-1,+1");
        assert_eq!(read_group_log(&text, &m).unwrap(), log);
        assert_eq!(read_group_log("", &m).unwrap(), Vec::new());
    }

    #[test]
    fn bad_entries_say_which() {
        let m = members(&["a", "b"]);
        for (text, says) in [
            ("+0,x", "entry 2: expected + (joins) or - (leaves)"),
            ("+2", "entry 1: \"2\" is not a member of the link (0 to 1)"),
            ("+1.0", "entry 1: members 1 to 0 run backwards"),
            ("+~", "entry 1: a member id cannot be empty"),
            ("-99999999999", "is not a member"),
            ("+", "is not a member"),
            ("+~%zz", "entry 1"),
        ] {
            let e = read_group_log(text, &m).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
