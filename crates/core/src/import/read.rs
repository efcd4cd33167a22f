//! From lines to an [`Import`]: tables and messages first, then one group out of them.

use super::assignment::{self, CellError};
use super::error::{ErrorKind, ImportError};
use super::table::{parse_header, split_row, Cell, Header, View};
use super::{Import, Warning};
use crate::assignor::AssignorKind;
use crate::scenario::{Member, Topic, MAX_PARTITIONS, MAX_TOTAL_PARTITIONS};
use std::collections::BTreeMap;
use std::collections::HashMap;

#[derive(Default)]
struct MemberAcc {
    id: String,
    instance_id: Option<String>,
    client_id: Option<String>,
    /// #PARTITIONS from the members view, with its line.
    count: Option<(u32, usize)>,
    /// (topic, partition) pairs the offsets view shows for it.
    from_offsets: Vec<(usize, i32)>,
    /// Partition lists without topic names (the 3.8 ASSIGNMENT), with their line.
    unnamed: Vec<(usize, Vec<i32>)>,
}

#[derive(Default)]
struct Builder {
    group: Option<String>,
    topics: Vec<(String, u32)>,
    topic_index: HashMap<String, usize>,
    total: u64,
    members: Vec<MemberAcc>,
    member_index: HashMap<String, usize>,
    /// (topic, partition) -> (member, line)
    owners: HashMap<(usize, i32), (usize, usize)>,
    lag: HashMap<(usize, i32), i64>,
    /// Partitions shown without a committed offset (CURRENT-OFFSET `-`): their log-end
    /// offset when shown, and the line.
    uncommitted: Vec<(usize, i32, Option<i64>, usize)>,
    strategy: Option<String>,
    state: Option<String>,
    state_line: usize,
    state_members: Option<(u32, usize)>,
    warnings: Vec<Warning>,
    seen_any: bool,
}

/// `n` with a comma between each group of three digits, as a person reads it.
fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// `-` or nothing means none.
fn some(text: &str) -> Option<String> {
    (!text.is_empty() && text != "-").then(|| text.to_string())
}

fn cell<'a>(cells: &'a [Cell], header: &Header, name: &str) -> Option<&'a Cell> {
    header.index(name).map(|i| &cells[i])
}

fn number<T: std::str::FromStr>(
    c: Option<&Cell>,
    name: &str,
    line: usize,
) -> Result<Option<T>, ImportError> {
    let Some(c) = c else { return Ok(None) };
    if c.text == "-" || c.text.is_empty() {
        return Ok(None);
    }
    c.text.parse::<T>().map(Some).map_err(|_| {
        ImportError::new(
            line,
            c.column,
            ErrorKind::NotANumber {
                column: name.to_string(),
                text: c.text.clone(),
            },
        )
    })
}

fn partition(c: &Cell, line: usize) -> Result<Option<i32>, ImportError> {
    if c.text == "-" {
        return Ok(None);
    }
    if !c.text.bytes().all(|b| b.is_ascii_digit()) || c.text.is_empty() {
        return Err(ImportError::new(
            line,
            c.column,
            ErrorKind::NotANumber {
                column: "PARTITION".into(),
                text: c.text.clone(),
            },
        ));
    }
    match c.text.parse::<u32>() {
        Ok(p) if p < MAX_PARTITIONS => Ok(Some(p as i32)),
        _ => Err(ImportError::new(
            line,
            c.column,
            ErrorKind::PartitionTooLarge {
                text: c.text.clone(),
            },
        )),
    }
}

/// The group named in a message Kafka prints, with what it means.
fn message(line: &str) -> Option<(Option<String>, String)> {
    let t = line.trim();
    let between = |prefix: &str, suffix: &str| {
        t.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(suffix))
            .map(String::from)
    };
    if let Some(g) = between("Consumer group '", "' has no active members.") {
        return Some((
            Some(g),
            "the group has no active members (state Empty): no partition is owned".into(),
        ));
    }
    if let Some(g) = between("Warning: Consumer group '", "' is rebalancing.") {
        return Some((
            Some(g),
            "the group is rebalancing: the assignment shown may be about to change".into(),
        ));
    }
    if let Some(g) = between("Error: Consumer group '", "' does not exist.")
        .or_else(|| between("Error: The consumer group '", "' does not exist."))
    {
        return Some((Some(g), "the group does not exist".into()));
    }
    for p in ["Error: ", "Warning: ", "WARN: ", "Warn: "] {
        if t.starts_with(p) {
            return Some((None, format!("Kafka printed: {t}")));
        }
    }
    None
}

/// A shell prompt or the command itself, pasted along with its output.
fn is_command(line: &str) -> bool {
    line.contains("kafka-consumer-groups")
}

pub(super) fn parse(text: &str) -> Result<Import, ImportError> {
    let mut b = Builder::default();
    let mut header: Option<Header> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            header = None;
            continue;
        }
        if let Some(h) = parse_header(line) {
            header = Some(h);
            b.seen_any = true;
            continue;
        }
        if let Some((group, what)) = message(line) {
            header = None;
            b.seen_any = true;
            if let Some(g) = group {
                let col = line.find('\'').map_or(1, |k| line[..k].chars().count() + 2);
                b.group(&g, n, col)?;
            }
            b.warnings.push(Warning {
                line: n,
                message: what,
            });
            continue;
        }
        match &header {
            Some(h) => {
                let cells = split_row(line, h, n)?;
                b.row(h, &cells, n)?;
            }
            None if is_command(line) => {}
            None => return Err(ImportError::new(n, 1, ErrorKind::UnknownLine)),
        }
    }
    if !b.seen_any {
        return Err(ImportError::new(1, 1, ErrorKind::NotConsumerGroups));
    }
    Ok(b.finish())
}

impl Builder {
    fn group(&mut self, g: &str, line: usize, column: usize) -> Result<(), ImportError> {
        match &self.group {
            None => self.group = Some(g.to_string()),
            Some(first) if first != g => {
                return Err(ImportError::new(
                    line,
                    column,
                    ErrorKind::SecondGroup {
                        first: first.clone(),
                        second: g.to_string(),
                    },
                ))
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// The topic's index; its count grows to cover `p`.
    fn topic(
        &mut self,
        name: &str,
        p: Option<i32>,
        line: usize,
        column: usize,
    ) -> Result<usize, ImportError> {
        let t = match self.topic_index.get(name) {
            Some(&t) => t,
            None => {
                self.topics.push((name.to_string(), 0));
                self.topic_index
                    .insert(name.to_string(), self.topics.len() - 1);
                self.topics.len() - 1
            }
        };
        if let Some(p) = p {
            let count = &mut self.topics[t].1;
            let needed = p as u32 + 1;
            if needed > *count {
                self.total += (needed - *count) as u64;
                *count = needed;
                if self.total > MAX_TOTAL_PARTITIONS {
                    return Err(ImportError::new(line, column, ErrorKind::TooManyPartitions));
                }
            }
        }
        Ok(t)
    }

    fn member(&mut self, id: &str) -> usize {
        if let Some(&m) = self.member_index.get(id) {
            return m;
        }
        self.members.push(MemberAcc {
            id: id.to_string(),
            ..Default::default()
        });
        self.member_index
            .insert(id.to_string(), self.members.len() - 1);
        self.members.len() - 1
    }

    fn own(&mut self, t: usize, p: i32, m: usize, line: usize) {
        match self.owners.get(&(t, p)) {
            None => {
                self.owners.insert((t, p), (m, line));
            }
            Some(&(other, at)) if other != m => self.warnings.push(Warning {
                line,
                message: format!(
                    "{}-{p} is shown owned by \"{}\" here and by \"{}\" on line {at}; kept the first",
                    self.topics[t].0, self.members[m].id, self.members[other].id
                ),
            }),
            Some(_) => {}
        }
    }

    fn row(&mut self, h: &Header, cells: &[Cell], line: usize) -> Result<(), ImportError> {
        if let Some(g) = cell(cells, h, "GROUP") {
            self.group(&g.text.clone(), line, g.column)?;
        }
        match h.view {
            View::Offsets => self.offsets_row(h, cells, line),
            View::Members => self.members_row(h, cells, line),
            View::State => self.state_row(h, cells, line),
        }
    }

    fn offsets_row(&mut self, h: &Header, cells: &[Cell], line: usize) -> Result<(), ImportError> {
        let current = number::<i64>(cell(cells, h, "CURRENT-OFFSET"), "CURRENT-OFFSET", line)?;
        let log_end = number::<i64>(cell(cells, h, "LOG-END-OFFSET"), "LOG-END-OFFSET", line)?;
        let lag = number::<i64>(cell(cells, h, "LAG"), "LAG", line)?;
        let topic = cell(cells, h, "TOPIC").and_then(|c| some(&c.text).map(|t| (t, c.column)));
        let p = match cell(cells, h, "PARTITION") {
            Some(c) => partition(c, line)?,
            None => None,
        };
        let consumer = cell(cells, h, "CONSUMER-ID").and_then(|c| some(&c.text));
        let t = match (&topic, p) {
            (Some((name, column)), _) => Some(self.topic(name, p, line, *column)?),
            _ => None,
        };
        if let (Some(t), Some(p), Some(lag)) = (t, p, lag) {
            self.lag.insert((t, p), lag);
        }
        // (a partition nobody ever committed: Kafka prints its log end, and `-` for its
        // current offset and lag)
        let dash = cell(cells, h, "CURRENT-OFFSET").is_some_and(|c| c.text == "-");
        if let (Some(t), Some(p), true, None, Some(_), None) = (t, p, dash, current, log_end, lag) {
            self.uncommitted.push((t, p, log_end, line));
        }
        if let Some(id) = consumer {
            let m = self.member(&id);
            if let Some(c) = cell(cells, h, "CLIENT-ID").and_then(|c| some(&c.text)) {
                self.members[m].client_id.get_or_insert(c);
            }
            if let (Some(t), Some(p)) = (t, p) {
                self.members[m].from_offsets.push((t, p));
                self.own(t, p, m, line);
            }
        }
        Ok(())
    }

    fn members_row(&mut self, h: &Header, cells: &[Cell], line: usize) -> Result<(), ImportError> {
        let Some(id) = cell(cells, h, "CONSUMER-ID").and_then(|c| some(&c.text)) else {
            return Ok(());
        };
        let m = self.member(&id);
        if let Some(i) = cell(cells, h, "GROUP-INSTANCE-ID").and_then(|c| some(&c.text)) {
            self.members[m].instance_id = Some(i);
        }
        if let Some(c) = cell(cells, h, "CLIENT-ID").and_then(|c| some(&c.text)) {
            self.members[m].client_id = Some(c);
        }
        if let Some(k) = number::<u32>(cell(cells, h, "#PARTITIONS"), "#PARTITIONS", line)? {
            self.members[m].count = Some((k, line));
        }
        let assigned =
            cell(cells, h, "ASSIGNMENT").or_else(|| cell(cells, h, "CURRENT-ASSIGNMENT"));
        if let Some(c) = assigned {
            let groups = assignment::parse(&c.text).map_err(|e| match e {
                CellError::Expected(at, expected) => {
                    ImportError::new(line, c.column + at, ErrorKind::BadAssignment { expected })
                }
                CellError::TooLarge(at, text) => {
                    ImportError::new(line, c.column + at, ErrorKind::PartitionTooLarge { text })
                }
            })?;
            for g in groups {
                match g.topic {
                    Some(name) => {
                        let max = g.partitions.iter().copied().max();
                        let t = self.topic(&name, max, line, c.column)?;
                        for p in g.partitions {
                            self.own(t, p, m, line);
                        }
                    }
                    None => self.members[m].unnamed.push((line, g.partitions)),
                }
            }
        }
        Ok(())
    }

    fn state_row(&mut self, h: &Header, cells: &[Cell], line: usize) -> Result<(), ImportError> {
        self.state_line = line;
        if let Some(c) = cell(cells, h, "ASSIGNMENT-STRATEGY") {
            self.strategy = Some(c.text.clone());
        }
        if let Some(c) = cell(cells, h, "STATE") {
            self.state = Some(c.text.clone());
        }
        if let Some(k) = number::<u32>(cell(cells, h, "#MEMBERS"), "#MEMBERS", line)? {
            self.state_members = Some((k, line));
        }
        Ok(())
    }

    /// Names the topics of 3.8's unnamed partition lists from the offsets view.
    fn resolve_unnamed(&mut self) {
        for m in 0..self.members.len() {
            let unnamed = std::mem::take(&mut self.members[m].unnamed);
            let mut used: Vec<usize> = Vec::new();
            for (line, mut list) in unnamed {
                list.sort_unstable();
                list.dedup();
                let found = (0..self.topics.len()).find(|t| {
                    if used.contains(t) {
                        return false;
                    }
                    let mut shown: Vec<i32> = self.members[m]
                        .from_offsets
                        .iter()
                        .filter(|(tt, _)| tt == t)
                        .map(|&(_, p)| p)
                        .collect();
                    shown.sort_unstable();
                    shown.dedup();
                    shown == list
                });
                match found {
                    Some(t) => used.push(t),
                    None => self.warnings.push(Warning {
                        line,
                        message: format!(
                            "\"{}\": this Kafka prints partitions ({}) without their topic, and no offsets view here shows which topic; paste `--describe` too",
                            self.members[m].id,
                            list.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")
                        ),
                    }),
                }
            }
        }
    }

    /// One warning per topic for its partitions without a committed offset: their lag is not
    /// known, and where their consumer starts is `auto.offset.reset`'s.
    fn uncommitted_warnings(&mut self) {
        // topic -> (the first line, its partitions with their log ends)
        type Partitions = Vec<(i32, Option<i64>)>;
        let mut by_topic: std::collections::BTreeMap<usize, (usize, Partitions)> =
            Default::default();
        for &(t, p, end, line) in &self.uncommitted {
            by_topic
                .entry(t)
                .or_insert((line, Vec::new()))
                .1
                .push((p, end));
        }
        let mut by_topic: Vec<_> = by_topic.into_iter().collect();
        // (in the order of the lines, as the other warnings)
        crate::collections::sort_by(&mut by_topic, |a, b| a.1 .0.cmp(&b.1 .0));
        for (t, (line, mut ps)) in by_topic {
            crate::collections::sort_by(&mut ps, |a, b| a.0.cmp(&b.0));
            ps.dedup_by_key(|x| x.0);
            let records: i64 = ps
                .iter()
                .filter_map(|(_, e)| *e)
                .fold(0, i64::saturating_add);
            let listed: Vec<String> = ps
                .iter()
                .take(10)
                .map(|(p, e)| match e {
                    Some(e) => format!("{p} (log end {})", thousands(*e)),
                    None => p.to_string(),
                })
                .collect();
            let more = ps.len().saturating_sub(10);
            self.warnings.push(Warning {
                line,
                message: format!(
                    "{}: {} {}{} {} no committed offset (CURRENT-OFFSET -), so {} lag is not known: {} consumer starts where auto.offset.reset says (latest, the default: it skips the {} records already there; earliest: it reads them all)",
                    self.topics[t].0,
                    if ps.len() == 1 { "partition" } else { "partitions" },
                    listed.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() },
                    if ps.len() == 1 { "has" } else { "have" },
                    if ps.len() == 1 { "its" } else { "their" },
                    if ps.len() == 1 { "its" } else { "their" },
                    thousands(records),
                ),
            });
        }
    }

    fn finish(mut self) -> Import {
        self.resolve_unnamed();
        let mut owned: Vec<BTreeMap<String, Vec<i32>>> = vec![BTreeMap::new(); self.members.len()];
        let mut owned_pairs: Vec<(usize, i32, usize)> = self
            .owners
            .iter()
            .map(|(&(t, p), &(m, _))| (t, p, m))
            .collect();
        owned_pairs.sort_unstable();
        for (t, p, m) in owned_pairs {
            owned[m]
                .entry(self.topics[t].0.clone())
                .or_default()
                .push(p);
        }
        for (m, acc) in self.members.iter().enumerate() {
            if let Some((k, line)) = acc.count {
                let shown: usize = owned[m].values().map(|ps| ps.len()).sum();
                let listed = acc.unnamed.is_empty();
                if listed && k as usize != shown && !(shown == 0 && self.owners.is_empty()) {
                    self.warnings.push(Warning {
                        line,
                        message: format!(
                            "\"{}\": #PARTITIONS says {k}, the rows show {shown}",
                            acc.id
                        ),
                    });
                }
            }
        }
        if let Some((k, line)) = self.state_members {
            if !self.members.is_empty() && k as usize != self.members.len() {
                self.warnings.push(Warning {
                    line,
                    message: format!(
                        "#MEMBERS says {k}, the rows show {} members",
                        self.members.len()
                    ),
                });
            }
        }
        self.uncommitted_warnings();
        // Topics by name: the rows' order is Kafka's, not the user's, and means nothing.
        let mut by_name: Vec<&(String, u32)> = self.topics.iter().collect();
        by_name.sort();
        let topic_order: Vec<&str> = by_name.iter().map(|(n, _)| n.as_str()).collect();
        let members: Vec<Member> = self
            .members
            .iter()
            .zip(&owned)
            .map(|(acc, o)| Member {
                id: acc.id.clone(),
                instance_id: acc.instance_id.clone(),
                client_id: acc.client_id.clone(),
                topics: topic_order
                    .iter()
                    .filter(|t| o.contains_key(**t))
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .into(),
                owned: o.clone(),
                ..Default::default()
            })
            .collect();
        let assignor = match self.strategy.as_deref() {
            None | Some("") => None,
            Some(s) => {
                let k = AssignorKind::parse(s);
                if k.is_none() {
                    self.warnings.push(Warning {
                        line: self.state_line,
                        message: format!(
                            "assignment strategy \"{s}\" is not one this version models"
                        ),
                    });
                }
                k
            }
        };
        // What each member lists in partition.assignment.strategy is not printed: all the
        // tool says is the protocol the group chose, which every member listed. The members
        // list that one alone (so the vote picks it); without --state they keep the Java
        // client's default list. The page says which.
        let mut members = members;
        if let Some(k) = assignor.filter(|k| !k.is_broker()) {
            for m in &mut members {
                m.protocols = vec![k.name().to_string()];
            }
        }
        let mut lag = BTreeMap::new();
        for (t, (name, count)) in self.topics.iter().enumerate() {
            let per: Vec<Option<i64>> = (0..*count as i32)
                .map(|p| self.lag.get(&(t, p)).copied())
                .collect();
            lag.insert(name.clone(), per);
        }
        let assignment = members
            .iter()
            .map(|m| (m.id.clone(), m.owned.clone()))
            .collect();
        self.warnings.sort_by_key(|w| w.line);
        Import {
            scenario: crate::scenario::Scenario {
                topics: by_name
                    .iter()
                    .map(|(name, partitions)| Topic {
                        name: name.clone(),
                        partitions: *partitions,
                    })
                    .collect(),
                members,
                assignor: assignor.unwrap_or_default(),
                ..Default::default()
            },
            group_id: self.group,
            assignor,
            strategy: self.strategy,
            state: self.state,
            lag,
            warnings: self.warnings,
            assignment,
        }
    }
}
