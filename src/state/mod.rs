//! The one reducer that owns the app state. Pure: clone, change, return. Each action
//! belongs to an area, whose module changes the state and says what it did ([`Outcome`]);
//! [`AppState::apply`] finishes the state from that. The URL and local storage are effects
//! at the edge (see `hooks`), never in here.

mod bytes;
mod group;
mod lesson;
mod load;
mod members;
mod topics;
mod whatif;

use crate::lesson::Entered;
use rebalance_lab_core::assignor::{AssignorKind, LeaderClient};
use rebalance_lab_core::group::{ClientPreset, GroupEvent, LeaderHistory};
use rebalance_lab_core::lesson::{
    Feedback, Lesson, Outcome as Answered, Prediction, Progress, Step,
};
use rebalance_lab_core::protocol::hex;
use rebalance_lab_core::scenario::colours::Colours;
use rebalance_lab_core::scenario::link::LinkState;
use rebalance_lab_core::scenario::whatif::Baseline;
use rebalance_lab_core::scenario::{presets, Scenario};
use std::collections::BTreeMap;
use std::collections::HashSet;
use std::rc::Rc;
#[cfg(target_arch = "wasm32")]
use yew::Reducible;

/// How the URL should follow the last change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryMode {
    /// A discrete action: a new history entry, so Back undoes it.
    Push,
    /// Typing: replace the current entry.
    Replace,
    /// The state came from the URL (load or Back): leave the URL alone.
    None,
}

/// A link that could not be read: what failed, and the raw fragment to copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The message, with position.
    pub message: String,
    /// The fragment (or the part of it) as it came.
    pub raw: String,
    /// True when the scenario itself opened and only a part of the link failed.
    pub partial: bool,
    /// What the page shows instead (when not partial).
    pub fallback: &'static str,
}

/// Everything the app knows.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The scenario being edited, shared: the views' props and the assignment memo's key
    /// take it without a copy (two deep copies per repaint before, tens of milliseconds at
    /// 10,000 members), and compare it by pointer when it is the same allocation. Each action
    /// still copies it once (`Rc::make_mut` in `apply`), as the whole state was copied
    /// before.
    pub scenario: Rc<Scenario>,
    /// The topic whose arithmetic is explained.
    pub selected_topic: Option<String>,
    /// Why the last edit was refused, and where (a field key such as `topic-2-name`).
    pub refusal: Option<(String, String)>,
    /// A link that could not be read.
    pub broken_link: Option<BrokenLink>,
    /// Bumped on every scenario change; the URL effect follows it.
    pub revision: u64,
    /// How the URL follows the last change.
    pub history: HistoryMode,
    /// The member (id) whose subscription bytes are open in the bytes panel.
    pub bytes_member: Option<String>,
    /// Hex as typed, per member id, while it differs from the bytes (kept as typed).
    pub hex_drafts: BTreeMap<String, String>,
    /// Subscription version per member id, when not the default 3.
    pub versions: BTreeMap<String, i16>,
    /// The pinned assignment that changes are compared with.
    pub baseline: Option<Baseline>,
    /// The story step on screen.
    pub story_step: Option<usize>,
    /// The timeline on screen: its story and settings.
    pub timeline: Option<rebalance_lab_core::timeline::spec::Spec>,
    /// Each member's colour slot, by member id: it follows the member, not its position.
    pub colours: Colours,
    /// The preset on screen, until an edit changes the group.
    pub preset: Option<&'static str>,
    /// The group as it was when pinned (what each assignor's "before" is computed from),
    /// and the members that came back under new ids since (old id, new id).
    pub pinned: Option<(Scenario, Vec<(String, String)>)>,
    /// The group's joins and leaves since a member was removed (empty: every member joined
    /// in list order), so the leader after a leave is the one the broker picks.
    pub group_log: Vec<GroupEvent>,
    /// The lesson on screen, when one is.
    pub lesson: Option<LessonOn>,
    /// What an import of kafka-consumer-groups.sh output read beside the group,
    /// until another group is loaded.
    pub imported: Option<Rc<Imported>>,
    /// The person's own group while the story or the lesson shows its own: put back when
    /// they leave it.
    pub own_group: Option<Rc<OwnGroup>>,
    /// Each lesson as it was left (its place, outcomes and attempts), one per lesson:
    /// opening it again resumes there.
    pub left_lessons: Vec<LessonOn>,
}

/// The person's group, and what the page shows of it, as it was when the story or the
/// lesson replaced it.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnGroup {
    scenario: Rc<Scenario>,
    baseline: Option<Baseline>,
    pinned: Option<(Scenario, Vec<(String, String)>)>,
    colours: Colours,
    group_log: Vec<GroupEvent>,
    imported: Option<Rc<Imported>>,
    preset: Option<&'static str>,
    selected_topic: Option<String>,
    bytes_member: Option<String>,
    hex_drafts: BTreeMap<String, String>,
    versions: BTreeMap<String, i16>,
    timeline: Option<rebalance_lab_core::timeline::spec::Spec>,
}

impl AppState {
    /// Keeps the group on screen, unless one is kept already (the story, then the lesson:
    /// the person's own is the one from before both).
    fn keep_own_group(&mut self) {
        if self.own_group.is_none() {
            self.own_group = Some(Rc::new(self.group_on_screen()));
        }
    }

    /// The group on screen, and what the page shows of it, as the person's own.
    fn group_on_screen(&self) -> OwnGroup {
        OwnGroup {
            scenario: self.scenario.clone(),
            baseline: self.baseline.clone(),
            pinned: self.pinned.clone(),
            colours: self.colours.clone(),
            group_log: self.group_log.clone(),
            imported: self.imported.clone(),
            preset: self.preset,
            selected_topic: self.selected_topic.clone(),
            bytes_member: self.bytes_member.clone(),
            hex_drafts: self.hex_drafts.clone(),
            versions: self.versions.clone(),
            timeline: self.timeline,
        }
    }

    /// Puts the person's own group back, when one was kept (a page opened on the story or
    /// the lesson from a link has none: the group on screen stays).
    fn restore_own_group(&mut self) {
        let Some(own) = self.own_group.take() else {
            return;
        };
        let own = Rc::unwrap_or_clone(own);
        self.scenario = own.scenario;
        self.baseline = own.baseline;
        self.pinned = own.pinned;
        self.colours = own.colours;
        self.group_log = own.group_log;
        self.imported = own.imported;
        self.preset = own.preset;
        self.selected_topic = own.selected_topic;
        self.bytes_member = own.bytes_member;
        self.hex_drafts = own.hex_drafts;
        self.versions = own.versions;
        self.timeline = own.timeline;
    }
}

/// What an import read that the scenario does not carry: the lag, what Kafka's tool said,
/// the group's state and its strategy as printed.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// Lag per partition.
    pub lag: rebalance_lab_core::import::Lag,
    /// The STATE and ASSIGNMENT-STRATEGY cells, and Kafka's messages.
    pub said: rebalance_lab_core::import::Said,
}

/// A lesson on screen: where the learner is, how their predictions went, and what the step
/// on screen shows of its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonOn {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// The step on screen and the outcomes (the link carries both).
    pub progress: Progress,
    /// What the learner did on each step visited, by step: coming back to a step shows it
    /// as they left it.
    pub attempts: BTreeMap<usize, Attempt>,
    /// The answer is shown (after a check, Show answer, or on coming back to a step
    /// already answered).
    pub revealed: bool,
}

/// What the learner did on one step: what they entered, and the last prediction checked
/// with the feedback on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attempt {
    pub entered: Entered,
    pub checked: Option<(Prediction, Feedback)>,
    /// The feedback on the step's first check, when it was wrong: the lesson's summary
    /// says what each mistake was, also after the learner put it right.
    pub first_wrong: Option<Feedback>,
}

impl LessonOn {
    /// A lesson at `progress`, nothing entered yet.
    fn at(lesson: &'static Lesson, progress: Progress) -> LessonOn {
        LessonOn {
            lesson,
            revealed: progress.outcome(progress.step()) != Answered::Unanswered,
            progress,
            attempts: BTreeMap::new(),
        }
    }

    /// The step on screen.
    pub fn step(&self) -> Option<&'static Step> {
        self.lesson.steps.get(self.progress.step())
    }

    /// What the learner did on the step on screen.
    pub fn attempt(&self) -> Option<&Attempt> {
        self.attempts.get(&self.progress.step())
    }

    fn attempt_mut(&mut self) -> &mut Attempt {
        self.attempts.entry(self.progress.step()).or_default()
    }
}

/// The version librdkafka sends, and the default of the bytes view.
pub const DEFAULT_VERSION: i16 = 3;

impl Default for AppState {
    fn default() -> Self {
        AppState {
            scenario: Rc::new(presets::preset("seven-three").unwrap_or_default()),
            selected_topic: None,
            refusal: None,
            broken_link: None,
            revision: 0,
            history: HistoryMode::None,
            bytes_member: None,
            hex_drafts: BTreeMap::new(),
            versions: BTreeMap::new(),
            baseline: None,
            story_step: None,
            timeline: None,
            colours: Colours::default(),
            preset: Some("seven-three"),
            pinned: None,
            group_log: Vec::new(),
            lesson: None,
            imported: None,
            own_group: None,
            left_lessons: Vec::new(),
        }
        .with_vote_default()
        .with_colours()
    }
}

/// What a person (or the URL) does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    AddTopic,
    RenameTopic {
        index: usize,
        name: String,
    },
    SetPartitions {
        index: usize,
        text: String,
    },
    RemoveTopic(usize),
    SetPartitionRacks {
        index: usize,
        text: String,
    },
    /// A topic's id typed (the broker's assignors read it; empty: the derived id).
    SetTopicId {
        index: usize,
        text: String,
    },
    AddMember,
    /// "members: N": the group gets N members in one step (joins or leaves at the end).
    SetMemberCount(String),
    RenameMember {
        index: usize,
        id: String,
    },
    SetInstanceId {
        index: usize,
        text: String,
    },
    SetRack {
        index: usize,
        text: String,
    },
    SetSubscribed {
        index: usize,
        topic: String,
        on: bool,
    },
    RemoveMember(usize),
    /// The member at this index joined first (the list is the join order while nobody left).
    JoinFirst(usize),
    SetAssignor(AssignorKind),
    LoadPreset(&'static str),
    /// What kafka-consumer-groups.sh printed, read: the group replaces the one on
    /// screen, its observed assignment pinned.
    Import(Box<rebalance_lab_core::import::Import>),
    /// The planner's point for `count` members, as a what-if against the group now (pinned
    /// first when nothing is): the group grown or shrunk as the planner drew it (`seed`).
    PlanMembers {
        count: u32,
        seed: u64,
    },
    SelectTopic(Option<String>),
    /// A scenario read from the URL (start or Back/Forward).
    LoadLink(Box<LinkState>),
    /// The URL's fragment could not be read.
    LinkBroken(BrokenLink),
    DismissBrokenLink,
    /// Opens (or closes, with None) a member's subscription bytes.
    ShowBytes(Option<usize>),
    /// Hex typed or pasted for a member's subscription.
    SetSubscriptionHex {
        index: usize,
        text: String,
    },
    /// The version the member's bytes are written at.
    SetSubscriptionVersion {
        index: usize,
        version: i16,
    },
    /// Drops the member's raw bytes: its form fields say what it sends again.
    UseFormFields(usize),
    /// Freezes the current assignment as the baseline.
    PinBaseline,
    /// Back to the plain view.
    Unpin,
    /// Every member rejoins with a new member id (a rolling restart); pins first if needed.
    RollingRestart,
    /// Shows a step of the story.
    StoryStep(usize),
    /// Leaves the story: the person's own group comes back.
    ExitStory,
    /// The timeline opened or set (its story and settings), or closed (None).
    Timeline(Option<rebalance_lab_core::timeline::spec::Spec>),
    /// group.id typed.
    SetGroupId(String),
    /// offsets.topic.num.partitions typed.
    SetOffsetsPartitions(String),
    /// A member's partition.assignment.strategy typed (names split by commas).
    SetProtocols {
        index: usize,
        text: String,
    },
    /// A member's strategy list set to a client's default.
    UseClientPreset {
        index: usize,
        preset: ClientPreset,
    },
    /// The assignor follows the vote again (after an override).
    FollowVote,
    /// The leader's client library (its member order for range and round-robin).
    SetLeaderClient(LeaderClient),
    /// Opens the lesson (the first one) at this step (counting from 0), or moves to it,
    /// putting the step's group on screen.
    LessonGo(usize),
    /// Opens the lesson where it was left (its first step the first time).
    LessonOpen,
    /// Opens the lesson with this key: where it was left when it is the one left, else at
    /// its first step.
    LessonStart(&'static str),
    /// A cell of the grid picked for the step's prediction, or let go.
    LessonPick {
        topic: String,
        partition: u32,
    },
    /// A count typed for a member in the step's prediction.
    LessonCount {
        member: String,
        text: String,
    },
    /// An option chosen for the step's prediction.
    LessonChoose(usize),
    /// Checks what was entered on the step on screen: the first check of a step is the
    /// one its outcome records; a prediction that cannot be read (nothing picked, a count
    /// that is not one) is refused, and what was entered stays.
    LessonCheck,
    /// Show answer.
    LessonReveal,
    /// Leaves the lesson (kept, to resume): the person's own group comes back.
    LessonLeave,
}

/// What an action did, for [`AppState::apply`] to finish the new state with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The state moved on: a new revision, the URL following as said.
    Changed(HistoryMode),
    /// Refused: nothing changes but the message, said at `field` (a field key such as
    /// `topic-2-name`; empty for the page's own).
    Refused { field: String, message: String },
    /// Only the view changed (what is open, selected or entered in a lesson step): no new
    /// revision, the URL as it is.
    Viewed,
}

impl Outcome {
    /// A refusal said at `field`.
    pub fn refused(field: impl Into<String>, message: String) -> Outcome {
        Outcome::Refused {
            field: field.into(),
            message,
        }
    }

    /// Typing in `field`: the history entry replaced, or the refusal said there.
    pub fn typed(r: Result<(), String>, field: String) -> Outcome {
        match r {
            Ok(()) => Outcome::Changed(HistoryMode::Replace),
            Err(message) => Outcome::Refused { field, message },
        }
    }
}

impl AppState {
    /// The pure transition: each action is its area's (topics, members, bytes, the group,
    /// the what-if, the lesson, a new group loaded), and what it did finishes the state.
    pub fn apply(&self, action: Action) -> AppState {
        let is_preset = matches!(action, Action::LoadPreset(_));
        let mut next = self.clone();
        let n = &mut next;
        let outcome = match action {
            Action::AddTopic => topics::add(n),
            Action::RenameTopic { index, name } => topics::rename(n, index, name),
            Action::SetPartitions { index, text } => topics::set_partitions(n, index, &text),
            Action::SetPartitionRacks { index, text } => topics::set_racks(n, index, &text),
            Action::SetTopicId { index, text } => topics::set_id(n, index, &text),
            Action::RemoveTopic(index) => topics::remove(n, index),
            Action::SelectTopic(t) => topics::select(n, t),
            Action::AddMember => members::add(n),
            Action::SetMemberCount(text) => members::set_count(n, &text),
            Action::RenameMember { index, id } => members::rename(n, index, &id),
            Action::SetInstanceId { index, text } => members::set_instance_id(n, index, &text),
            Action::SetRack { index, text } => members::set_rack(n, index, &text),
            Action::SetSubscribed { index, topic, on } => {
                members::set_subscribed(n, index, &topic, on)
            }
            Action::RemoveMember(index) => members::remove(n, index),
            Action::JoinFirst(index) => members::join_first(n, index),
            Action::ShowBytes(i) => bytes::show(n, i),
            Action::SetSubscriptionHex { index, text } => bytes::set_hex(n, index, text),
            Action::SetSubscriptionVersion { index, version } => {
                bytes::set_version(n, index, version)
            }
            Action::UseFormFields(index) => bytes::use_form_fields(n, index),
            Action::SetAssignor(kind) => group::set_assignor(n, kind),
            Action::SetGroupId(text) => group::set_group_id(n, text),
            Action::SetOffsetsPartitions(text) => group::set_offsets_partitions(n, &text),
            Action::SetProtocols { index, text } => group::set_protocols(n, index, &text),
            Action::UseClientPreset { index, preset } => group::use_client_preset(n, index, preset),
            Action::FollowVote => group::follow_vote(n),
            Action::SetLeaderClient(c) => group::set_leader_client(n, c),
            Action::PinBaseline => whatif::pin(n),
            Action::Unpin => whatif::unpin(n),
            Action::RollingRestart => whatif::rolling_restart(n),
            Action::StoryStep(k) => whatif::story_step(n, k),
            Action::ExitStory => whatif::exit_story(n),
            Action::Timeline(spec) => {
                n.timeline = spec;
                Outcome::Changed(HistoryMode::Replace)
            }
            Action::PlanMembers { count, seed } => whatif::plan_members(n, count, seed),
            Action::LessonGo(k) => lesson::go(n, k),
            Action::LessonOpen => lesson::open(n),
            Action::LessonStart(key) => lesson::start(n, key),
            Action::LessonPick { topic, partition } => lesson::pick(n, &topic, partition),
            Action::LessonCount { member, text } => lesson::count(n, &member, text),
            Action::LessonChoose(i) => lesson::choose(n, i),
            Action::LessonCheck => lesson::check(n),
            Action::LessonReveal => lesson::reveal(n),
            Action::LessonLeave => lesson::leave(n),
            Action::LoadPreset(key) => load::preset(n, key),
            Action::Import(i) => load::import(n, *i),
            Action::LoadLink(state) => load::link(n, *state),
            Action::LinkBroken(b) => load::broken(n, b),
            Action::DismissBrokenLink => load::dismiss_broken(n),
        };
        match outcome {
            Outcome::Changed(history) => {
                Rc::make_mut(&mut next.scenario).follow_vote();
                next.sync_group_log();
                if !is_preset && next.scenario != self.scenario {
                    next.preset = None;
                }
                next.refusal = None;
                next.revision += 1;
                next.history = history;
                next.with_colours()
            }
            // A refused edit changes nothing but the message.
            Outcome::Refused { field, message } => AppState {
                refusal: Some((field, message)),
                ..self.clone()
            },
            Outcome::Viewed => next,
        }
    }

    /// Which group the grid shows, in a sentence: a lesson's, the story's, a what-if against
    /// the pinned group, the pinned or imported group itself, a preset, or the person's own.
    pub fn group_shown(&self) -> String {
        let s = &self.scenario;
        let assignor = s.assignor.name();
        let named = s
            .group_id
            .as_deref()
            .map_or(String::new(), |g| format!(" (group.id {g})"));
        let back = if self.own_group.is_some() {
            "your own group comes back when you leave"
        } else {
            "this group stays on screen when you leave"
        };
        if let Some(on) = &self.lesson {
            let k = on.progress.step();
            let title = on.step().map_or("", |st| st.title);
            return format!(
                "The lesson's group, step {} of {}: {title}. Its group is the lesson's own: {back} the lesson.",
                k + 1,
                on.lesson.steps.len()
            );
        }
        if let Some(k) = self.story_step {
            return format!(
                "The story's group, step {} of {}: {back} the story.",
                k + 1,
                rebalance_lab_core::scenario::whatif::story().len()
            );
        }
        let whose = if self.imported.is_some() {
            "Your imported group"
        } else {
            "Your group"
        };
        match (&self.pinned, &self.baseline) {
            (Some((p, _)), Some(_)) if **s != *p => {
                let count = |n: u64, one: &str| {
                    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
                };
                format!(
                    "A what-if: the pinned group{named} changed to {} over {} (pinned: {} over {}), assigned by {assignor}; a corner marks a partition that moved from its pinned owner.",
                    count(s.members.len() as u64, "member"),
                    count(s.total_partitions(), "partition"),
                    count(p.members.len() as u64, "member"),
                    count(p.total_partitions(), "partition"),
                )
            }
            (_, Some(_)) if self.imported.is_some() => format!(
                "{whose}{named}, as {assignor} would assign it now; its assignment as observed is pinned, and a corner marks a partition that would move."
            ),
            (Some(_), Some(_)) => format!(
                "{whose}{named}, assigned by {assignor}, and pinned: changes from here are compared with this assignment."
            ),
            // (a link may carry a pinned assignment without the group it came from)
            (None, Some(_)) => format!(
                "{whose}{named}, assigned by {assignor}, compared with a pinned assignment: a corner marks a partition that moved from its pinned owner."
            ),
            _ => match self
                .preset
                .and_then(|k| presets::PRESETS.iter().find(|p| p.key == k))
            {
                Some(p) => format!("The preset \"{}\", assigned by {assignor}.", p.label),
                None => format!("{whose}{named}, assigned by {assignor}."),
            },
        }
    }

    /// The state a link carries: the scenario, the chosen versions, the baseline, the story
    /// step, and hex still being typed that is not hex yet (so nothing typed is lost).
    pub fn link_state(&self) -> LinkState {
        LinkState {
            scenario: (*self.scenario).clone(),
            ..self.link_parts()
        }
    }

    /// The link's fragment: [`AppState::link_state`]'s, written without a copy of the
    /// scenario (at 10,000 members on 50 topics a copy is half a million strings).
    pub fn link_fragment(&self) -> String {
        rebalance_lab_core::scenario::link::fragment_of(&self.scenario, &self.link_parts())
    }

    /// [`AppState::link_state`] with a default scenario in place of the state's.
    fn link_parts(&self) -> LinkState {
        let hex_drafts = by_index(&self.scenario, &self.hex_drafts)
            .into_iter()
            .filter(|(_, t)| hex::parse_hex(t).is_err())
            .collect();
        LinkState {
            scenario: Scenario::default(),
            versions: by_index(&self.scenario, &self.versions),
            baseline: self.baseline.clone().map(Ok),
            pinned: self.pinned.clone(),
            story_step: self.story_step,
            timeline: self.timeline,
            lesson: self
                .lesson
                .as_ref()
                .map(|on| (on.lesson.key, on.progress.clone())),
            hex_drafts,
            colours: {
                let slots: Vec<u32> = self
                    .scenario
                    .members
                    .iter()
                    .map(|m| self.colours.slot(&m.id).unwrap_or(u32::MAX))
                    .collect();
                // 0, 1, 2, ... is what a link without colours means
                let plain = slots.iter().enumerate().all(|(i, s)| *s as usize == i);
                (!plain).then_some(slots)
            },
            group_log: self.group_log.clone(),
            lag: self.imported.as_ref().map(|i| i.lag.clone()),
            said: self.imported.as_ref().map(|i| i.said.clone()),
            extra: Vec::new(),
            // (the person's group, kept while the story or a lesson shows its own: a reload
            // or a shared link brings it back when they leave)
            own: self.own_group.as_ref().map(|own| {
                let mut theirs = AppState {
                    own_group: Some(own.clone()),
                    ..AppState::default()
                };
                theirs.restore_own_group();
                Box::new(theirs.link_state())
            }),
        }
    }

    /// Colour slots for every member shown (and every member the baseline names), keeping
    /// each member's own: see [`Colours::updated`].
    fn with_colours(mut self) -> Self {
        let live = self.scenario.members.iter().map(|m| m.id.as_str()).chain(
            self.baseline
                .iter()
                .flat_map(|b| b.members.iter().map(String::as_str)),
        );
        self.colours = self.colours.updated(live);
        self
    }

    /// A new group's assignor follows the vote when it agrees with it.
    fn with_vote_default(mut self) -> Self {
        let s = Rc::make_mut(&mut self.scenario);
        s.assignor_by_vote = s.voted_assignor() == Some(s.assignor);
        self
    }

    /// Keeps the group's log of joins and leaves in step with the member list: a member
    /// no longer listed leaves, a member newly listed joins (renames are a leave and a join).
    #[inline(never)]
    fn sync_group_log(&mut self) {
        if self.group_log.is_empty() {
            return;
        }
        // (sets, not scans: a 10,000-member group compared every member with every other)
        let present = rebalance_lab_core::group::run_events_briefly(&self.group_log).members;
        let listed: HashSet<&str> = self
            .scenario
            .members
            .iter()
            .map(|m| m.id.as_str())
            .collect();
        let joined: HashSet<&str> = present.iter().map(String::as_str).collect();
        for id in &present {
            if !listed.contains(id.as_str()) {
                self.group_log.push(GroupEvent::Leave(id.clone()));
            }
        }
        for m in &self.scenario.members {
            if !joined.contains(m.id.as_str()) {
                self.group_log.push(GroupEvent::Join(m.id.clone()));
            }
        }
    }

    /// A member's colour slot.
    pub fn colour_of(&self, id: &str) -> u32 {
        self.colours.slot(id).unwrap_or(0)
    }

    /// The version a member's bytes are written at.
    pub fn version_of(&self, index: usize) -> i16 {
        self.scenario
            .members
            .get(index)
            .and_then(|m| self.versions.get(&m.id))
            .copied()
            .unwrap_or(DEFAULT_VERSION)
    }

    /// The bytes panel's member, as an index into the member list.
    pub fn bytes_member_index(&self) -> Option<usize> {
        let id = self.bytes_member.as_ref()?;
        self.scenario.members.iter().position(|m| &m.id == id)
    }

    /// A member's view state follows it to its new id.
    fn rekey(&mut self, old: &str, new: &str) {
        self.hex_drafts = rekeyed(&self.hex_drafts, old, new);
        self.versions = rekeyed(&self.versions, old, new);
        if self.bytes_member.as_deref() == Some(old) {
            self.bytes_member = Some(new.to_string());
        }
    }
}

/// The leader and the next leader: the accepted members joined in list order, then the
/// group's log (when a member was removed) says who left and joined since; refused members
/// never join.
pub fn group_leader(log: &[GroupEvent], accepted: &[&str], refused: &[&str]) -> LeaderHistory {
    let events: Vec<GroupEvent> = if log.is_empty() {
        accepted
            .iter()
            .map(|id| GroupEvent::Join(id.to_string()))
            .collect()
    } else {
        let refused: HashSet<&str> = refused.iter().map(|id| id.as_ref()).collect();
        log.iter()
            .filter(|e| match e {
                GroupEvent::Join(id) => !refused.contains(id.as_str()),
                GroupEvent::Leave(_) => true,
            })
            .cloned()
            .collect()
    };
    rebalance_lab_core::group::run_events_briefly(&events)
}

/// A seed for new member ids' UUIDs: different for every edit, the same for the same edit.
fn seed_of(s: &AppState) -> u64 {
    s.revision
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(s.scenario.members.len() as u64)
}

/// The id of the member at `index` (empty when there is none: no view state has that key).
fn id_at(s: &Scenario, index: usize) -> String {
    s.members
        .get(index)
        .map(|m| m.id.clone())
        .unwrap_or_default()
}

/// Per-member entries keyed by position (as a link has them) keyed by member id instead.
fn by_id<V>(s: &Scenario, m: BTreeMap<usize, V>) -> BTreeMap<String, V> {
    m.into_iter()
        .filter_map(|(i, v)| Some((s.members.get(i)?.id.clone(), v)))
        .collect()
}

/// Per-member entries keyed by member id keyed by position, for a link.
fn by_index<V: Clone>(s: &Scenario, m: &BTreeMap<String, V>) -> BTreeMap<usize, V> {
    s.members
        .iter()
        .enumerate()
        .filter_map(|(i, mem)| Some((i, m.get(&mem.id)?.clone())))
        .collect()
}

/// The map with `old`'s entry under `new`.
fn rekeyed<V: Clone>(m: &BTreeMap<String, V>, old: &str, new: &str) -> BTreeMap<String, V> {
    m.iter()
        .map(|(k, v)| {
            (
                if k == old { new.to_string() } else { k.clone() },
                v.clone(),
            )
        })
        .collect()
}

#[cfg(target_arch = "wasm32")]
impl Reducible for AppState {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.apply(action);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rebalance_lab_core::lesson::{Highlight, LoadedStep, LESSONS};
    use rebalance_lab_core::scenario::link::{from_fragment, to_fragment};

    fn start(fragment: &str) -> AppState {
        AppState::default().apply(Action::LoadLink(Box::new(from_fragment(fragment).unwrap())))
    }

    /// An import's lag and what Kafka's tool said of it ride in the link, even when the
    /// tool said nothing beside the members (the summary comes back on reload); a story
    /// step or a lesson step, another group, lets them go.
    #[test]
    fn an_import_survives_a_reload_and_goes_with_its_group() {
        let members_only = rebalance_lab_core::import::parse(
            "GROUP  CONSUMER-ID  HOST  CLIENT-ID  #PARTITIONS\ng  c-1  /10.0.0.1  c  0\n",
        )
        .unwrap();
        let imported = AppState::default().apply(Action::Import(Box::new(members_only)));
        assert!(imported.imported.is_some());
        let reloaded = start(&to_fragment(&imported.link_state()));
        assert_eq!(reloaded.imported, imported.imported);
        let story = imported.apply(Action::StoryStep(0));
        assert_eq!(story.imported, None);
        assert!(!to_fragment(&story.link_state()).contains(";xk="));
        assert_eq!(imported.apply(Action::LessonGo(0)).imported, None);
    }

    /// The lesson: each step puts its own group on screen (a what-if step pins the group
    /// before the change), the first check of a step is its outcome, the link carries the
    /// step and the outcomes, and leaving keeps the group as it is.
    #[test]
    fn the_lesson_walks_its_steps_and_the_link_keeps_the_place() {
        let steps = LESSONS[0].steps;
        let mut s = AppState::default().apply(Action::LessonGo(0));
        for (k, step) in steps.iter().enumerate() {
            s = s.apply(Action::LessonGo(k));
            let on = s.lesson.as_ref().unwrap();
            assert_eq!(on.progress.step(), k);
            assert_eq!(s.history, HistoryMode::Push);
            let group = from_fragment(step.scenario).unwrap().scenario;
            assert_eq!(s.scenario.topics, group.topics, "{}", step.key);
            assert_eq!(s.scenario.members, group.members, "{}", step.key);
            assert_eq!(s.scenario.assignor, group.assignor, "{}", step.key);
            assert_eq!(s.pinned.is_some(), step.before.is_some(), "{}", step.key);
            assert_eq!(s.baseline.is_some(), step.before.is_some(), "{}", step.key);
            let bytes = step
                .highlights
                .iter()
                .any(|h| matches!(h, Highlight::Field { .. } | Highlight::Bytes { .. }));
            assert_eq!(s.bytes_member.is_some(), bytes, "{}", step.key);
        }
        let s = s.apply(Action::LessonGo(2));
        let loaded = LoadedStep::load(&steps[2]).unwrap();
        let Some(rebalance_lab_core::lesson::Answer::Counts(right)) = loaded.answer() else {
            panic!("step 3 asks for counts");
        };
        let typed = |s: AppState, plus: u32| {
            right.iter().fold(s, |s, (member, n)| {
                s.apply(Action::LessonCount {
                    member: member.clone(),
                    text: (n + plus).to_string(),
                })
            })
        };
        // a count left blank is refused, naming whose, and what was typed stays
        let (first, _) = &right[0];
        let blank = typed(s.clone(), 1).apply(Action::LessonCount {
            member: first.clone(),
            text: String::new(),
        });
        let refused = blank.clone().apply(Action::LessonCheck);
        assert!(refused.refusal.as_ref().unwrap().1.contains(first.as_str()));
        assert_eq!(refused.lesson, blank.lesson, "what was typed stays");
        let wrong = typed(s, 1).apply(Action::LessonCheck);
        assert!(wrong.refusal.is_none());
        // a second check shows its feedback but the first one is the outcome
        let again = typed(wrong, 0).apply(Action::LessonCheck);
        let on = again.lesson.as_ref().unwrap();
        assert_eq!(on.progress.outcome(2), Answered::Wrong);
        assert!(on.attempt().unwrap().checked.as_ref().unwrap().1.right);
        assert!(on.revealed);
        let f = to_fragment(&again.link_state());
        assert!(f.contains(";xl=range.3.--w"), "{f}");
        // the link opens on the same step, with the outcomes, the answer shown (here without
        // the group the page kept from before the lesson, as a lesson link written by hand)
        let (bare, kept) = f.split_once(";xo=").expect("the page's group is kept");
        assert!(
            !kept.contains(';'),
            "the kept group is the last section: {f}"
        );
        let back = start(bare);
        let on = back.lesson.as_ref().unwrap();
        assert_eq!(
            (on.progress.step(), on.progress.outcome(2)),
            (2, Answered::Wrong)
        );
        assert!(on.revealed && on.attempt().is_none());
        // Back to a step not answered: asked again; past the end: refused, nothing moves
        let b = back.apply(Action::LessonGo(0));
        assert!(!b.lesson.as_ref().unwrap().revealed);
        let past = b.apply(Action::LessonGo(steps.len()));
        assert_eq!(past.lesson, b.lesson);
        assert!(past.refusal.unwrap().1.contains("has no step 18"));
        // a check with nothing chosen is refused, and says what is missing
        let refused = b.apply(Action::LessonCheck);
        let (at, said) = refused.refusal.as_ref().unwrap();
        assert_eq!(
            (at.as_str(), said.as_str()),
            ("lesson", "Pick one of the answers first.")
        );
        assert_eq!(refused.scenario, b.scenario);
        // an edit on a step is kept; a lesson opened from a link has no other group to put
        // back, so the group on screen stays on leaving
        let edited = b.apply(Action::AddMember);
        assert!(edited.lesson.is_some());
        let left = edited.apply(Action::LessonLeave);
        assert!(left.lesson.is_none());
        assert_eq!(left.scenario, edited.scenario);
        assert!(!to_fragment(&left.link_state()).contains(";xl="));
    }

    #[test]
    fn refused_edits_change_nothing_but_the_message() {
        let s = start("v1;a=r;t=a*3,b*3;m=x***D,y***D");
        let n = s.apply(Action::RenameTopic {
            index: 0,
            name: "b".into(),
        });
        assert_eq!(n.scenario, s.scenario);
        assert_eq!(n.revision, s.revision);
        assert_eq!(n.refusal.as_ref().unwrap().0, "topic-0-name");
        let n = n.apply(Action::SetPartitions {
            index: 1,
            text: "10001".into(),
        });
        assert!(n.refusal.unwrap().1.contains("1 to 10,000"));
        let ok = s.apply(Action::RenameTopic {
            index: 0,
            name: "c".into(),
        });
        assert_eq!(ok.history, HistoryMode::Replace);
        assert_eq!(
            ok.scenario.members[0].topics[..],
            vec!["c".to_string(), "b".to_string()]
        );
        assert_eq!(s.apply(Action::AddMember).history, HistoryMode::Push);
    }

    /// The story and the lesson show groups of their own: leaving either puts the person's
    /// own group back, as it was (pinned, imported, coloured); a page opened on the lesson
    /// from a link has no other group, and keeps the one on screen.
    #[test]
    fn leaving_the_story_or_the_lesson_brings_the_person_s_group_back() {
        let own = start("v1;a=o;t=mine*5;m=me***B,you***B")
            .apply(Action::PinBaseline)
            .apply(Action::AddMember);
        let story = own.apply(Action::StoryStep(0)).apply(Action::StoryStep(1));
        assert_ne!(story.scenario, own.scenario);
        let back = story.apply(Action::ExitStory);
        assert_eq!(back.scenario, own.scenario);
        assert_eq!(back.baseline, own.baseline);
        assert_eq!(back.pinned, own.pinned);
        assert_eq!(back.colours, own.colours);
        assert_eq!(back.story_step, None);
        // the lesson, opened from the story and edited on a step: its leave brings the
        // group from before both
        let lesson = own
            .apply(Action::StoryStep(0))
            .apply(Action::LessonGo(0))
            .apply(Action::LessonGo(3))
            .apply(Action::AddMember);
        let back = lesson.apply(Action::LessonLeave);
        assert_eq!(back.scenario, own.scenario);
        assert_eq!((back.lesson.is_none(), back.story_step), (true, None));
        // the lesson opened again resumes where it was left, its outcomes kept
        let checked = own
            .apply(Action::LessonOpen)
            .apply(Action::LessonChoose(0))
            .apply(Action::LessonCheck)
            .apply(Action::LessonGo(4));
        let again = checked.apply(Action::LessonLeave).apply(Action::LessonOpen);
        let on = again.lesson.as_ref().unwrap();
        assert_eq!(on.progress.step(), 4);
        assert_eq!(
            on.progress.tally(),
            checked.lesson.as_ref().unwrap().progress.tally()
        );
        assert_eq!(
            on.progress.tally().1,
            1,
            "the wrong answer on step 1 is kept"
        );
        // unpinned during the story: its group is the person's now, no older one comes back
        let kept = own.apply(Action::StoryStep(1)).apply(Action::Unpin);
        assert_eq!((kept.own_group.is_none(), kept.story_step), (true, None));
        // a preset chosen meanwhile is the person's own group from then on
        let chose = own
            .apply(Action::LessonGo(0))
            .apply(Action::LoadPreset("seven-three"));
        assert!(chose.own_group.is_none());
    }

    /// Who joined first can be set (an import guesses it from the order of the pasted lines):
    /// the member leads; once a member has left, the group's log decides and it is refused.
    #[test]
    fn who_joined_first_can_be_said() {
        let s = start("v1;a=r;t=t*4;m=b***B,a***B,c***B");
        let n = s.apply(Action::JoinFirst(2));
        let ids: Vec<&str> = n.scenario.members.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["c", "b", "a"]);
        assert_eq!(n.history, HistoryMode::Push);
        assert_eq!(n.colours, s.colours, "colours follow the members");
        let left = s.apply(Action::RemoveMember(0));
        let refused = left.apply(Action::JoinFirst(1));
        assert_eq!(refused.scenario, left.scenario);
        assert!(refused
            .refusal
            .unwrap()
            .1
            .contains("joins and leaves decide"));
        assert!(s.apply(Action::JoinFirst(9)).refusal.is_some());
    }

    /// The grid says which group it shows: the person's, a preset, an imported group with
    /// its observed assignment pinned, a what-if against the pin, the story's or a lesson's.
    #[test]
    fn the_grid_says_which_group_it_shows() {
        let own = start("v1;a=o;t=mine*5;m=me***B,you***B");
        assert_eq!(own.group_shown(), "Your group, assigned by roundrobin.");
        assert!(AppState::default()
            .group_shown()
            .starts_with("The preset \""));
        let pinned = own.apply(Action::PinBaseline);
        assert!(
            pinned.group_shown().contains("and pinned"),
            "{}",
            pinned.group_shown()
        );
        let what_if = pinned.apply(Action::AddMember);
        assert_eq!(
            what_if.group_shown(),
            "A what-if: the pinned group changed to 3 members over 5 partitions (pinned: 2 members over 5 partitions), assigned by roundrobin; a corner marks a partition that moved from its pinned owner."
        );
        let story = what_if.apply(Action::StoryStep(1));
        assert!(story
            .group_shown()
            .starts_with("The story's group, step 2 of"));
        assert!(story.group_shown().contains("your own group comes back"));
        let lesson = what_if.apply(Action::LessonOpen);
        assert!(
            lesson
                .group_shown()
                .starts_with("The lesson's group, step 1 of 17: One owner per partition."),
            "{}",
            lesson.group_shown()
        );
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/core/tests/fixtures/kafka-consumer-groups/3.x-all-views.txt"
        ))
        .unwrap();
        let imported = own.apply(Action::Import(Box::new(
            rebalance_lab_core::import::parse(&text).unwrap(),
        )));
        assert!(
            imported.group_shown().starts_with(
                "Your imported group (group.id orders-app), as roundrobin would assign it now; its assignment as observed is pinned"
            ),
            "{}",
            imported.group_shown()
        );
    }

    /// The person's group kept during the lesson or the story is in the link (and so in
    /// storage): a reload, or the link opened on another page, brings it back on leaving.
    #[test]
    fn a_reload_during_the_lesson_keeps_the_person_s_group() {
        let own = start("v1;a=o;t=mine*5;m=me***B,you***B")
            .apply(Action::PinBaseline)
            .apply(Action::AddMember);
        for away in [
            own.apply(Action::LessonOpen).apply(Action::LessonGo(3)),
            own.apply(Action::StoryStep(2)),
        ] {
            let fragment = away.link_fragment();
            assert!(fragment.contains(";xo="), "{fragment}");
            let reloaded = start(&fragment);
            assert_eq!(reloaded.scenario, away.scenario);
            let back = if reloaded.lesson.is_some() {
                reloaded.apply(Action::LessonLeave)
            } else {
                reloaded.apply(Action::ExitStory)
            };
            assert_eq!(back.scenario, own.scenario);
            assert_eq!(back.baseline, own.baseline);
            assert_eq!(back.pinned, own.pinned);
            assert_eq!(back.colours, own.colours);
            assert!(!back.link_fragment().contains(";xo="));
        }
        // the person's own page carries no second group
        assert!(!own.link_fragment().contains(";xo="));
    }

    /// What only changes the view (a topic explained, bytes opened, a cell picked for a
    /// lesson) is no new revision: the link and the history stay as they are, and the
    /// scenario is the same value, not a copy.
    #[test]
    fn view_changes_are_no_new_revision() {
        let s = start("v1;a=r;t=a*3,b*3;m=x***D,y***D").apply(Action::LessonGo(3));
        for a in [
            Action::SelectTopic(Some("b".into())),
            Action::ShowBytes(Some(1)),
            Action::LessonPick {
                topic: "orders".into(),
                partition: 3,
            },
            Action::LessonReveal,
            Action::DismissBrokenLink,
        ] {
            let n = s.apply(a.clone());
            assert_eq!((n.revision, n.history), (s.revision, s.history), "{a:?}");
            assert!(Rc::ptr_eq(&n.scenario, &s.scenario), "{a:?}");
        }
        let picked = s.apply(Action::LessonPick {
            topic: "orders".into(),
            partition: 3,
        });
        let on = picked.lesson.as_ref().unwrap();
        assert_eq!(
            on.attempt().unwrap().entered.cells,
            vec![("orders".to_string(), 3)]
        );
    }

    #[test]
    fn pasted_bytes_drive_the_member_and_travel() {
        let s = start("v1;a=r;t=s01-a*3;m=x***");
        let n = s.apply(Action::SetSubscriptionHex {
            index: 0,
            text: "00 03 00000001 0005 7330312d61 00000000 00000000 ffffffff 0000".into(),
        });
        assert_eq!(n.scenario.members[0].topics[..], vec!["s01-a".to_string()]);
        let back = from_fragment(&to_fragment(&n.link_state())).unwrap();
        assert_eq!(
            back.scenario.members[0].subscription,
            n.scenario.members[0].subscription
        );
        // Unfinished hex keeps the text as typed, and the link keeps it too.
        let half = n.apply(Action::SetSubscriptionHex {
            index: 0,
            text: "0003 0".into(),
        });
        assert_eq!(half.hex_drafts["x"], "0003 0");
        let again = start(&to_fragment(&half.link_state()));
        assert_eq!(again.hex_drafts["x"], "0003 0");
        // The version chooser writes the bytes again and says nothing is lost at v3 -> v0.
        let v0 = n.apply(Action::SetSubscriptionVersion {
            index: 0,
            version: 0,
        });
        assert_eq!(v0.version_of(0), 0);
        assert_eq!(
            v0.scenario.members[0].subscription.as_ref().unwrap()[..2],
            [0, 0]
        );
        // A form edit takes over from the bytes.
        let f = n.apply(Action::SetSubscribed {
            index: 0,
            topic: "s01-a".into(),
            on: false,
        });
        assert!(
            f.scenario.members[0].subscription.is_none() && f.scenario.members[0].topics.is_empty()
        );
    }

    #[test]
    fn view_state_follows_the_member_not_its_position() {
        let s = start("v1;a=r;t=a*3;m=x***B,y***B,z***B*v1");
        assert_eq!(s.version_of(2), 1);
        let n = s
            .apply(Action::SetSubscriptionHex {
                index: 1,
                text: "zz".into(),
            })
            .apply(Action::ShowBytes(Some(2)))
            .apply(Action::RemoveMember(0));
        // y and z moved up one place; their draft, version and open panel went with them
        assert_eq!(n.version_of(1), 1);
        assert_eq!(n.hex_drafts.get("y").map(String::as_str), Some("zz"));
        assert_eq!(n.bytes_member_index(), Some(1));
        // removing a member drops its state: a member added later never shows it
        let gone = n.apply(Action::RemoveMember(0));
        assert!(gone.hex_drafts.is_empty());
        let added = gone.apply(Action::AddMember);
        assert_eq!(added.version_of(1), DEFAULT_VERSION);
        // renaming keeps it
        let r = n.apply(Action::RenameMember {
            index: 1,
            id: "zed".into(),
        });
        assert_eq!(r.version_of(1), 1);
        assert_eq!(r.bytes_member.as_deref(), Some("zed"));
        // the link keeps it by position and reads it back by id
        let back = start(&to_fragment(&r.link_state()));
        assert_eq!(back.versions, r.versions);
        assert_eq!(back.hex_drafts, r.hex_drafts);
    }

    #[test]
    fn pin_restart_and_story() {
        let s = start("v1;a=r;t=a*6;m=c1*~i1**B,c2*~i2**B");
        let pinned = s.apply(Action::PinBaseline);
        assert!(pinned.baseline.is_some());
        // Static members: a rolling restart renames them and nothing moves.
        let r = pinned.apply(Action::RollingRestart);
        assert_ne!(r.scenario.members[0].id, "c1");
        let input = r.scenario.group_input();
        let a = rebalance_lab_core::assignor::range(&input);
        assert_eq!(
            rebalance_lab_core::scenario::whatif::diff(r.baseline.as_ref().unwrap(), &input, &a)
                .moved,
            0
        );
        // The baseline and the story step travel in the link.
        let st = r.apply(Action::StoryStep(3));
        assert_eq!(st.link_fragment(), to_fragment(&st.link_state()));
        let back = start(&to_fragment(&st.link_state()));
        assert_eq!(back.story_step, Some(3));
        assert_eq!(back.baseline, st.baseline);
        assert_eq!(back.scenario, st.scenario);
        assert!(st.apply(Action::StoryStep(99)).refusal.is_some());
        assert!(st.apply(Action::Unpin).baseline.is_none());
    }

    #[test]
    fn a_broken_baseline_in_a_link_is_said() {
        let st = from_fragment("v1;a=r;t=t*1;m=a***;xb=a%7Ct%3A7").unwrap();
        let s = AppState::default().apply(Action::LoadLink(Box::new(st)));
        let broken = s.broken_link.unwrap();
        assert!(broken.message.contains("owner 7"), "{}", broken.message);
        assert!(broken.partial);
        assert_eq!(broken.raw, "a|t:7");
    }

    fn leader_of(s: &AppState) -> LeaderHistory {
        let vote = s.scenario.vote();
        let refused: Vec<&str> = vote.refused.iter().map(|r| r.id.as_str()).collect();
        group_leader(&s.group_log, &vote.accepted_ids(), &refused)
    }

    #[test]
    fn the_story_step_where_the_leader_leaves_hands_over_as_the_coordinator_does() {
        let steps = rebalance_lab_core::scenario::whatif::story();
        let k = steps
            .iter()
            .position(|s| s.title == "The leader leaves")
            .unwrap();
        let before = AppState::default().apply(Action::StoryStep(k - 1));
        let first = before.scenario.members[0].id.clone();
        let s = AppState::default().apply(Action::StoryStep(k));
        let h = leader_of(&s);
        let next = h.leader.clone().unwrap();
        // not the first listed member, whom a group that simply joined in list order would
        // make the leader
        assert_ne!(Some(&next), s.scenario.members.first().map(|m| &m.id));
        assert!(!s.scenario.members.iter().any(|m| m.id == first));
        assert!(steps[k]
            .sentence
            .contains(&rebalance_lab_core::scenario::member_id::display_id(&next)));
        let why = &h.steps.last().unwrap().why;
        assert!(why.contains("first key of the members HashMap"), "{why}");
        // and a link of that step reopens with the same leader
        let again = start(&rebalance_lab_core::scenario::link::to_fragment(
            &s.link_state(),
        ));
        assert_eq!(leader_of(&again).leader, Some(next));
    }

    #[test]
    fn group_id_vote_and_override() {
        let s = start("v1;a=r;t=a*6;m=a***B,b***B");
        assert!(
            !s.scenario.assignor_by_vote,
            "an old link keeps its assignor as given"
        );
        let g = s.apply(Action::SetGroupId("orders".into()));
        assert_eq!(g.scenario.coordinator().partition, 31);
        let g = g.apply(Action::SetOffsetsPartitions("150".into()));
        assert_eq!(g.scenario.coordinator().offsets_partitions, 150);
        let bad = g.apply(Action::SetOffsetsPartitions("0".into()));
        assert_eq!(bad.scenario, g.scenario);
        assert_eq!(bad.refusal.unwrap().0, "offsets-partitions");
        // a tie: each member prefers another protocol; HashMap order gives range
        let t = g
            .apply(Action::FollowVote)
            .apply(Action::SetProtocols {
                index: 0,
                text: "range, roundrobin,".into(),
            })
            .apply(Action::SetProtocols {
                index: 1,
                text: "roundrobin,range".into(),
            });
        let v = t.scenario.vote();
        assert_eq!(v.tally.tied, ["range", "roundrobin"]);
        assert!(v.why.contains("tie"), "{}", v.why);
        assert_eq!(t.scenario.assignor, AssignorKind::Range, "follows the vote");
        // librdkafka's default on both: range wins outright; an override sticks
        let o = t
            .apply(Action::UseClientPreset {
                index: 1,
                preset: ClientPreset::Librdkafka,
            })
            .apply(Action::SetAssignor(AssignorKind::RoundRobin));
        assert!(!o.scenario.assignor_by_vote);
        let o = o.apply(Action::SetProtocols {
            index: 0,
            text: "range".into(),
        });
        assert_eq!(o.scenario.assignor, AssignorKind::RoundRobin);
        let f = o.apply(Action::FollowVote);
        assert_eq!(f.scenario.assignor, AssignorKind::Range);
        // a member that lists nothing in common is refused and does not vote
        let r = f.apply(Action::SetProtocols {
            index: 1,
            text: "sticky".into(),
        });
        assert_eq!(r.scenario.vote().refused[0].id, "b");
        // everything travels in the link
        let back = start(&to_fragment(&r.link_state()));
        assert_eq!(back.scenario, r.scenario);
        let l = r.apply(Action::SetLeaderClient(
            rebalance_lab_core::assignor::LeaderClient::Librdkafka,
        ));
        assert_eq!(start(&to_fragment(&l.link_state())).scenario, l.scenario);
    }

    #[test]
    fn removing_the_leader_hands_over_to_the_hash_map_first() {
        let s = start("v1;a=r;t=a*6;m=z***B,y***B,x***B");
        let h = leader_of(&s);
        assert_eq!(h.leader.as_deref(), Some("z"));
        assert_eq!(h.next_leader.as_deref(), Some("x"));
        let gone = s.apply(Action::RemoveMember(0));
        let h = leader_of(&gone);
        assert_eq!(h.leader.as_deref(), Some("x"), "not y, the second joiner");
        // the link carries the joins and leaves: reopened, x still leads (a group of y and
        // x that joined in list order would be led by y)
        let fragment = rebalance_lab_core::scenario::link::to_fragment(&gone.link_state());
        assert!(fragment.ends_with(";xj=+~z,+0,+1,-~z"), "{fragment}");
        let reopened = start(&fragment);
        assert_eq!(leader_of(&reopened).leader.as_deref(), Some("x"));
        assert_eq!(reopened.group_log, gone.group_log);
        let fresh = start(fragment.split(";xj=").next().unwrap());
        assert_eq!(leader_of(&fresh).leader.as_deref(), Some("y"));
        // a newcomer joins after: x still leads
        let more = gone.apply(Action::AddMember);
        assert_eq!(leader_of(&more).leader.as_deref(), Some("x"));
        assert_eq!(more.group_log.len(), 5);
        // a new group starts the log again, and without the previous group's pin
        let pinned = more.apply(Action::PinBaseline);
        assert!(pinned.baseline.is_some() && pinned.pinned.is_some());
        let preset = pinned.apply(Action::LoadPreset("round-robin"));
        assert!(preset.baseline.is_none() && preset.pinned.is_none());
        assert!(more
            .apply(Action::LoadPreset("seven-three"))
            .group_log
            .is_empty());
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Adding, removing or renaming one member (or setting the member count) leaves
        /// every other member's colour as it was, and no two members share a colour.
        #[test]
        fn colours_follow_members(n in 1usize..12, action in 0u8..4, at in 0usize..12, count in 0usize..14) {
            let ids: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
            let members: Vec<String> = ids.iter().map(|id| format!("{id}***B")).collect();
            let s = start(&format!("v1;a=r;t=t*7;m={}", members.join(",")));
            // start from colours that are not simply in order
            let s = s.apply(Action::RemoveMember(0)).apply(Action::AddMember);
            let before: Vec<(String, u32)> = s.scenario.members.iter().map(|m| (m.id.clone(), s.colour_of(&m.id))).collect();
            let at = at % s.scenario.members.len();
            let next = match action {
                0 => s.apply(Action::AddMember),
                1 => s.apply(Action::RemoveMember(at)),
                2 => s.apply(Action::RenameMember { index: at, id: "renamed".into() }),
                _ => s.apply(Action::SetMemberCount(count.to_string())),
            };
            for (id, c) in &before {
                if let Some(m) = next.scenario.members.iter().find(|m| &m.id == id) {
                    proptest::prop_assert_eq!(next.colour_of(&m.id), *c, "{}", id);
                }
            }
            if action == 2 {
                proptest::prop_assert_eq!(next.colour_of("renamed"), before[at].1);
            }
            let mut slots: Vec<u32> = next.scenario.members.iter().map(|m| next.colour_of(&m.id)).collect();
            slots.sort_unstable();
            slots.dedup();
            proptest::prop_assert_eq!(slots.len(), next.scenario.members.len());
            // and the link carries them (the page writes it without a copy of the scenario:
            // the same fragment)
            proptest::prop_assert_eq!(next.link_fragment(), to_fragment(&next.link_state()));
            let back = start(&to_fragment(&next.link_state()));
            for m in &next.scenario.members {
                proptest::prop_assert_eq!(back.colour_of(&m.id), next.colour_of(&m.id));
            }
        }
    }

    #[test]
    fn the_over_time_lesson_opens_each_step_s_timeline_and_leaving_gives_the_person_s_back() {
        let s = AppState::default().apply(Action::LessonStart("over-time"));
        assert_eq!(s.lesson.as_ref().unwrap().lesson.key, "over-time");
        assert!(s.timeline.is_some(), "the step's timeline is open");
        let back = s.apply(Action::LessonLeave);
        assert_eq!(back.timeline, None);
        // from the range lesson to this one
        let r = AppState::default()
            .apply(Action::LessonOpen)
            .apply(Action::LessonStart("over-time"));
        assert_eq!(r.lesson.as_ref().unwrap().lesson.key, "over-time");
        assert!(AppState::default()
            .apply(Action::LessonStart("nope"))
            .refusal
            .is_some());
        // each lesson keeps its place: range at step 3, then over time, then range again
        let r = AppState::default()
            .apply(Action::LessonOpen)
            .apply(Action::LessonGo(2))
            .apply(Action::LessonStart("over-time"))
            .apply(Action::LessonLeave)
            .apply(Action::LessonOpen);
        let on = r.lesson.as_ref().unwrap();
        assert_eq!((on.lesson.key, on.progress.step()), ("range", 2));
        assert_eq!(
            r.timeline, None,
            "the range lesson's step opens no timeline"
        );
    }
}
