//! The group's joins and leaves inside a link (`xj=`), so that who leads survives a reload:
//! the coordinator's members `HashMap` never shrinks and keeps its removals' traces, so the
//! leader after a leave depends on the whole history, not only on who is left.
//!
//! Entries split by `,`, each `+` (joins) or `-` (leaves) then the member: `N` (the link's
//! member `N`, from 0) or `~name` (a member no longer listed, percent-encoded).

use super::text::{escape, Part};
use super::LinkError;
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
    let mut out = String::new();
    for e in log {
        let (sign, id) = match e {
            GroupEvent::Join(id) => ('+', id),
            GroupEvent::Leave(id) => ('-', id),
        };
        if !out.is_empty() {
            out.push(',');
        }
        out.push(sign);
        match index.get(id.as_str()) {
            Some(i) => out.push_str(&i.to_string()),
            None => {
                out.push('~');
                escape(id, &mut out);
            }
        }
    }
    out
}

/// Reads [`write_group_log`]'s text (as the link carries it, not escaped again) for the
/// link's `members`; a problem says what and where.
pub(super) fn read_group_log(
    val: Part<'_>,
    members: &[Member],
) -> Result<Vec<GroupEvent>, LinkError> {
    let mut log = Vec::new();
    if val.text.is_empty() {
        return Ok(log);
    }
    for entry in val.split(',') {
        let rest = entry.text.get(1..).unwrap_or("");
        let id = match rest.strip_prefix('~') {
            Some(_) => entry.skip(2).unescape("joins and leaves")?,
            // digits only (Rust's parser would take "+5")
            None if rest.bytes().all(|c| c.is_ascii_digit()) => rest
                .parse::<u32>()
                .ok()
                .and_then(|i| members.get(i as usize))
                .map(|m| m.id.clone())
                .unwrap_or_default(),
            None => String::new(),
        };
        log.push(match entry.text.as_bytes().first() {
            Some(b'+') if !id.is_empty() => GroupEvent::Join(id),
            Some(b'-') if !id.is_empty() => GroupEvent::Leave(id),
            _ => {
                return Err(entry.err(format!(
                    "joins and leaves: expected +N or -N (N the link's member, 0 to {}) or +~id or -~id",
                    members.len() as i64 - 1
                )))
            }
        });
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(ids: &[&str]) -> Vec<Member> {
        ids.iter().map(|id| Member::new(id, &[])).collect()
    }

    fn read(text: &str, m: &[Member]) -> Result<Vec<GroupEvent>, LinkError> {
        read_group_log(Part { text, at: 10 }, m)
    }

    #[test]
    fn listed_members_by_number_and_gone_ones_by_name() {
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
        assert_eq!(text, "+~lead%2Cer,+0,+1,+2,-~lead%2Cer,-1,+1");
        assert_eq!(read(&text, &m).unwrap(), log);
        assert_eq!(read("", &m).unwrap(), Vec::new());
    }

    #[test]
    fn bad_entries_say_what_and_where() {
        let m = members(&["a", "b"]);
        for (text, at) in [
            ("+0,x", 13),
            ("+2", 10),
            ("+0,-1,*1", 16),
            ("+~", 10),
            ("-99999999999999999999", 10),
            ("+", 10),
            ("++1", 10),
            ("+0,", 13),
        ] {
            let e = read(text, &m).unwrap_err();
            assert!(
                e.message.starts_with(
                    "joins and leaves: expected +N or -N (N the link's member, 0 to 1)"
                ),
                "{text}: {e}"
            );
            assert_eq!(e.position, at, "{text}: {e}");
        }
        let e = read("+~%zz", &m).unwrap_err();
        assert!(
            e.message.contains("'%' must be followed by two hex digits"),
            "{e}"
        );
        assert_eq!(e.position, 12);
    }
}
