//! `UniformHeterogeneousAssignmentBuilder`: members name different topics.
//!
//! - Members are numbered in members-map order; each topic's subscribers in that order.
//! - Owned partitions of topics a member still subscribes to are kept (the rest go); where
//!   Java's answer ends up giving a partition two such members owned to both, we refuse
//!   ([`kept_twice`]).
//! - Unassigned partitions, topic by topic (topics ordered by partitions per subscriber
//!   descending, then subscriber count ascending, then topic id by `Uuid.compareTo`), each to
//!   the least loaded subscriber (ties to the lower member number), dealt round the range of
//!   equally loaded members.
//! - Then balancing: per topic (same order, topics of two or more subscribers), partitions
//!   move from the most loaded subscribers (each giving its highest-numbered partition of
//!   the topic) to the least loaded until their loads differ by at most one; passes over all
//!   topics repeat until a whole pass moves nothing, at most 16 passes (`MAX_ITERATION_COUNT`).

use super::super::coordinator::{AssignorError, Fed};
use super::super::{GroupInput, UNASSIGNED};
use super::beyond;
use std::cmp::Ordering;

const MAX_ITERATION_COUNT: usize = 16;

struct Builder<'f, 'a> {
    fed: &'f Fed<'a>,
    /// Per fed topic, its subscribers (member numbers, ascending).
    subscribers: Vec<Vec<u32>>,
    /// Per member number, its total partitions in the target assignment.
    sizes: Vec<i32>,
    /// Per fed topic, each partition's owner (member number) or -1.
    owners: Vec<Vec<i32>>,
    /// (topic, partition, member): a partition an earlier member also kept, still in that
    /// member's assignment (see [`kept_twice`]).
    shadows: Vec<(u32, u32, u32)>,
}

pub(super) fn build(input: &GroupInput, fed: &Fed) -> Result<Vec<Vec<u32>>, AssignorError> {
    let m = fed.members.len();
    let mut subscribers: Vec<Vec<u32>> = vec![Vec::new(); fed.topics.len()];
    for (k, &member) in fed.members.iter().enumerate() {
        for &t in &fed.subscription(member).topics {
            subscribers[t as usize].push(k as u32);
        }
    }
    let mut b = Builder {
        fed,
        owners: fed
            .topics
            .iter()
            .zip(&subscribers)
            .map(|(t, s)| {
                if s.is_empty() {
                    Vec::new()
                } else {
                    vec![-1; t.partitions as usize]
                }
            })
            .collect(),
        subscribers,
        sizes: vec![0; m],
        shadows: Vec::new(),
    };
    let subscribed: Vec<u32> = (0..fed.topics.len() as u32)
        .filter(|t| !b.subscribers[*t as usize].is_empty())
        .collect();
    if subscribed.is_empty() {
        return Ok(b.into_owners());
    }
    // maybeRevokePartitions: keep what the member still subscribes to.
    let mut seen: Vec<u32> = Vec::new();
    let mut distinct: Vec<u32> = Vec::new();
    for (k, &member) in fed.members.iter().enumerate() {
        let sub = &fed.subscription(member).topics;
        seen.clear();
        for (name, ps) in &input.members[member as usize].owned {
            let Some(t) = fed.resolve_owned(name).0 else {
                continue;
            };
            if seen.contains(&t) || sub.binary_search(&t).is_err() {
                continue;
            }
            seen.push(t);
            let n = fed.topics[t as usize].partitions;
            distinct.clear();
            distinct.extend(ps.iter().map(|p| *p as u32));
            distinct.sort_unstable();
            distinct.dedup();
            b.sizes[k] += distinct.len() as i32;
            for &p in &distinct {
                if p >= n {
                    return Err(beyond(fed.topics[t as usize].name, p, n));
                }
                let owner = &mut b.owners[t as usize][p as usize];
                if *owner != -1 {
                    // Java keeps it in both; the last member is its recorded owner.
                    b.shadows.push((t, p, *owner as u32));
                }
                *owner = k as i32;
            }
        }
    }
    // computeUnassignedPartitions, assignRemainingPartitions.
    let mut with_unassigned: Vec<(u32, Vec<u32>)> = subscribed
        .iter()
        .filter_map(|&t| {
            let ps: Vec<u32> = (0..fed.topics[t as usize].partitions)
                .filter(|p| b.owners[t as usize][*p as usize] == -1)
                .collect();
            (!ps.is_empty()).then_some((t, ps))
        })
        .collect();
    with_unassigned.sort_by(|x, y| b.topic_cmp(x.0, y.0));
    let mut balancer = Balancer::default();
    for (t, ps) in &with_unassigned {
        balancer.initialize(&b.subscribers[*t as usize], &b.sizes);
        for &p in ps {
            let k = balancer.next_least_loaded(&b.sizes);
            b.assign(*t, p, k);
        }
    }
    // balance()
    let mut topics: Vec<u32> = subscribed
        .into_iter()
        .filter(|t| b.subscribers[*t as usize].len() >= 2)
        .collect();
    if !topics.is_empty() {
        topics.sort_by(|x, y| b.topic_cmp(*x, *y));
        b.balance_topics(&topics, &mut balancer);
    }
    if let Some(&(t, p, _)) = b.shadows.first() {
        return Err(kept_twice(fed.topics[t as usize].name, p));
    }
    Ok(b.into_owners())
}

/// A partition in the current target assignment of two members who both still subscribe to
/// its topic (a target the coordinator never makes: it is the assignor's own last answer).
/// `maybeRevokePartitions` keeps it in both members' assignments and records the later
/// member as its owner; moves only take it from the recorded owner, and one onto the other
/// member merges the two copies. Unless that happens, Java's answer gives the partition to
/// two members: not an assignment, and not one we can show, so we refuse it.
fn kept_twice(topic: &str, partition: u32) -> AssignorError {
    AssignorError {
        message: format!(
            "partition {partition} of topic \"{topic}\" was owned by two members who both \
             subscribe to it, and Kafka's uniform assignor gives it to both again (not an \
             assignment)"
        ),
        java_throws: false,
    }
}

impl Builder<'_, '_> {
    /// Partitions per subscriber descending, subscriber count ascending, topic id ascending.
    fn topic_cmp(&self, a: u32, b: u32) -> Ordering {
        let (ta, tb) = (&self.fed.topics[a as usize], &self.fed.topics[b as usize]);
        let sa = self.subscribers[a as usize].len();
        let sb = self.subscribers[b as usize].len();
        // Double.compare of the same divisions Java makes.
        let pa = ta.partitions as f64 / sa as f64;
        let pb = tb.partitions as f64 / sb as f64;
        pb.partial_cmp(&pa)
            .unwrap_or(Ordering::Equal)
            .then(sa.cmp(&sb))
            .then_with(|| ta.id.java_cmp(&tb.id))
    }

    fn assign(&mut self, t: u32, p: u32, k: u32) {
        if !self.shadows.is_empty() {
            // Onto a member that kept its own copy: the copies merge.
            self.shadows.retain(|s| *s != (t, p, k));
        }
        let slot = &mut self.owners[t as usize][p as usize];
        if *slot != -1 {
            self.sizes[*slot as usize] -= 1;
        }
        *slot = k as i32;
        self.sizes[k as usize] += 1;
    }

    fn balance_topics(&mut self, topics: &[u32], balancer: &mut Balancer) {
        let mut last: Option<usize> = None;
        let mut scratch = TopicScratch::new(self.sizes.len());
        for _ in 0..MAX_ITERATION_COUNT {
            for (i, &t) in topics.iter().enumerate() {
                if last == Some(i) {
                    return;
                }
                let moved = self.balance_topic(t, balancer, &mut scratch);
                if moved > 0 || last.is_none() {
                    last = Some(i);
                }
            }
        }
    }

    fn balance_topic(&mut self, t: u32, bal: &mut Balancer, s: &mut TopicScratch) -> u32 {
        let mut moved = 0;
        // Most passes find the topic balanced: see that without sorting its subscribers
        // (the balancer's state is reset by its next initialize, so skipping it is the same).
        let subs = &self.subscribers[t as usize];
        let (lo, hi) = subs.iter().fold((i32::MAX, i32::MIN), |(lo, hi), k| {
            let s = self.sizes[*k as usize];
            (lo.min(s), hi.max(s))
        });
        if hi - lo <= 1 {
            return 0;
        }
        let imbalance = bal.initialize(subs, &self.sizes);
        if imbalance <= 1 {
            return 0;
        }
        // Partitions grouped by owner (then ascending), and each owner's range in that list.
        let owners = &self.owners[t as usize];
        s.keys.clear();
        s.keys.extend(
            owners
                .iter()
                .enumerate()
                .map(|(p, o)| ((*o as u32 as u64) << 32) | p as u64),
        );
        s.keys.sort_unstable();
        for k in s.touched.drain(..) {
            s.start[k as usize] = -1;
            s.end[k as usize] = -1;
        }
        for (i, key) in s.keys.iter().enumerate() {
            let o = (key >> 32) as u32;
            if o == u32::MAX {
                continue; // unassigned (-1): cannot happen after assignRemainingPartitions
            }
            if s.start[o as usize] == -1 {
                s.start[o as usize] = i as i32;
                s.touched.push(o);
            }
            s.end[o as usize] = i as i32 + 1;
        }
        while !bal.is_balanced() {
            let mut most;
            loop {
                most = bal.next_most_loaded(&self.sizes);
                if most == -1 {
                    break;
                }
                let k = most as usize;
                if s.end[k] == -1 || s.end[k] - s.start[k] <= 0 {
                    bal.exclude_most_loaded();
                    continue;
                }
                break;
            }
            if most == -1 {
                break;
            }
            let k = most as usize;
            let p = (s.keys[(s.end[k] - 1) as usize] & 0xffff_ffff) as u32;
            s.end[k] -= 1;
            let least = bal.next_least_loaded(&self.sizes);
            if bal.is_balanced() {
                break;
            }
            self.assign(t, p, least);
            moved += 1;
        }
        moved
    }

    fn into_owners(self) -> Vec<Vec<u32>> {
        let members = &self.fed.members;
        self.owners
            .into_iter()
            .zip(&self.fed.topics)
            .map(|(o, t)| {
                if o.is_empty() {
                    vec![UNASSIGNED; t.partitions as usize]
                } else {
                    o.iter()
                        .map(|k| {
                            if *k < 0 {
                                UNASSIGNED
                            } else {
                                members[*k as usize]
                            }
                        })
                        .collect()
                }
            })
            .collect()
    }
}

/// Reused buffers of `balanceTopic` (its `partitions` list and the two index maps).
struct TopicScratch {
    keys: Vec<u64>,
    start: Vec<i32>,
    end: Vec<i32>,
    touched: Vec<u32>,
}

impl TopicScratch {
    fn new(members: usize) -> Self {
        TopicScratch {
            keys: Vec::new(),
            start: vec![-1; members],
            end: vec![-1; members],
            touched: Vec::new(),
        }
    }
}

/// `MemberAssignmentBalancer`: the least loaded range grows rightwards, the most loaded
/// range leftwards, over the subscribers sorted by load (then member number). Reads the
/// live loads, as Java's does.
#[derive(Default)]
struct Balancer {
    sorted: Vec<u32>,
    keys: Vec<u64>,
    least_end: usize,
    least_count: i32,
    next_least: usize,
    most_start: usize,
    most_end: usize,
    most_count: i32,
    next_most: isize,
}

impl Balancer {
    fn initialize(&mut self, members: &[u32], sizes: &[i32]) -> i32 {
        // (load, member number) as one key: loads are never negative.
        self.keys.clear();
        self.keys.extend(
            members
                .iter()
                .map(|k| ((sizes[*k as usize] as u64) << 32) | *k as u64),
        );
        self.keys.sort_unstable();
        self.sorted.clear();
        self.sorted.extend(self.keys.iter().map(|k| *k as u32));
        let first = sizes[self.sorted[0] as usize];
        let last = sizes[*self.sorted.last().unwrap_or(&0) as usize];
        self.least_end = 0;
        self.least_count = first - 1;
        self.next_least = 0;
        self.most_start = self.sorted.len();
        self.most_end = self.sorted.len();
        self.most_count = last + 1;
        self.next_most = self.sorted.len() as isize - 1;
        last - first
    }

    fn next_least_loaded(&mut self, sizes: &[i32]) -> u32 {
        if self.next_least >= self.least_end {
            self.least_count += 1;
            while self.least_end < self.sorted.len()
                && sizes[self.sorted[self.least_end] as usize] == self.least_count
            {
                self.least_end += 1;
            }
            self.next_least = 0;
        }
        let k = self.sorted[self.next_least];
        self.next_least += 1;
        k
    }

    fn next_most_loaded(&mut self, sizes: &[i32]) -> i32 {
        if self.next_most < self.most_start as isize {
            if self.most_end <= self.most_start && self.most_start > 0 {
                self.most_count = sizes[self.sorted[self.most_start - 1] as usize];
            } else {
                self.most_count -= 1;
            }
            while self.most_start > 0
                && sizes[self.sorted[self.most_start - 1] as usize] == self.most_count
            {
                self.most_start -= 1;
            }
            self.next_most = self.most_end as isize - 1;
        }
        if self.next_most < 0 {
            return -1;
        }
        let k = self.sorted[self.next_most as usize];
        self.next_most -= 1;
        k as i32
    }

    fn exclude_most_loaded(&mut self) {
        let at = (self.next_most + 1) as usize;
        self.sorted.swap(at, self.most_end - 1);
        self.most_end -= 1;
    }

    fn is_balanced(&self) -> bool {
        self.most_count - self.least_count <= 1
    }
}
