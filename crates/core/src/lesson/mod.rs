//! Lessons as data, and their checks.
//!
//! A lesson is a list of [`Step`]s, written as plain data (see [`range::RANGE`]): a title, a
//! short text, the step's group as a link fragment (the app's link format, read with
//! [`crate::scenario::link::from_fragment`]), what to highlight, and optionally a
//! [`Question`] whose answer is computed from that group by the real assignor, never
//! written down. A teacher adds a lesson by adding such a list to [`LESSONS`]; no component
//! changes.
//!
//! A step that shows a common mistake names it ([`Mistake`]): its wrong answer comes from a
//! deliberately wrong rule in [`mistakes`], shown beside the right one, and [`check`] uses
//! those rules to say *why* a prediction is wrong, in the lesson's words.
//!
//! [`LoadedStep::load`] reads and validates a step once (the app memoises it); [`check`]
//! then compares a [`Prediction`] with the answer. [`Progress`] is where a learner is and
//! how their predictions went, in a compact form for the link.

mod answer;
mod check;
pub mod mistakes;
pub mod over_time;
mod progress;
pub mod range;
mod step;

pub use answer::{answer_under, Answer, Rule};
pub use check::{check, describe, Feedback, Item, Verdict};
pub use progress::{Outcome, Progress, ProgressError, MAX_PROGRESS_STEPS};
pub use step::{LoadedStep, Owners};

use std::fmt;

/// What a learner predicted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prediction {
    /// The cells clicked: (topic, partition).
    Cells(Vec<(String, u32)>),
    /// The count typed per member id.
    Counts(Vec<(String, u32)>),
    /// The option picked (its index).
    Choice(usize),
}

/// A lesson: a key for links, a title, and its steps in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// Stable key (in links and tests).
    pub key: &'static str,
    /// Title.
    pub title: &'static str,
    /// The steps, in order.
    pub steps: &'static [Step],
}

/// Every lesson, in the order the app offers them.
pub const LESSONS: &[Lesson] = &[range::RANGE, over_time::OVER_TIME];

/// A lesson by key.
pub fn lesson(key: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.key == key)
}

/// One step of a lesson, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Stable key, unique in its lesson.
    pub key: &'static str,
    /// Title.
    pub title: &'static str,
    /// A few sentences.
    pub text: &'static str,
    /// The group this step shows, as a link fragment (`v1;a=r;t=...;m=...`). For a what-if
    /// step, the group after the change.
    pub scenario: &'static str,
    /// A what-if step's group before the change: the app pins it, then applies
    /// [`Step::scenario`]. `None` for a plain step.
    pub before: Option<&'static str>,
    /// What the app lights up.
    pub highlights: &'static [Highlight],
    /// The prediction asked for, if any.
    pub question: Option<Question>,
    /// The common mistake this step shows: its wrong answer is shown beside the right one.
    pub mistake: Option<Mistake>,
}

/// Something the app lights up in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlight {
    /// A member, by member id.
    Member(&'static str),
    /// A topic, by name.
    Topic(&'static str),
    /// Some partitions of a topic.
    Partitions {
        /// Topic name.
        topic: &'static str,
        /// Partition numbers.
        partitions: &'static [u32],
    },
    /// A field of a member's subscription bytes, by its path in the bytes view
    /// ([`crate::protocol::Field::path`] written out: `version`, `topics`, `topics[0]`,
    /// `user_data`, `owned_partitions[0].topic`, ...). The member must carry raw bytes.
    Field {
        /// Member id.
        member: &'static str,
        /// Field path.
        path: &'static str,
    },
    /// Bytes `start..end` of a member's raw subscription bytes.
    Bytes {
        /// Member id.
        member: &'static str,
        /// First byte.
        start: usize,
        /// One past the last byte.
        end: usize,
    },
}

/// A prediction the step asks for. Its answer is computed from the step's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// "Click the cells `member` will own": the answer is a set of (topic, partition).
    Cells {
        /// Member id.
        member: &'static str,
    },
    /// "Type how many partitions each member gets": the answer is a count per member,
    /// every member included (idle ones get 0).
    Counts,
    /// Multiple choice: the right option is the one that reads exactly as `fact` computed.
    Choice {
        /// The question.
        prompt: &'static str,
        /// What is computed.
        fact: Fact,
        /// The options, each as the computed fact would read.
        options: &'static [&'static str],
    },
}

impl Question {
    /// The question as the learner reads it.
    pub fn prompt(&self) -> String {
        match self {
            Question::Cells { member } => format!("Click the cells {member} will own."),
            Question::Counts => "Type how many partitions each member gets.".to_string(),
            Question::Choice { prompt, .. } => prompt.to_string(),
        }
    }
}

/// A fact computed from a step's group, for a multiple-choice question. How each reads:
/// numbers in decimal, member ids as they are, `nobody` for an unowned partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// Who owns this partition (a member id, or `nobody`).
    Owner {
        /// Topic name.
        topic: &'static str,
        /// Partition number.
        partition: u32,
    },
    /// How many partitions this member gets in all.
    Total {
        /// Member id.
        member: &'static str,
    },
    /// How many members get nothing.
    Idle,
    /// What-if: how many partitions owned both before and after change owner.
    Moved,
    /// A total of the timeline the step's link carries (`xt`), run on the step's group.
    Timeline(TimelineFact),
    /// The value of a field of a member's subscription bytes: a number for ints and for
    /// arrays (their element count), the text for strings, `null`, or `N bytes`.
    Field {
        /// Member id.
        member: &'static str,
        /// Field path, as in [`Highlight::Field`].
        path: &'static str,
    },
}

/// A total of a timeline run, as a multiple-choice fact reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineFact {
    /// Rebalances begun during the story.
    Rebalances,
    /// The longest stop of one partition, in whole seconds (rounded).
    LongestPartitionStop,
    /// The longest time no partition was consumed, in whole seconds (rounded).
    LongestGroupStop,
    /// Records read twice.
    RecordsReadTwice,
}

impl TimelineFact {
    /// How the fact reads for these costs.
    pub fn reads(self, c: &crate::timeline::Costs) -> String {
        let secs = |ms: i64| ((ms + 500) / 1000).to_string();
        match self {
            TimelineFact::Rebalances => c.rebalances.to_string(),
            TimelineFact::LongestPartitionStop => secs(c.longest_partition_stop_ms),
            TimelineFact::LongestGroupStop => secs(c.longest_group_stop_ms),
            TimelineFact::RecordsReadTwice => c.records_read_twice.to_string(),
        }
    }
}

/// The common mistakes the range lesson warns about, each with a deliberately wrong rule in
/// [`mistakes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// Members sorted by the numbers in their ids ([`mistakes::numeric_order`]).
    NumericOrder,
    /// Members taken in the order they joined ([`mistakes::arrival_order`]).
    ArrivalOrder,
    /// One range across all topics instead of one per topic ([`mistakes::one_global_range`]).
    OneGlobalRange,
    /// A subscribed topic missing from the metadata assigned anyway
    /// ([`mistakes::assign_unknown_topics`]).
    TopicWithoutMetadata,
    /// Topics split over every member, subscribed or not ([`mistakes::ignore_subscriptions`]).
    UnsubscribedTopic,
    /// Members with nothing assigned left out of the result ([`mistakes::forget_idle`]).
    ForgetIdle,
    /// Lengths read as unsigned, so `ff ff ff ff` is not null ([`mistakes::unsigned_length`]).
    UnsignedLength,
}

impl Mistake {
    /// Every mistake, in the order [`check`] tries them when explaining a wrong answer.
    pub const ALL: [Mistake; 7] = [
        Mistake::NumericOrder,
        Mistake::ArrivalOrder,
        Mistake::OneGlobalRange,
        Mistake::TopicWithoutMetadata,
        Mistake::UnsubscribedTopic,
        Mistake::ForgetIdle,
        Mistake::UnsignedLength,
    ];

    /// Its letter in a link's lesson progress (a step answered wrong with this mistake).
    pub fn letter(self) -> char {
        match self {
            Mistake::NumericOrder => 'N',
            Mistake::ArrivalOrder => 'A',
            Mistake::OneGlobalRange => 'G',
            Mistake::TopicWithoutMetadata => 'T',
            Mistake::UnsubscribedTopic => 'U',
            Mistake::ForgetIdle => 'I',
            Mistake::UnsignedLength => 'L',
        }
    }

    /// The mistake of a letter written by [`Mistake::letter`].
    pub fn from_letter(c: char) -> Option<Mistake> {
        Mistake::ALL.into_iter().find(|m| m.letter() == c)
    }

    /// A short name for the mistake, as the lesson lists it.
    pub fn name(self) -> &'static str {
        match self {
            Mistake::NumericOrder => "sorting members numerically",
            Mistake::ArrivalOrder => "taking members in arrival order",
            Mistake::OneGlobalRange => "one global assignment instead of one per topic",
            Mistake::TopicWithoutMetadata => "assigning a topic without metadata",
            Mistake::UnsubscribedTopic => "giving a member a topic it did not subscribe to",
            Mistake::ForgetIdle => "forgetting members with nothing assigned",
            Mistake::UnsignedLength => "reading lengths as unsigned",
        }
    }
}

/// Why a step cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonError {
    /// The step's key.
    pub step: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lesson step \"{}\": {}", self.step, self.message)
    }
}

impl std::error::Error for LessonError {}
