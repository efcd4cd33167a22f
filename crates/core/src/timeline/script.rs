//! A story written by hand: what each member does when, one statement a line (or between
//! `;`), read into the acts a run takes, every error with the place it is at.
//!
//! ```text
//! # times from the story's start: 20s, 1.5s, 500ms, 2m (a bare number is seconds)
//! 0s   restart orders-1 for 20s   # close, then start again 20 s later
//! 30s  crash orders-2             # no commit, no LeaveGroup
//! 45s  start orders-2
//! 60s  cut orders-3 for 50s       # cannot reach the cluster
//! 90s  slow orders-1 for 400s     # one batch takes this long
//! 2m   join 2                     # new members new-1 and new-2 start
//! 3m   close new-1, new-2
//! ```
//!
//! Members are named as the group names them (a name with spaces or commas in double
//! quotes), several at once separated by commas. A statement acts on members that are up
//! (`start` on members that are down); the script is checked in time order, statements at
//! one time in the order written.

use super::story::{Act, Timed, MAX_STORY_MS, STORY_START_MS};

/// The most statements a script takes.
pub const MAX_STATEMENTS: usize = 10_000;
/// The most members `join` adds over a script.
pub const MAX_JOINED: usize = 1_000;

/// What is wrong with a script, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// Byte offsets of what is wrong.
    pub span: (usize, usize),
    /// What is wrong.
    pub message: String,
}

impl ScriptError {
    /// The message with its line and column (from 1), as a person finds it.
    pub fn located(&self, text: &str) -> String {
        let before = &text[..self.span.0.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("script, line {line}, column {column}: {}", self.message)
    }
}

/// What a statement does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Close,
    Crash,
    Start,
    Restart,
    Slow,
    Cut,
    Join,
}

const VERBS: [(&str, Verb); 7] = [
    ("close", Verb::Close),
    ("crash", Verb::Crash),
    ("start", Verb::Start),
    ("restart", Verb::Restart),
    ("slow", Verb::Slow),
    ("cut", Verb::Cut),
    ("join", Verb::Join),
];

/// A word of a statement with where it is.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    at: usize,
}

impl Word<'_> {
    fn span(&self) -> (usize, usize) {
        (self.at, self.at + self.text.len())
    }

    fn error(&self, message: String) -> ScriptError {
        ScriptError {
            span: self.span(),
            message,
        }
    }
}

/// One statement read, before the members' states are checked.
struct Statement<'a> {
    time: i64,
    verb: Verb,
    /// The members (for `join`, none).
    members: Vec<Word<'a>>,
    /// `for` a duration (`restart`, `slow`, `cut`), or how many (`join`).
    amount: i64,
    /// The whole statement, for messages.
    whole: Word<'a>,
}

/// The statements of `text`, each with its offset: split at newlines and `;`, comments
/// (`#` to the end of the line) and blank statements left out.
fn statements(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        let mut start = at;
        for part in code.split(';') {
            let trimmed = part.trim_start();
            let lead = part.len() - trimmed.len();
            let trimmed = trimmed.trim_end();
            if !trimmed.is_empty() {
                out.push(Word {
                    text: trimmed,
                    at: start + lead,
                });
            }
            start += part.len() + 1;
        }
        at += line.len();
    }
    out
}

/// The words of a statement: runs of non-space, a double-quoted name kept whole, and each
/// comma a word of its own.
fn words(s: Word<'_>) -> Result<Vec<Word<'_>>, ScriptError> {
    let mut out = Vec::new();
    let bytes = s.text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b',' {
            out.push(Word {
                text: &s.text[i..i + 1],
                at: s.at + i,
            });
            i += 1;
        } else if b == b'"' {
            let Some(len) = s.text[i + 1..].find('"') else {
                return Err(ScriptError {
                    span: (s.at + i, s.at + s.text.len()),
                    message: "a quoted name has no closing \"".into(),
                });
            };
            out.push(Word {
                text: &s.text[i..i + len + 2],
                at: s.at + i,
            });
            i += len + 2;
        } else {
            let len = s.text[i..]
                .find(|c: char| c.is_whitespace() || c == ',' || c == '"')
                .unwrap_or(s.text.len() - i);
            out.push(Word {
                text: &s.text[i..i + len],
                at: s.at + i,
            });
            i += len;
        }
    }
    Ok(out)
}

/// A time or a duration: a number of seconds with `ms`, `s` or `m` after it (seconds
/// without), from 0 to an hour; in milliseconds.
fn duration(w: Word<'_>, what: &str) -> Result<i64, ScriptError> {
    let t = w.text;
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1_000.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (t, 1_000.0)
    };
    let ms = number
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .map(|n| (n * scale).round())
        .ok_or_else(|| {
            w.error(format!(
                "\"{}\" is not {what}: give seconds, such as 20s, 1.5s, 500ms or 2m",
                super::spec::short(t)
            ))
        })?;
    if !(0.0..=MAX_STORY_MS as f64).contains(&ms) {
        return Err(w.error(format!("{t}: {what} goes from 0 to an hour (60m)")));
    }
    Ok(ms as i64)
}

/// A member's name as written: quotes taken off.
fn name<'a>(w: &Word<'a>) -> &'a str {
    w.text
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(w.text)
}

fn statement(s: Word<'_>) -> Result<Statement<'_>, ScriptError> {
    let words = words(s)?;
    let [time, verb, rest @ ..] = &words[..] else {
        return Err(s.error(format!(
            "\"{}\": a statement is a time, what happens and to whom, such as \"30s crash m1\"",
            super::spec::short(s.text)
        )));
    };
    let time = duration(*time, "a time")?;
    let v = VERBS
        .iter()
        .find(|(n, _)| *n == verb.text)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            verb.error(format!(
                "\"{}\" is not something a member does ({})",
                super::spec::short(verb.text),
                VERBS.map(|(n, _)| n).join(", ")
            ))
        })?;
    if v == Verb::Join {
        let [n] = rest else {
            return Err(s.error("join takes how many members join, such as \"join 2\"".into()));
        };
        let count = n
            .text
            .parse::<i64>()
            .ok()
            .filter(|c| (1..=MAX_JOINED as i64).contains(c))
            .ok_or_else(|| {
                n.error(format!(
                    "\"{}\": join takes 1 to {MAX_JOINED} members",
                    super::spec::short(n.text)
                ))
            })?;
        return Ok(Statement {
            time,
            verb: v,
            members: Vec::new(),
            amount: count,
            whole: s,
        });
    }
    let takes_duration = matches!(v, Verb::Restart | Verb::Slow | Verb::Cut);
    let (names, amount) = match rest.iter().position(|w| w.text == "for") {
        Some(i) if takes_duration => {
            let [d] = &rest[i + 1..] else {
                return Err(s.error(format!(
                    "{}: give one duration after \"for\", such as \"for 20s\"",
                    verb.text
                )));
            };
            (&rest[..i], duration(*d, "a duration")?)
        }
        None if takes_duration => {
            return Err(s.error(format!(
                "{} takes how long, such as \"{} m1 for 20s\"",
                verb.text, verb.text
            )))
        }
        Some(i) => {
            return Err(rest[i].error(format!("{} takes no duration", verb.text)));
        }
        None => (rest, 0),
    };
    // names separated by commas
    let mut members = Vec::new();
    let mut want_name = true;
    for w in names {
        match (want_name, w.text == ",") {
            (true, false) => members.push(*w),
            (false, true) => {}
            (true, true) => return Err(w.error("a comma with no member before it".into())),
            (false, false) => {
                return Err(w.error(format!(
                    "\"{}\": separate members with commas",
                    super::spec::short(w.text)
                )))
            }
        }
        want_name = !want_name;
    }
    if members.is_empty() {
        return Err(s.error(format!("{} names no member after it", verb.text)));
    }
    if want_name {
        return Err(s.error("a comma with no member after it".into()));
    }
    Ok(Statement {
        time,
        verb: v,
        members,
        amount,
        whole: s,
    })
}

/// Reads `text` for a group whose members are `names`: the acts (times from the run's
/// start), and how many members `join` adds (named `new-1`, `new-2`, ...).
pub fn acts(text: &str, names: &[String]) -> Result<(Vec<Timed>, usize), ScriptError> {
    let parts = statements(text);
    if parts.is_empty() {
        return Err(ScriptError {
            span: (0, text.len()),
            message: "the script has no statement: write one a line, such as \"30s crash m1\""
                .into(),
        });
    }
    if parts.len() > MAX_STATEMENTS {
        return Err(parts[MAX_STATEMENTS].error(format!(
            "the script has {} statements: the timeline takes up to {MAX_STATEMENTS}",
            parts.len()
        )));
    }
    let mut read = parts
        .into_iter()
        .map(statement)
        .collect::<Result<Vec<_>, _>>()?;
    // in time order, statements at one time in the order written
    read.sort_by_key(|s| s.time);
    let mut members: Vec<String> = names.to_vec();
    // each member's state: up, and (when down) until when a restart keeps it down
    let mut up = vec![true; members.len()];
    let mut back_at: Vec<Option<i64>> = vec![None; members.len()];
    let mut out: Vec<Timed> = Vec::new();
    let t0 = STORY_START_MS;
    for s in &read {
        // a restart's start comes back before this statement if it is due
        for (m, at) in back_at.iter_mut().enumerate() {
            if at.is_some_and(|t| t <= s.time) {
                up[m] = true;
                *at = None;
            }
        }
        if s.verb == Verb::Join {
            let from = members.len() - names.len();
            if from + s.amount as usize > MAX_JOINED {
                return Err(s
                    .whole
                    .error(format!("the script adds more than {MAX_JOINED} members")));
            }
            for _ in 0..s.amount {
                let m = members.len();
                members.push(format!("new-{}", m - names.len() + 1));
                up.push(true);
                back_at.push(None);
                out.push((t0 + s.time, m, Act::Start));
            }
            continue;
        }
        let mut seen = Vec::new();
        for w in &s.members {
            let n = name(w);
            let Some(m) = members.iter().position(|x| x == n) else {
                let known = if names.len() <= 8 {
                    format!(" (the group has {})", names.join(", "))
                } else {
                    String::new()
                };
                return Err(w.error(format!(
                    "no member \"{}\" at {}{known}",
                    super::spec::short(n),
                    secs(s.time)
                )));
            };
            if seen.contains(&m) {
                return Err(w.error(format!("{n} is named twice")));
            }
            seen.push(m);
            let wants_up = s.verb != Verb::Start;
            if up[m] != wants_up {
                let state = if up[m] { "up" } else { "down" };
                return Err(w.error(format!(
                    "{n} is {state} at {}: {} acts on a member that is {}",
                    secs(s.time),
                    verb_name(s.verb),
                    if wants_up { "up" } else { "down" }
                )));
            }
            let t = t0 + s.time;
            match s.verb {
                Verb::Close => {
                    up[m] = false;
                    out.push((t, m, Act::Close));
                }
                Verb::Crash => {
                    up[m] = false;
                    out.push((t, m, Act::Crash));
                }
                Verb::Start => {
                    up[m] = true;
                    out.push((t, m, Act::Start));
                }
                Verb::Restart => {
                    up[m] = false;
                    back_at[m] = Some(s.time + s.amount);
                    out.push((t, m, Act::Close));
                    out.push((t + s.amount, m, Act::Start));
                }
                Verb::Slow => out.push((t, m, Act::SlowBatch(s.amount))),
                Verb::Cut => out.push((t, m, Act::Cut(s.amount))),
                Verb::Join => {}
            }
        }
    }
    out.sort_by_key(|a| a.0);
    Ok((out, members.len() - names.len()))
}

fn verb_name(v: Verb) -> &'static str {
    VERBS.iter().find(|(_, x)| *x == v).map_or("", |(n, _)| *n)
}

/// Milliseconds from the story's start as a person reads them.
fn secs(ms: i64) -> String {
    if ms % 1_000 == 0 {
        format!("{} s", ms / 1_000)
    } else {
        format!("{} s", ms as f64 / 1_000.0)
    }
}

/// A script that does what `story` does to a group of `names`, for a person to start
/// from when they write their own.
pub fn example(names: &[String]) -> String {
    let quote = |n: &str| {
        if n.is_empty()
            || n.contains(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '#' | '"'))
        {
            format!("\"{}\"", n.replace('"', ""))
        } else {
            n.to_string()
        }
    };
    let mut lines =
        vec!["# time, what happens, to whom (times from the story's start)".to_string()];
    let first = names.first().map_or("m0".to_string(), |n| quote(n));
    lines.push(format!("0s restart {first} for 20s"));
    if let Some(second) = names.get(1) {
        lines.push(format!("30s crash {}", quote(second)));
        lines.push(format!("50s start {}", quote(second)));
    }
    lines.push("90s join 1".into());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn each_statement_becomes_its_acts_in_time_order() {
        let g = names(&["a", "b", "my c"]);
        let text = "# a deploy\n60s crash b; 0 restart a for 20s\n1.5m start b\n2m cut \"my c\" for 500ms\n2m slow a for 1s\n3m join 2\n3m close new-1, new-2";
        let (acts, added) = acts(text, &g).unwrap();
        let t = |s: i64| STORY_START_MS + s;
        assert_eq!(added, 2);
        assert_eq!(
            acts,
            vec![
                (t(0), 0, Act::Close),
                (t(20_000), 0, Act::Start),
                (t(60_000), 1, Act::Crash),
                (t(90_000), 1, Act::Start),
                (t(120_000), 2, Act::Cut(500)),
                (t(120_000), 0, Act::SlowBatch(1_000)),
                (t(180_000), 3, Act::Start),
                (t(180_000), 4, Act::Start),
                (t(180_000), 3, Act::Close),
                (t(180_000), 4, Act::Close),
            ]
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        let g = names(&["a", "b"]);
        let err = |text: &str| acts(text, &g).unwrap_err();
        let e = err("10s crash z");
        assert_eq!(e.span, (10, 11));
        assert!(
            e.message.contains("no member \"z\"") && e.message.contains("a, b"),
            "{e:?}"
        );
        let e = err("0 crash a\n5s crash a");
        assert_eq!(e.span, (19, 20));
        assert!(e.message.contains("a is down at 5 s"), "{e:?}");
        assert_eq!(
            e.located("0 crash a\n5s crash a"),
            format!("script, line 2, column 10: {}", e.message)
        );
        let e = err("0 start a");
        assert!(e.message.contains("a is up"), "{e:?}");
        let e = err("0 restart a for 20s; 10s close a");
        assert!(e.message.contains("a is down at 10 s"), "{e:?}");
        assert!(
            acts("0 restart a for 20s; 20s close a", &g).is_ok(),
            "back at 20 s"
        );
        let e = err("0 dance a");
        assert_eq!(e.span, (2, 7));
        assert!(e.message.contains("close, crash"), "{e:?}");
        assert!(err("0 restart a").message.contains("how long"));
        assert!(err("0 crash a for 2s").message.contains("no duration"));
        assert!(err("soon crash a").message.contains("not a time"));
        assert!(err("2h crash a").message.contains("not a time"));
        assert!(err("61m crash a").message.contains("an hour"));
        assert!(err("-1s crash a").message.contains("not a time"));
        assert!(err("0 crash a b").message.contains("commas"));
        assert!(err("0 crash a,").message.contains("no member after"));
        assert!(err("0 crash a, a").message.contains("twice"));
        assert!(err("0 crash \"a").message.contains("closing"));
        assert!(err("0 join 0").message.contains("1 to 1000"));
        assert!(err("  # nothing\n").message.contains("no statement"));
        assert!(err("0 crash").message.contains("names no member"));
        assert!(err("crash").message.contains("a statement is"));
    }

    #[test]
    fn the_example_reads() {
        let g = names(&["orders 1", "b"]);
        let (acts, added) = acts(&example(&g), &g).unwrap();
        assert_eq!(added, 1);
        assert_eq!(acts.len(), 5);
    }
}
