//! The one reducer that owns the app state. Pure: clone, change, return. Each action
//! belongs to an area, whose module changes the state and says what it did ([`Outcome`]);
//! [`AppState::apply`] finishes the state from that. The URL and local storage are effects
//! at the edge (see `hooks`), never in here.

mod bytes;
mod group;
mod group_shown;
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

/// [`Shown`] of a value that names its fields as [`AppState`] and [`OwnGroup`] both do.
macro_rules! shown {
    ($g:expr) => {
        Shown {
            scenario: &$g.scenario,
            baseline: &$g.baseline,
            pinned: &$g.pinned,
            colours: &$g.colours,
            group_log: &$g.group_log,
            imported: &$g.imported,
            hex_drafts: &$g.hex_drafts,
            versions: &$g.versions,
            timeline: $g.timeline.clone(),
        }
    };
}

/// A group and what the page shows of it, borrowed: what a link is written from (the group
/// on screen, or the person's own kept while the story or a lesson shows its own).
struct Shown<'a> {
    scenario: &'a Scenario,
    baseline: &'a Option<Baseline>,
    pinned: &'a Option<(Scenario, Vec<(String, String)>)>,
    colours: &'a Colours,
    group_log: &'a [GroupEvent],
    imported: &'a Option<Rc<Imported>>,
    hex_drafts: &'a BTreeMap<String, String>,
    versions: &'a BTreeMap<String, i16>,
    timeline: Option<rebalance_lab_core::timeline::spec::Spec>,
}

impl Shown<'_> {
    /// The link's sections of this group, with a default scenario in place of its own (the
    /// writer reads the scenario where it is: not copied).
    fn link_parts(&self) -> LinkState {
        let hex_drafts = by_index(self.scenario, self.hex_drafts)
            .into_iter()
            .filter(|(_, t)| hex::parse_hex(t).is_err())
            .collect();
        LinkState {
            scenario: Scenario::default(),
            versions: by_index(self.scenario, self.versions),
            baseline: self.baseline.clone().map(Ok),
            pinned: self.pinned.clone(),
            timeline: self.timeline.clone(),
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
            group_log: self.group_log.to_vec(),
            lag: self.imported.as_ref().map(|i| i.lag.clone()),
            printed: self.imported.as_ref().map(|i| i.printed.clone()),
            ..LinkState::default()
        }
    }
}

impl OwnGroup {
    fn shown(&self) -> Shown<'_> {
        shown!(self)
    }
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
            timeline: self.timeline.clone(),
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
    pub printed: rebalance_lab_core::import::Printed,
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
        LinkState {
            story_step: self.story_step,
            lesson: self
                .lesson
                .as_ref()
                .map(|on| (on.lesson.key, on.progress.clone())),
            // (the person's group, kept while the story or a lesson shows its own: a reload
            // or a shared link brings it back when they leave)
            own: self.own_group.as_ref().map(|own| {
                Box::new(LinkState {
                    scenario: (*own.scenario).clone(),
                    ..own.shown().link_parts()
                })
            }),
            ..self.shown().link_parts()
        }
    }

    /// The group on screen and what the page shows of it, borrowed.
    fn shown(&self) -> Shown<'_> {
        shown!(self)
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
mod tests;
