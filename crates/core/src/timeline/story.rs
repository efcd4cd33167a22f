//! The events a person asks for, as what each member does when.

/// Which story.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StoryKind {
    /// Each member is closed, down for a while, and started again, one after another.
    #[default]
    RollingRestart,
    /// The first member closes and is started again (a deploy of one instance).
    Replace,
    /// The first member dies without a word (no commit, no LeaveGroup) and is started again.
    Crash,
    /// New members join.
    ScaleOut,
    /// The last members close.
    ScaleIn,
    /// One batch of the first member takes longer than `max.poll.interval.ms`.
    SlowPoll,
    /// The first member cannot reach the cluster for a while.
    NetworkCut,
    /// The move to cooperative-sticky, as Kafka's upgrade notes give it: rolling restarts
    /// that end with every member listing cooperative-sticky alone, after a first one that
    /// adds it to the lists that lack it.
    ToCooperative,
    /// A script written by hand ([`super::script`]).
    Script,
}

impl StoryKind {
    /// Every story, in the order a person meets them.
    pub const ALL: [StoryKind; 9] = [
        StoryKind::RollingRestart,
        StoryKind::Replace,
        StoryKind::Crash,
        StoryKind::ScaleOut,
        StoryKind::ScaleIn,
        StoryKind::SlowPoll,
        StoryKind::NetworkCut,
        StoryKind::ToCooperative,
        StoryKind::Script,
    ];

    /// The name the command line and the link use.
    pub fn name(self) -> &'static str {
        match self {
            StoryKind::RollingRestart => "rolling-restart",
            StoryKind::Replace => "replace",
            StoryKind::Crash => "crash",
            StoryKind::ScaleOut => "scale-out",
            StoryKind::ScaleIn => "scale-in",
            StoryKind::SlowPoll => "slow-poll",
            StoryKind::NetworkCut => "network-cut",
            StoryKind::ToCooperative => "to-cooperative",
            StoryKind::Script => "script",
        }
    }

    /// Reads [`StoryKind::name`].
    pub fn parse(s: &str) -> Option<Self> {
        StoryKind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// How a person would say it.
    pub fn label(self) -> &'static str {
        match self {
            StoryKind::RollingRestart => "Rolling restart",
            StoryKind::Replace => "One member replaced",
            StoryKind::Crash => "Crash and restart",
            StoryKind::ScaleOut => "Scale out",
            StoryKind::ScaleIn => "Scale in",
            StoryKind::SlowPoll => "A batch slower than max.poll.interval.ms",
            StoryKind::NetworkCut => "Network cut",
            StoryKind::ToCooperative => "Move to cooperative-sticky",
            StoryKind::Script => "Your own script",
        }
    }
}

/// A story with its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Story {
    /// Which.
    pub kind: StoryKind,
    /// Rolling restart and crash: how long a member is down. Slow poll: how long the slow
    /// batch takes. Network cut: how long the cut lasts.
    pub downtime_ms: i64,
    /// Rolling restart: from one member's return to the next one's stop.
    pub gap_ms: i64,
    /// Rolling restart: members restarted at once. Scale out or in: members added or
    /// removed. Otherwise unused.
    pub count: u32,
    /// A script written by hand: what each member does when ([`super::script`]); the
    /// story when its kind is [`StoryKind::Script`], kept otherwise.
    pub script: String,
}

impl Story {
    /// The story with the numbers a person would start from.
    pub fn new(kind: StoryKind) -> Story {
        let downtime_ms = match kind {
            StoryKind::SlowPoll => 360_000,
            StoryKind::NetworkCut => 60_000,
            _ => 20_000,
        };
        Story {
            kind,
            downtime_ms,
            gap_ms: 10_000,
            count: 1,
            script: String::new(),
        }
    }
}

impl Default for Story {
    fn default() -> Self {
        Story::new(StoryKind::RollingRestart)
    }
}

/// What a member does at a moment of the story.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// `close()`: commit, then LeaveGroup if the client leaves on close.
    Close,
    /// The process dies.
    Crash,
    /// The process starts and joins.
    Start,
    /// Its next batch takes this long.
    SlowBatch(i64),
    /// It cannot reach the cluster for this long.
    Cut(i64),
    /// The process starts again with another `partition.assignment.strategy`, and joins.
    StartListing(Listing),
    /// The process starts with the settings of a script's `with` (by index), and joins.
    StartWith(u32),
}

/// A `partition.assignment.strategy` a member is restarted with in the move to
/// cooperative-sticky.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Its list with cooperative-sticky added at the end (the first rolling restart, for a
    /// list that lacks it): the old assignor still wins the vote, and the member still
    /// rebalances eagerly.
    AddCooperative,
    /// cooperative-sticky alone (the last rolling restart): the member rebalances
    /// cooperatively.
    CooperativeOnly,
}

impl Listing {
    /// `list` changed as this says.
    pub fn apply(self, list: &[String]) -> Vec<String> {
        const COOPERATIVE: &str = "cooperative-sticky";
        match self {
            Listing::AddCooperative if list.iter().any(|n| n == COOPERATIVE) => list.to_vec(),
            Listing::AddCooperative => {
                let mut out = list.to_vec();
                out.push(COOPERATIVE.into());
                out
            }
            Listing::CooperativeOnly => vec![COOPERATIVE.into()],
        }
    }
}

/// When the story begins, in ms after the first members started: long enough for the group
/// to be Stable and to have committed, and half-way between two of its heartbeats (3 s
/// apart by default, in step since the members' JoinGroups were answered together), the
/// average moment for an event to fall. A group that takes longer to form (a long
/// `group.initial.rebalance.delay.ms`) starts its story [`STORY_AFTER_FORMED_MS`] after.
pub const STORY_START_MS: i64 = 31_500;

/// How long after the group has formed a late story starts.
pub const STORY_AFTER_FORMED_MS: i64 = 1_500;

/// When the story starts for a group formed (Stable, every member consuming) at `formed`.
pub fn story_start(formed: i64) -> i64 {
    STORY_START_MS.max(formed.saturating_add(STORY_AFTER_FORMED_MS))
}

/// The longest downtime, slow batch, cut or gap a story takes (an hour).
pub const MAX_STORY_MS: i64 = 3_600_000;

/// What a member (by index) does when (ms).
pub type Timed = (i64, usize, Act);

/// The story as acts on the members named `names`, each with the client settings `base`
/// and the `partition.assignment.strategy` in `lists` (none under the consumer protocol):
/// what each member does when, and how many members it adds. The move to
/// cooperative-sticky takes a first rolling restart when some list lacks it.
pub fn acts(
    story: &Story,
    names: &[String],
    base: &super::ClientSettings,
    lists: &[Vec<String>],
) -> Result<super::script::Acts, String> {
    if story.kind == StoryKind::Script {
        return super::script::acts(&story.script, names, base, lists)
            .map_err(|e| e.located(&story.script));
    }
    let lacking_cooperative = lists
        .iter()
        .any(|l| !l.iter().any(|n| n == "cooperative-sticky"));
    let members = names.len();
    let t0 = STORY_START_MS;
    let count = story.count as usize;
    if !(0..=MAX_STORY_MS).contains(&story.downtime_ms) {
        return Err(format!(
            "downtime = {} ms: give 0 to 3,600,000 (an hour)",
            story.downtime_ms
        ));
    }
    if !(0..=MAX_STORY_MS).contains(&story.gap_ms) {
        return Err(format!(
            "gap = {} ms: give 0 to 3,600,000 (an hour)",
            story.gap_ms
        ));
    }
    let mut out = Vec::new();
    let mut added = 0;
    match story.kind {
        StoryKind::RollingRestart => {
            rolling_restart(story, members, t0, Act::Start, &mut out)?;
        }
        StoryKind::ToCooperative => {
            let mut t = t0;
            if lacking_cooperative {
                let start = Act::StartListing(Listing::AddCooperative);
                t = rolling_restart(story, members, t, start, &mut out)?;
            }
            let start = Act::StartListing(Listing::CooperativeOnly);
            rolling_restart(story, members, t, start, &mut out)?;
        }
        StoryKind::Replace => {
            out.push((t0, 0, Act::Close));
            out.push((t0 + story.downtime_ms, 0, Act::Start));
        }
        StoryKind::Crash => {
            out.push((t0, 0, Act::Crash));
            out.push((t0 + story.downtime_ms, 0, Act::Start));
        }
        StoryKind::ScaleOut => {
            if count == 0 || count > 1_000 {
                return Err(format!("count = {count}: scale out by 1 to 1,000 members"));
            }
            for i in 0..count {
                out.push((t0, members + i, Act::Start));
            }
            added = count;
        }
        StoryKind::ScaleIn => {
            if count == 0 || count >= members {
                return Err(format!(
                    "count = {count}: scale in by 1 to {} members (one must stay)",
                    members.saturating_sub(1)
                ));
            }
            for m in members - count..members {
                out.push((t0, m, Act::Close));
            }
        }
        StoryKind::SlowPoll => out.push((t0, 0, Act::SlowBatch(story.downtime_ms))),
        StoryKind::NetworkCut => out.push((t0, 0, Act::Cut(story.downtime_ms))),
        StoryKind::Script => {}
    }
    Ok(super::script::Acts {
        timed: out,
        added,
        configs: Vec::new(),
        initial: Vec::new(),
    })
}

/// A rolling restart from `t`: each member closes and, down for the story's downtime,
/// `start`s again, `count` at once, the next ones the story's gap later. Returns when the
/// next restart would begin.
fn rolling_restart(
    story: &Story,
    members: usize,
    mut t: i64,
    start: Act,
    out: &mut Vec<Timed>,
) -> Result<i64, String> {
    let count = story.count as usize;
    if count == 0 || count > members {
        return Err(format!(
            "count = {count}: a rolling restart takes 1 to {members} members at once"
        ));
    }
    for wave in (0..members).collect::<Vec<_>>().chunks(count) {
        for &m in wave {
            out.push((t, m, Act::Close));
            out.push((t + story.downtime_ms, m, start));
        }
        t += story.downtime_ms + story.gap_ms;
    }
    Ok(t)
}
