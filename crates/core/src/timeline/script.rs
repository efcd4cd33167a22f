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
//! 4m   restart orders-2 for 20s with session.timeout.ms=10000 partition.assignment.strategy=cooperative-sticky
//! ```
//!
//! `start`, `restart` and `join` take `with` and the client settings the process starts
//! with, which it keeps through later restarts: `session.timeout.ms`,
//! `heartbeat.interval.ms`, `max.poll.interval.ms`, `max.poll.records`,
//! `auto.commit.interval.ms` (auto-commit), `commit` (`auto`, `after-batch` or
//! `before-processing`), `processing` (milliseconds per record),
//! `internal.leave.group.on.close` (`true` or `false`) and `partition.assignment.strategy`
//! (assignors separated by commas).
//!
//! Members are named as the group names them (a name with spaces or commas in double
//! quotes), several at once separated by commas. A statement acts on members that are up
//! (`start` on members that are down); the script is checked in time order, statements at
//! one time in the order written.

use super::story::{Act, Timed, MAX_STORY_MS, STORY_START_MS};
use super::{check_client, strategy, ClientSettings, CommitPolicy};

/// The most statements a script takes.
pub const MAX_STATEMENTS: usize = 10_000;
/// The most members `join` adds over a script.
pub const MAX_JOINED: usize = 1_000;

/// Client settings a process starts with (`with`), over the member's until then.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// (Kafka's name, value) as written, for the run's events.
    pub written: Vec<(String, String)>,
    /// `session.timeout.ms`.
    pub session_timeout_ms: Option<i64>,
    /// `heartbeat.interval.ms`.
    pub heartbeat_interval_ms: Option<i64>,
    /// `max.poll.interval.ms`.
    pub max_poll_interval_ms: Option<i64>,
    /// `max.poll.records`.
    pub max_poll_records: Option<u32>,
    /// The commit policy (`commit`, or `auto.commit.interval.ms`).
    pub commit: Option<CommitPolicy>,
    /// Milliseconds per record (`processing`).
    pub processing_ms_per_record: Option<f64>,
    /// `internal.leave.group.on.close`.
    pub leave_on_close: Option<bool>,
    /// `partition.assignment.strategy`.
    pub strategy: Option<Vec<String>>,
}

impl Config {
    /// `c` with these settings over it.
    pub fn apply(&self, c: &mut ClientSettings) {
        fn set<T: Copy>(to: &mut T, value: Option<T>) {
            if let Some(v) = value {
                *to = v;
            }
        }
        set(&mut c.session_timeout_ms, self.session_timeout_ms);
        set(&mut c.heartbeat_interval_ms, self.heartbeat_interval_ms);
        set(&mut c.max_poll_interval_ms, self.max_poll_interval_ms);
        set(&mut c.max_poll_records, self.max_poll_records);
        set(&mut c.commit, self.commit);
        set(&mut c.processing_ms_per_record, self.processing_ms_per_record);
        set(&mut c.leave_on_close, self.leave_on_close);
    }

    /// How a person would read it: `session.timeout.ms=10000, ...`.
    pub fn describe(&self) -> String {
        self.written
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The keys `with` takes.
const KEYS: [&str; 9] = [
    "session.timeout.ms",
    "heartbeat.interval.ms",
    "max.poll.interval.ms",
    "max.poll.records",
    "auto.commit.interval.ms",
    "commit",
    "processing",
    "internal.leave.group.on.close",
    "partition.assignment.strategy",
];

/// Reads `with`'s `key=value` pairs (separated by spaces) in `text`, which starts at `at`.
fn read_config(text: &str, at: usize) -> Result<Config, ScriptError> {
    let mut out = Config::default();
    let mut pos = 0;
    for pair in text.split_whitespace() {
        let start = pos + text[pos..].find(pair).unwrap_or(0);
        pos = start + pair.len();
        let w = Word {
            text: pair,
            at: at + start,
        };
        let Some((k, v)) = pair.split_once('=') else {
            return Err(w.error(format!(
                "\"{}\": give a setting as key=value, such as session.timeout.ms=10000",
                super::spec::short(pair)
            )));
        };
        let bad = |what: &str| w.error(format!("{k}={}: {what}", super::spec::short(v)));
        let ms = || {
            v.parse::<i64>()
                .ok()
                .filter(|n| (1..=86_400_000).contains(n))
                .ok_or_else(|| bad("give a whole number of milliseconds from 1 to 86,400,000"))
        };
        match k {
            "session.timeout.ms" => out.session_timeout_ms = Some(ms()?),
            "heartbeat.interval.ms" => out.heartbeat_interval_ms = Some(ms()?),
            "max.poll.interval.ms" => out.max_poll_interval_ms = Some(ms()?),
            "auto.commit.interval.ms" => {
                out.commit = Some(CommitPolicy::Auto { interval_ms: ms()? })
            }
            "max.poll.records" => {
                out.max_poll_records = Some(
                    v.parse::<u32>()
                        .ok()
                        .filter(|n| (1..=1_000_000).contains(n))
                        .ok_or_else(|| bad("give a number from 1 to 1,000,000"))?,
                )
            }
            "commit" => {
                out.commit = Some(match v {
                    "auto" => CommitPolicy::Auto { interval_ms: 5_000 },
                    "after-batch" => CommitPolicy::AfterBatch,
                    "before-processing" => CommitPolicy::BeforeProcessing,
                    _ => return Err(bad("give auto, after-batch or before-processing")),
                })
            }
            "processing" => {
                out.processing_ms_per_record = Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|n| (0.0..=60_000.0).contains(n))
                        .ok_or_else(|| bad("give milliseconds per record from 0 to 60,000"))?,
                )
            }
            "internal.leave.group.on.close" => {
                out.leave_on_close = Some(match v {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("give true or false")),
                })
            }
            "partition.assignment.strategy" => {
                let list: Vec<String> = v.split(',').map(str::to_string).collect();
                strategy::check([("this member", &list[..])]).map_err(|e| w.error(e))?;
                out.strategy = Some(list);
            }
            _ => {
                return Err(w.error(format!(
                    "\"{}\" is not a setting a script takes ({})",
                    super::spec::short(k),
                    KEYS.join(", ")
                )))
            }
        }
        out.written.push((k.to_string(), v.to_string()));
    }
    if out.written.is_empty() {
        return Err(ScriptError {
            span: (at, at + text.len()),
            message: "with names no setting: give key=value, such as session.timeout.ms=10000"
                .into(),
        });
    }
    Ok(out)
}

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
    /// `with`: the settings the process starts with, and where they are written.
    config: Option<(Config, Word<'a>)>,
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
    let mut words = words(s)?;
    // `with` and the settings after it (values may hold commas: read as written)
    let mut config = None;
    if let Some(i) = words.iter().position(|w| w.text == "with") {
        let from = words[i].at + 4 - s.at;
        let rest = &s.text[from..];
        let clause = Word {
            text: s.text[words[i].at - s.at..].trim_end(),
            at: words[i].at,
        };
        config = Some((read_config(rest, s.at + from)?, clause));
        words.truncate(i);
    }
    let mut read = statement_words(s, &words)?;
    if let Some((_, clause)) = &config {
        if !matches!(read.verb, Verb::Start | Verb::Restart | Verb::Join) {
            return Err(clause.error(format!(
                "{} takes no settings: start, restart and join do (a process starts with them)",
                verb_name(read.verb)
            )));
        }
    }
    read.config = config;
    Ok(read)
}

fn statement_words<'a>(s: Word<'a>, words: &[Word<'a>]) -> Result<Statement<'a>, ScriptError> {
    let [time, verb, rest @ ..] = words else {
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
            config: None,
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
        config: None,
    })
}

/// A script read: its acts, how many members it adds, and the settings its processes
/// start with ([`Act::StartWith`] indexes them).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Acts {
    /// What each member does when (times from the run's start).
    pub timed: Vec<Timed>,
    /// Members `join` adds (named `new-1`, `new-2`, ...).
    pub added: usize,
    /// The settings of each `with`.
    pub configs: Vec<Config>,
}

/// Each member's settings as the script goes: the run's client settings and its list.
struct Member {
    settings: ClientSettings,
    list: Vec<String>,
}

/// Reads `text` for a group whose members are `names`, each starting with `base` and its
/// `partition.assignment.strategy` in `lists` (a member `join` adds lists what the last
/// one does): what each statement does, checked in time order.
pub fn acts(
    text: &str,
    names: &[String],
    base: &ClientSettings,
    lists: &[Vec<String>],
) -> Result<Acts, ScriptError> {
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
    let mut state: Vec<Member> = (0..names.len())
        .map(|m| Member {
            settings: *base,
            list: lists.get(m).or(lists.last()).cloned().unwrap_or_default(),
        })
        .collect();
    // each member's state: up, and (when down) until when a restart keeps it down
    let mut up = vec![true; members.len()];
    let mut back_at: Vec<Option<i64>> = vec![None; members.len()];
    let mut out = Acts::default();
    let t0 = STORY_START_MS;
    for s in &read {
        // a restart's start comes back before this statement if it is due
        for (m, at) in back_at.iter_mut().enumerate() {
            if at.is_some_and(|t| t <= s.time) {
                up[m] = true;
                *at = None;
            }
        }
        // the act that starts a process: with its settings when the statement has some
        let start = match &s.config {
            Some((config, _)) => {
                out.configs.push(config.clone());
                Act::StartWith(out.configs.len() as u32 - 1)
            }
            None => Act::Start,
        };
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
                let last = state.last().map(|x| (x.settings, x.list.clone()));
                let (settings, list) = last.unwrap_or((*base, Vec::new()));
                state.push(Member { settings, list });
                up.push(true);
                back_at.push(None);
                configure(&mut state, m, s, &members)?;
                out.timed.push((t0 + s.time, m, start));
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
            configure(&mut state, m, s, &members)?;
            let t = t0 + s.time;
            match s.verb {
                Verb::Close => {
                    up[m] = false;
                    out.timed.push((t, m, Act::Close));
                }
                Verb::Crash => {
                    up[m] = false;
                    out.timed.push((t, m, Act::Crash));
                }
                Verb::Start => {
                    up[m] = true;
                    out.timed.push((t, m, start));
                }
                Verb::Restart => {
                    up[m] = false;
                    back_at[m] = Some(s.time + s.amount);
                    out.timed.push((t, m, Act::Close));
                    out.timed.push((t + s.amount, m, start));
                }
                Verb::Slow => out.timed.push((t, m, Act::SlowBatch(s.amount))),
                Verb::Cut => out.timed.push((t, m, Act::Cut(s.amount))),
                Verb::Join => {}
            }
        }
    }
    out.timed.sort_by_key(|a| a.0);
    out.added = members.len() - names.len();
    Ok(out)
}

/// Member `m`'s settings with statement `s`'s `with` over them, checked: its client
/// settings as the Java consumer takes them, and its list sharing an assignor with every
/// other member's (or Kafka refuses its JoinGroup).
fn configure(
    state: &mut [Member],
    m: usize,
    s: &Statement<'_>,
    members: &[String],
) -> Result<(), ScriptError> {
    let Some((config, clause)) = &s.config else {
        return Ok(());
    };
    let mut settings = state[m].settings;
    config.apply(&mut settings);
    check_client(&settings).map_err(|e| clause.error(format!("{}: {e}", members[m])))?;
    state[m].settings = settings;
    if let Some(list) = &config.strategy {
        state[m].list = list.clone();
        let lists: Vec<(&str, &[String])> = members
            .iter()
            .zip(state.iter())
            .filter(|(_, x)| !x.list.is_empty())
            .map(|(n, x)| (n.as_str(), &x.list[..]))
            .collect();
        strategy::check(lists).map_err(|e| clause.error(e))?;
    }
    Ok(())
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

    /// The script read for `g` with the default settings, each member listing the Java
    /// default.
    fn read(text: &str, g: &[String]) -> Result<Acts, ScriptError> {
        let lists = vec![crate::scenario::java_protocols(); g.len()];
        acts(text, g, &ClientSettings::default(), &lists)
    }

    #[test]
    fn each_statement_becomes_its_acts_in_time_order() {
        let g = names(&["a", "b", "my c"]);
        let text = "# a deploy\n60s crash b; 0 restart a for 20s\n1.5m start b\n2m cut \"my c\" for 500ms\n2m slow a for 1s\n3m join 2\n3m close new-1, new-2";
        let Acts {
            timed: acts, added, ..
        } = read(text, &g).unwrap();
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
        let err = |text: &str| read(text, &g).unwrap_err();
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
            read("0 restart a for 20s; 20s close a", &g).is_ok(),
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
    fn with_starts_a_process_with_its_settings_checked() {
        let g = names(&["a", "b"]);
        let text = "0 restart a for 5s with session.timeout.ms=10000 partition.assignment.strategy=cooperative-sticky,range\n10s join 1 with commit=after-batch";
        let read = read(text, &g).unwrap();
        assert_eq!(read.configs.len(), 2);
        assert_eq!(read.configs[0].session_timeout_ms, Some(10_000));
        assert_eq!(
            read.configs[0].strategy.as_deref(),
            Some(&["cooperative-sticky".to_string(), "range".to_string()][..])
        );
        assert_eq!(read.configs[1].commit, Some(CommitPolicy::AfterBatch));
        assert_eq!(
            read.configs[0].describe(),
            "session.timeout.ms=10000, partition.assignment.strategy=cooperative-sticky,range"
        );
        let t = |s: i64| STORY_START_MS + s;
        assert!(read.timed.contains(&(t(5_000), 0, Act::StartWith(0))));
        assert!(read.timed.contains(&(t(10_000), 2, Act::StartWith(1))));
        let g2 = g.clone();
        let err = |text: &str| read_err(text, &g2);
        // a heartbeat past the session, said at the with
        let e = err("0 restart a for 5s with session.timeout.ms=2000");
        assert_eq!(e.span.0, 19);
        assert!(
            e.message
                .contains("a: heartbeat.interval.ms (3000) must be lower"),
            "{e:?}"
        );
        assert!(err("0 restart a for 5s with colour=blue")
            .message
            .contains("not a setting"));
        assert!(err("0 restart a for 5s with max.poll.records=0")
            .message
            .contains("1 to 1,000,000"));
        assert!(err("0 restart a for 5s with")
            .message
            .contains("names no setting"));
        assert!(err("0 crash a with commit=auto")
            .message
            .contains("takes no settings"));
        // a list with nothing in common with the others': Kafka refuses the JoinGroup
        let e = err("0 restart a for 5s with partition.assignment.strategy=roundrobin");
        assert!(e.message.contains("INCONSISTENT_GROUP_PROTOCOL"), "{e:?}");
        let e = err("0 restart a for 5s with partition.assignment.strategy=mine");
        assert!(e.message.contains("\"mine\""), "{e:?}");
    }

    fn read_err(text: &str, g: &[String]) -> ScriptError {
        read(text, g).unwrap_err()
    }

    #[test]
    fn the_example_reads() {
        let g = names(&["orders 1", "b"]);
        let read = read(&example(&g), &g).unwrap();
        assert_eq!(read.added, 1);
        assert_eq!(read.timed.len(), 5);
    }
}
