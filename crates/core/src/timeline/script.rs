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
//! initially orders-3 with max.poll.interval.ms=60000   # its first process, as the group forms
//! ```
//!
//! `start`, `restart` and `join` take `with` and the client settings the process starts
//! with, which it keeps through later restarts; `initially`, with no time, gives members of
//! the group the settings their first process starts with: `session.timeout.ms`,
//! `heartbeat.interval.ms`, `max.poll.interval.ms`, `max.poll.records`,
//! `auto.commit.interval.ms` (with auto-commit), `commit` (`auto`, `after-batch` or
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
    /// The commit policy (`commit`; auto-commit keeps the member's interval).
    pub commit: Option<CommitPolicy>,
    /// `auto.commit.interval.ms` (with auto-commit).
    pub auto_commit_interval_ms: Option<i64>,
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
        if let Some(policy) = self.commit {
            c.commit = match (policy, c.commit) {
                (CommitPolicy::Auto { .. }, now @ CommitPolicy::Auto { .. }) => now,
                (policy, _) => policy,
            };
        }
        if let (Some(ms), CommitPolicy::Auto { interval_ms }) =
            (self.auto_commit_interval_ms, &mut c.commit)
        {
            *interval_ms = ms;
        }
        set(
            &mut c.processing_ms_per_record,
            self.processing_ms_per_record,
        );
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

/// `v` read as a number in `range`.
fn within<T: std::str::FromStr + PartialOrd>(
    v: &str,
    range: std::ops::RangeInclusive<T>,
) -> Option<T> {
    v.parse().ok().filter(|n| range.contains(n))
}

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
            within(v, 1..=86_400_000)
                .ok_or_else(|| bad("give a whole number of milliseconds from 1 to 86,400,000"))
        };
        match k {
            "session.timeout.ms" => out.session_timeout_ms = Some(ms()?),
            "heartbeat.interval.ms" => out.heartbeat_interval_ms = Some(ms()?),
            "max.poll.interval.ms" => out.max_poll_interval_ms = Some(ms()?),
            "auto.commit.interval.ms" => out.auto_commit_interval_ms = Some(ms()?),
            "max.poll.records" => {
                out.max_poll_records = Some(
                    within(v, 1..=1_000_000)
                        .ok_or_else(|| bad("give a number from 1 to 1,000,000"))?,
                )
            }
            "commit" => {
                out.commit = Some(
                    CommitPolicy::parse(v)
                        .ok_or_else(|| bad("give auto, after-batch or before-processing"))?,
                )
            }
            "processing" => {
                out.processing_ms_per_record = Some(
                    within(v, 0.0..=60_000.0)
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
                for (i, n) in list.iter().enumerate() {
                    if n.is_empty() {
                        return Err(bad(
                            "an assignor name is empty: write the list with commas and no spaces, such as cooperative-sticky,range",
                        ));
                    }
                    if crate::assignor::AssignorKind::of_protocol(n).is_none() {
                        return Err(bad(&format!(
                            "\"{}\" is not an assignor the timeline runs ({})",
                            super::spec::short(n),
                            strategy::names()
                        )));
                    }
                    if list[..i].contains(n) {
                        return Err(bad(&format!("{n} is listed twice")));
                    }
                }
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
    /// The settings of a member's first process (no time: as the group forms).
    Initially,
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
    /// From the story's start (ms); `initially`'s is -1, before anything else.
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

/// The statements of `text`, each with its offset: split at newlines and at `;` outside
/// double quotes, comments (`#` outside double quotes, to the end of the line) and blank
/// statements left out.
fn statements(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut push = |from: usize, to: usize| {
        let part = &text[from..to];
        let trimmed = part.trim_start();
        let lead = part.len() - trimmed.len();
        let trimmed = trimmed.trim_end();
        if !trimmed.is_empty() {
            out.push(Word {
                text: trimmed,
                at: from + lead,
            });
        }
    };
    let (mut from, mut quoted, mut comment) = (0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            '\n' => {
                if !comment {
                    push(from, i);
                }
                (from, quoted, comment) = (i + 1, false, false);
            }
            _ if comment => {}
            '"' => quoted = !quoted,
            ';' if !quoted => {
                push(from, i);
                from = i + 1;
            }
            '#' if !quoted => {
                push(from, i);
                comment = true;
            }
            _ => {}
        }
    }
    if !comment {
        push(from, text.len());
    }
    out
}

/// The words of a statement: runs of characters other than spaces (any Unicode space),
/// commas and quotes; a double-quoted name kept whole; each comma a word of its own.
fn words(s: Word<'_>) -> Result<Vec<Word<'_>>, ScriptError> {
    let mut out = Vec::new();
    let text = s.text;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        let end = if c == ',' {
            i + 1
        } else if c == '"' {
            let Some(len) = text[i + 1..].find('"') else {
                return Err(ScriptError {
                    span: (s.at + i, s.at + text.len()),
                    message: "a quoted name has no closing \"".into(),
                });
            };
            i + len + 2
        } else {
            text[i..]
                .find(|c: char| c.is_whitespace() || c == ',' || c == '"')
                .map_or(text.len(), |len| i + len)
        };
        out.push(Word {
            text: &text[i..end],
            at: s.at + i,
        });
        // (every word takes at least its first character: the walk always moves on)
        while chars.peek().is_some_and(|(j, _)| *j < end) {
            chars.next();
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
    let digits = number.bytes().any(|b| b.is_ascii_digit())
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && number.bytes().filter(|b| *b == b'.').count() <= 1;
    let ms = number
        .parse::<f64>()
        .ok()
        .filter(|_| digits)
        .map(|n| (n * scale).round())
        .ok_or_else(|| {
            w.error(format!(
                "\"{}\" is not {what}: give seconds, such as 20s, 1.5s, 500ms or 2m",
                super::spec::short(t)
            ))
        })?;
    // (a number too long for a double reads as infinite: out of range too)
    if !(0.0..=MAX_STORY_MS as f64).contains(&ms) {
        return Err(w.error(format!(
            "{}: {what} goes from 0 to an hour (60m)",
            super::spec::short(t)
        )));
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
    let with = words
        .iter()
        .position(|w| w.text == "with")
        .map(|i| words[i]);
    if let Some(w) = with {
        words.retain(|x| x.at < w.at);
    }
    let mut read = statement_words(s, &words)?;
    if let Some(w) = with {
        let clause = Word {
            text: s.text[w.at - s.at..].trim_end(),
            at: w.at,
        };
        if !matches!(
            read.verb,
            Verb::Start | Verb::Restart | Verb::Join | Verb::Initially
        ) {
            return Err(clause.error(format!(
                "{} takes no settings: start, restart, join and initially do (a process starts with them)",
                verb_name(read.verb)
            )));
        }
        let from = w.at + w.text.len() - s.at;
        read.config = Some((read_config(&s.text[from..], s.at + from)?, clause));
    } else if read.verb == Verb::Initially {
        return Err(s.error(
            "initially takes the settings the members' first process starts with, such as \"initially m1 with session.timeout.ms=10000\"".into(),
        ));
    }
    Ok(read)
}

fn statement_words<'a>(s: Word<'a>, words: &[Word<'a>]) -> Result<Statement<'a>, ScriptError> {
    if let [first, rest @ ..] = words {
        if first.text == "initially" {
            return Ok(Statement {
                time: -1,
                verb: Verb::Initially,
                members: member_list(s, first.text, rest)?,
                amount: 0,
                whole: s,
                config: None,
            });
        }
    }
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
    Ok(Statement {
        time,
        verb: v,
        members: member_list(s, verb.text, names)?,
        amount,
        whole: s,
        config: None,
    })
}

/// Member names separated by commas, after the verb `verb`.
fn member_list<'a>(
    s: Word<'a>,
    verb: &str,
    names: &[Word<'a>],
) -> Result<Vec<Word<'a>>, ScriptError> {
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
        return Err(s.error(format!("{verb} names no member after it")));
    }
    if want_name {
        return Err(s.error("a comma with no member after it".into()));
    }
    Ok(members)
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
    /// The group's members whose first process starts with settings of its own (`initially`),
    /// and which of `configs` they are.
    pub initial: Vec<(usize, u32)>,
}

/// Each member's settings as the script goes: the run's client settings and its list.
struct Member {
    settings: ClientSettings,
    list: Vec<String>,
}

/// The script's view of the group as it goes: each member's settings and whether it is up
/// (when down for a restart, when it is back and the statement that said so).
struct Roster<'a, 'w> {
    names: Vec<String>,
    members: Vec<Member>,
    up: Vec<bool>,
    back_at: Vec<Option<(i64, Word<'w>)>>,
    /// Until when each member is cut off from the cluster, and in a slow batch (script
    /// times).
    cut_until: Vec<i64>,
    slow_until: Vec<i64>,
    scenario: &'a [String],
}

impl<'w> Roster<'_, 'w> {
    /// Member `m` starts: some assignor must be listed by it and by every member in the
    /// group then, or Kafka's coordinator refuses its JoinGroup
    /// (INCONSISTENT_GROUP_PROTOCOL). (A member that crashed, or closed without leaving, is
    /// counted out at once here; the coordinator keeps it until its session times out, and
    /// refuses a joiner meanwhile as Kafka's does.)
    fn comes_up(&mut self, m: usize, at: &Word<'w>) -> Result<(), ScriptError> {
        self.up[m] = true;
        if self.members[m].list.is_empty() {
            return Ok(());
        }
        // the members in the group, then `m`, which the message names as refused
        let lists = (0..self.members.len())
            .filter(|&o| o != m && self.up[o] && !self.members[o].list.is_empty())
            .chain([m])
            .map(|o| (self.names[o].as_str(), &self.members[o].list[..]));
        strategy::check(lists).map_err(|e| at.error(e))
    }

    /// Member `m`'s process ends: the next one starts connected, and in no batch.
    fn goes_down(&mut self, m: usize) {
        self.up[m] = false;
        self.cut_until[m] = i64::MIN;
        self.slow_until[m] = i64::MIN;
    }

    /// Members a restart brought back by `t`.
    fn back_by(&mut self, t: i64) -> Result<(), ScriptError> {
        for m in 0..self.back_at.len() {
            if let Some((at, word)) = self.back_at[m] {
                if at <= t {
                    self.back_at[m] = None;
                    self.comes_up(m, &word)?;
                }
            }
        }
        Ok(())
    }

    /// The name of the `i`-th member a script adds (from 0).
    fn added_name(&self, i: usize) -> String {
        super::added_name(self.scenario, i)
    }
}

/// Reads `text` for a group whose members are `names`, each starting with `base` and its
/// `partition.assignment.strategy` in `lists` (none under the consumer protocol; a member
/// `join` adds starts with `base` and lists what the last of `names` does): what each
/// statement does, checked in time order.
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
    crate::collections::sort_by(&mut read, |a, b| a.time.cmp(&b.time));
    let member = |m: usize| Member {
        settings: *base,
        list: lists.get(m).or(lists.last()).cloned().unwrap_or_default(),
    };
    let mut g = Roster {
        names: names.to_vec(),
        members: (0..names.len()).map(member).collect(),
        up: vec![true; names.len()],
        back_at: vec![None; names.len()],
        cut_until: vec![i64::MIN; names.len()],
        slow_until: vec![i64::MIN; names.len()],
        scenario: names,
    };
    let mut out = Acts::default();
    let t0 = STORY_START_MS;
    let mut formed = false;
    for s in &read {
        if s.time >= 0 && !formed {
            // (`initially` comes first: the group forms with each member's first list)
            forms(&g, &read)?;
            formed = true;
        }
        g.back_by(s.time)?;
        // the act that starts a process: with its settings when the statement has some
        let start = match &s.config {
            Some((config, _)) => {
                out.configs.push(config.clone());
                Act::StartWith(out.configs.len() as u32 - 1)
            }
            None => Act::Start,
        };
        if s.verb == Verb::Join {
            let from = g.names.len() - names.len();
            if from + s.amount as usize > MAX_JOINED {
                return Err(s
                    .whole
                    .error(format!("the script adds more than {MAX_JOINED} members")));
            }
            for i in 0..s.amount as usize {
                let m = g.names.len();
                g.names.push(g.added_name(from + i));
                g.members.push(member(usize::MAX));
                g.up.push(false);
                g.back_at.push(None);
                g.cut_until.push(i64::MIN);
                g.slow_until.push(i64::MIN);
                configure(&mut g, m, s)?;
                g.comes_up(m, &s.whole)?;
                out.timed.push((t0 + s.time, m, start));
            }
            continue;
        }
        let mut seen = Vec::new();
        for w in &s.members {
            let n = name(w);
            if let (Verb::Initially, Act::StartWith(config)) = (s.verb, start) {
                initially(&mut g, &mut out, w, s, config)?;
                continue;
            }
            let Some(m) = g.names.iter().position(|x| x == n) else {
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
            if let Some((back, _)) = g.back_at[m] {
                return Err(w.error(format!(
                    "{n} is restarting until {}: name it once it is back",
                    secs(back)
                )));
            }
            if s.time < g.cut_until[m] && s.verb != Verb::Crash {
                return Err(w.error(format!(
                    "{n} is cut off from the cluster until {}: only crash acts on it meanwhile (its requests, a LeaveGroup too, would not arrive)",
                    secs(g.cut_until[m])
                )));
            }
            if s.verb == Verb::Slow && s.time < g.slow_until[m] {
                return Err(w.error(format!(
                    "{n} is in a slow batch until {}: give the next one after",
                    secs(g.slow_until[m])
                )));
            }
            let wants_up = s.verb != Verb::Start;
            if g.up[m] != wants_up {
                let state = if g.up[m] { "up" } else { "down" };
                return Err(w.error(format!(
                    "{n} is {state} at {}: {} acts on a member that is {}",
                    secs(s.time),
                    verb_name(s.verb),
                    if wants_up { "up" } else { "down" }
                )));
            }
            configure(&mut g, m, s)?;
            let t = t0 + s.time;
            match s.verb {
                Verb::Close => {
                    g.goes_down(m);
                    out.timed.push((t, m, Act::Close));
                }
                Verb::Crash => {
                    g.goes_down(m);
                    out.timed.push((t, m, Act::Crash));
                }
                Verb::Start => {
                    g.comes_up(m, w)?;
                    out.timed.push((t, m, start));
                }
                Verb::Restart => {
                    g.goes_down(m);
                    g.back_at[m] = Some((s.time + s.amount, *w));
                    out.timed.push((t, m, Act::Close));
                    out.timed.push((t + s.amount, m, start));
                }
                Verb::Slow => {
                    g.slow_until[m] = s.time + s.amount;
                    out.timed.push((t, m, Act::SlowBatch(s.amount)));
                }
                Verb::Cut => {
                    g.cut_until[m] = s.time + s.amount;
                    out.timed.push((t, m, Act::Cut(s.amount)));
                }
                Verb::Join | Verb::Initially => {}
            }
        }
    }
    if !formed {
        forms(&g, &read)?;
    }
    // (a restart's last start is checked too)
    g.back_by(i64::MAX)?;
    crate::collections::sort_by(&mut out.timed, |a, b| a.0.cmp(&b.0));
    out.added = g.names.len() - names.len();
    Ok(out)
}

/// An `initially` statement's member `w`: its first process starts with the statement's
/// settings (the `config`-th); its list is checked once the group has every first list
/// ([`forms`]).
fn initially<'w>(
    g: &mut Roster<'_, 'w>,
    out: &mut Acts,
    w: &Word<'w>,
    s: &Statement<'_>,
    config: u32,
) -> Result<(), ScriptError> {
    let n = name(w);
    let Some(m) = g.scenario.iter().position(|x| x == n) else {
        let known = if g.scenario.len() <= 8 {
            format!(" (the group has {})", g.scenario.join(", "))
        } else {
            String::new()
        };
        return Err(w.error(format!(
            "no member \"{}\" in the group{known}: initially gives the group's members their first settings (a member join adds takes join's with)",
            super::spec::short(n)
        )));
    };
    if out.initial.iter().any(|(x, _)| *x == m) {
        return Err(w.error(format!(
            "{n} is given its first settings twice: name it in one initially"
        )));
    }
    configure(g, m, s)?;
    out.initial.push((m, config));
    Ok(())
}

/// The group forms with every member's first list (after `initially`): some assignor must
/// be listed by every member, or Kafka's coordinator refuses a JoinGroup. Said at the last
/// `initially` that gives a list.
fn forms(g: &Roster<'_, '_>, read: &[Statement<'_>]) -> Result<(), ScriptError> {
    let Some((_, clause)) = read
        .iter()
        .filter(|s| s.verb == Verb::Initially)
        .filter_map(|s| s.config.as_ref())
        .rfind(|(c, _)| c.strategy.is_some())
    else {
        return Ok(());
    };
    let lists = (0..g.members.len())
        .filter(|&m| !g.members[m].list.is_empty())
        .map(|m| (g.names[m].as_str(), &g.members[m].list[..]));
    strategy::check(lists).map_err(|e| clause.error(e))
}

/// Member `m`'s settings with statement `s`'s `with` over them, checked as the Java
/// consumer takes them (its list is checked when it starts).
fn configure(g: &mut Roster<'_, '_>, m: usize, s: &Statement<'_>) -> Result<(), ScriptError> {
    let Some((config, clause)) = &s.config else {
        return Ok(());
    };
    let mut settings = g.members[m].settings;
    config.apply(&mut settings);
    check_client(&settings).map_err(|e| clause.error(format!("{}: {e}", g.names[m])))?;
    g.members[m].settings = settings;
    if let Some(list) = &config.strategy {
        if !g.members[m].list.is_empty() {
            g.members[m].list = list.clone();
        }
    }
    Ok(())
}

fn verb_name(v: Verb) -> &'static str {
    if v == Verb::Initially {
        return "initially";
    }
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
    // (a name holding a double quote cannot be written: the example leaves it out)
    let names: Vec<&String> = names.iter().filter(|n| !n.contains('"')).collect();
    let quote = |n: &str| {
        let keyword = matches!(n, "for" | "with");
        if n.is_empty()
            || keyword
            || n.contains(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '#'))
        {
            format!("\"{n}\"")
        } else {
            n.to_string()
        }
    };
    let mut lines =
        vec!["# time, what happens, to whom (times from the story's start)".to_string()];
    if let Some(first) = names.first() {
        lines.push(format!(
            "# initially {} with max.poll.interval.ms=600000   # its own settings from the start",
            quote(first)
        ));
        lines.push(format!("0s restart {} for 20s", quote(first)));
    }
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
        assert!(e.message.contains("a is restarting until 20 s"), "{e:?}");
        let e = err("0 restart a for 20s; 10s start a");
        assert!(e.message.contains("a is restarting until 20 s"), "{e:?}");
        assert!(
            read("0 restart a for 20s; 20s close a", &g).is_ok(),
            "back at 20 s"
        );
        // a member cut off: only crash acts on it until the network is back
        for text in [
            "0 cut a for 60s; 10s cut a for 10s",
            "0 cut a for 60s; 10s close a",
            "0 cut a for 60s; 10s restart a for 5s",
            "0 cut a for 60s; 10s slow a for 5s",
        ] {
            let e = err(text);
            assert!(
                e.message
                    .contains("a is cut off from the cluster until 60 s"),
                "{text}: {e:?}"
            );
            // at the member the last statement names
            let last = text.rfind("; ").unwrap();
            let at = last + text[last..].find(" a").unwrap() + 1;
            assert_eq!(e.span, (at, at + 1), "{text}");
        }
        for text in [
            // (a process started again is connected, and in no batch)
            "0 cut a for 60s; 10s crash a; 20s start a",
            "0 slow a for 400s; 10s restart a for 5s; 30s slow a for 10s",
            "0 slow a for 400s; 10s crash a; 20s start a; 30s slow a for 10s",
            "0 cut a for 60s; 60s cut a for 5s",
            "0 cut a for 60s; 10s crash b",
        ] {
            assert!(read(text, &g).is_ok(), "{text}");
        }
        // one slow batch at a time
        let e = err("0 slow a for 400s; 10s slow a for 10s");
        assert!(
            e.message.contains("a is in a slow batch until 400 s"),
            "{e:?}"
        );
        assert!(read(
            "0 slow a for 40s; 40s slow a for 10s; 45s slow b for 1s",
            &g
        )
        .is_ok());
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

    #[test]
    fn initially_gives_members_their_first_settings() {
        let g = names(&["a", "b", "c"]);
        let text = "30s crash a\ninitially a, c with session.timeout.ms=10000\ninitially b with commit=after-batch";
        let read = read(text, &g).unwrap();
        // the first process of a and c with the first with, of b with the second
        assert_eq!(read.initial, vec![(0, 0), (2, 0), (1, 1)]);
        assert_eq!(read.configs[0].session_timeout_ms, Some(10_000));
        assert_eq!(read.configs[1].commit, Some(CommitPolicy::AfterBatch));
        assert_eq!(read.timed, vec![(STORY_START_MS + 30_000, 0, Act::Crash)]);
        // kept through a later restart, and checked against what that restart says
        let e = read_err(
            "initially a with session.timeout.ms=10000\n0 restart a for 1s with heartbeat.interval.ms=12000\n",
            &g,
        );
        assert!(
            e.message.contains("a: heartbeat.interval.ms (12000)"),
            "{e:?}"
        );
        let err = |text: &str| read_err(text, &g);
        let e = err("initially a");
        assert!(e.message.contains("initially takes the settings"), "{e:?}");
        let e = err("initially z with commit=auto");
        assert_eq!(e.span, (10, 11));
        assert!(e.message.contains("no member \"z\" in the group"), "{e:?}");
        assert!(err("0 join 1\ninitially new-1 with commit=auto")
            .message
            .contains("join's with"));
        assert!(err("initially a, a with commit=auto")
            .message
            .contains("twice"));
        assert!(
            err("initially a with commit=auto\ninitially a with processing=1")
                .message
                .contains("name it in one initially")
        );
        assert!(err("initially with commit=auto")
            .message
            .contains("names no member"));
        assert!(err("initially a with session.timeout.ms=1000")
            .message
            .contains("a: heartbeat.interval.ms (3000)"));
        // lists the group as it forms would refuse
        let e = err("initially a with partition.assignment.strategy=roundrobin");
        assert!(e.message.contains("INCONSISTENT_GROUP_PROTOCOL"), "{e:?}");
        assert!(read_ok(
            "initially a, b, c with partition.assignment.strategy=roundrobin",
            &g
        ));
        // not a time, and not something done at a time
        assert!(err("0 initially a with commit=auto")
            .message
            .contains("not something a member does"));
    }

    #[test]
    fn any_unicode_space_separates_words_and_quotes_keep_separators() {
        let g = names(&["a", "b#1;x"]);
        // no-break space, a vertical tab, an ideographic space, CRLF line ends
        let text = "0s\u{a0}crash\u{b}a\r\n5s\u{3000}start a\r\n6s crash \"b#1;x\" # a comment; with \"quotes\"";
        let read = read(text, &g).unwrap();
        assert_eq!(read.timed.len(), 3, "{read:?}");
        // the example quotes such names, and reads
        assert!(read_ok(&example(&g), &g));
    }

    fn read_ok(text: &str, g: &[String]) -> bool {
        read(text, g).is_ok()
    }

    #[test]
    fn members_are_checked_as_the_run_starts_them() {
        let g = names(&["a", "b"]);
        // a member join adds starts with the run's settings, not the last one's
        let e = read_err(
            "0s restart a for 1s with heartbeat.interval.ms=500\n10s join 1 with session.timeout.ms=1000",
            &g,
        );
        assert!(
            e.message.contains("new-1: heartbeat.interval.ms (3000)"),
            "{e:?}"
        );
        // a list is checked against the members in the group when it starts: none here
        assert!(read_ok(
            "0s close a, b\n5s start a, b with partition.assignment.strategy=roundrobin",
            &g
        ));
        // a member of the scenario named as one a script adds keeps its name
        let clash = names(&["new-1"]);
        let joined = read("0 join 1\n5s crash new-1+", &clash).unwrap();
        assert_eq!(joined.added, 1);
        assert!(joined
            .timed
            .contains(&(STORY_START_MS + 5_000, 1, Act::Crash)));
        // and messages that say what they mean
        let e = read_err(
            "0 restart a for 5s with partition.assignment.strategy=range, roundrobin",
            &g,
        );
        assert!(e.message.contains("empty"), "{e:?}");
        let e = read_err("0s crash a with", &g);
        assert!(e.message.contains("takes no settings"), "{e:?}");
        let long = format!("{}s crash a", "9".repeat(400));
        assert!(read_err(&long, &g).message.contains("an hour"));
        // auto-commit keeps the interval it had
        let kept = read(
            "0 restart a for 1s with auto.commit.interval.ms=1000\n5s restart a for 1s with commit=auto",
            &g,
        )
        .unwrap();
        let mut c = ClientSettings::default();
        for config in &kept.configs {
            config.apply(&mut c);
        }
        assert_eq!(c.commit, CommitPolicy::Auto { interval_ms: 1_000 });
    }

    proptest::proptest! {
        /// Any text, words of the language mixed with anything: read or refused with a place
        /// inside the text, never a panic.
        #[test]
        fn any_text_is_read_or_refused_with_its_place(
            text in "(0|5s|1.5m|99999999999s|restart|crash|start|join 2|slow|cut|for|with|session.timeout.ms=1000|partition.assignment.strategy=range,|a|\"b c\"|,|;|#|\n|\u{a0}| |[^\n]){0,24}"
        ) {
            let g = names(&["a", "b c"]);
            if let Err(e) = read(&text, &g) {
                proptest::prop_assert!(e.span.0 <= e.span.1 && e.span.1 <= text.len(), "{e:?}");
                proptest::prop_assert!(text.is_char_boundary(e.span.0));
                let _ = e.located(&text);
            }
        }
    }

    fn read_err(text: &str, g: &[String]) -> ScriptError {
        read(text, g).unwrap_err()
    }

    #[test]
    fn the_example_reads() {
        let g = names(&["orders 1", "b"]);
        let text = example(&g);
        let read = read(&text, &g).unwrap();
        assert_eq!(read.added, 1);
        assert_eq!(read.timed.len(), 5);
        // its commented initially reads once the comment mark goes
        let with_settings = text.replacen("# initially", "initially", 1);
        assert_eq!(
            super::acts(&with_settings, &g, &ClientSettings::default(), &[])
                .unwrap()
                .initial,
            vec![(0, 0)]
        );
    }
}
