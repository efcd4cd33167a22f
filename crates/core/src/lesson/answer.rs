//! A step read and validated once ([`LoadedStep::load`]), and its answers: the real one
//! from the assignor, the wrong ones from the rules in [`super::mistakes`].

use super::step::{field_value, LoadedStep, Owners};
use super::Prediction;
use super::{mistakes, Fact, Highlight, LessonError, Mistake, Question, Step};
use crate::protocol::decode_subscription;
use crate::scenario::link::from_fragment;
use crate::scenario::Scenario;

/// Whose rule computes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The real assignor of the step's group.
    Real,
    /// A common mistake's deliberately wrong rule.
    Mistake(Mistake),
}

/// The answer to a step's question, under some rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The cells the member owns, topic by topic.
    Cells(Vec<(String, u32)>),
    /// Partitions per member, for every member the result lists, in the group's order.
    Counts(Vec<(String, u32)>),
    /// The fact as it reads, and the option that reads so (`None`: no option does).
    Choice {
        /// The option's index.
        index: Option<usize>,
        /// The computed fact.
        value: String,
    },
}

impl Answer {
    /// The prediction that gives exactly this answer (`None` for a choice no option reads
    /// as).
    pub fn as_prediction(&self) -> Option<Prediction> {
        match self {
            Answer::Cells(c) => Some(Prediction::Cells(c.clone())),
            Answer::Counts(c) => Some(Prediction::Counts(c.clone())),
            Answer::Choice { index, .. } => index.map(Prediction::Choice),
        }
    }
}

fn read(step: &Step, what: &str, fragment: &str) -> Result<Scenario, LessonError> {
    Ok(read_link(step, what, fragment)?.0)
}

/// A step's group and the timeline its link carries.
fn read_link(
    step: &Step,
    what: &str,
    fragment: &str,
) -> Result<(Scenario, Option<crate::timeline::spec::Spec>), LessonError> {
    let err = |message: String| LessonError {
        step: step.key,
        message,
    };
    let link = from_fragment(fragment).map_err(|e| err(format!("{what}: {e}")))?;
    if let Some(p) = link.scenario.problems().first() {
        return Err(err(format!("{what}: {p}")));
    }
    Ok((link.scenario, link.timeline))
}

fn real_owners(step: &Step, s: &Scenario) -> Result<Owners, LessonError> {
    let (input, a) = s.assign(s.assignor).ok_or_else(|| LessonError {
        step: step.key,
        message: format!(
            "the {} assignor is not run by this version",
            s.assignor.name()
        ),
    })?;
    Ok(Owners::of_assignment(&input, &a))
}

impl LoadedStep {
    /// Reads a step's groups, computes the real assignment, and checks that everything the
    /// step names exists, that exactly one option of a choice is right, and that a named
    /// mistake's rule really gives another answer on this step.
    pub fn load(step: &Step) -> Result<LoadedStep, LessonError> {
        let (scenario, timeline) = read_link(step, "scenario", step.scenario)?;
        let before = step.before.map(|b| read(step, "before", b)).transpose()?;
        let owners = real_owners(step, &scenario)?;
        let before_owners = before.as_ref().map(|b| real_owners(step, b)).transpose()?;
        let loaded = LoadedStep {
            step: *step,
            input: scenario.group_input(),
            scenario,
            before,
            owners,
            before_owners,
            timeline,
        };
        loaded.validate()?;
        Ok(loaded)
    }

    fn err(&self, message: impl Into<String>) -> LessonError {
        LessonError {
            step: self.step.key,
            message: message.into(),
        }
    }

    fn has_member(&self, id: &str) -> bool {
        self.scenario.members.iter().any(|m| m.id == id)
    }

    fn has_topic(&self, name: &str) -> bool {
        self.scenario.topic_index(name).is_some()
            || self
                .input
                .members
                .iter()
                .any(|m| m.topics.iter().any(|t| t == name))
    }

    fn field_exists(&self, member: &str, path: &str) -> Result<(), LessonError> {
        let bytes = self.bytes_of(member).ok_or_else(|| {
            self.err(format!(
                "member \"{member}\" has no subscription bytes to point into"
            ))
        })?;
        let d = decode_subscription(bytes);
        if d.fields.iter().any(|f| f.path.to_string() == path) {
            Ok(())
        } else {
            Err(self.err(format!(
                "member \"{member}\"'s bytes have no field \"{path}\""
            )))
        }
    }

    fn validate(&self) -> Result<(), LessonError> {
        for h in self.step.highlights {
            match *h {
                Highlight::Member(m) if !self.has_member(m) => {
                    return Err(self.err(format!("highlight: no member \"{m}\"")));
                }
                Highlight::Topic(t) if !self.has_topic(t) => {
                    return Err(self.err(format!("highlight: no topic \"{t}\"")));
                }
                Highlight::Partitions { topic, .. } if !self.has_topic(topic) => {
                    return Err(self.err(format!("highlight: no topic \"{topic}\"")));
                }
                Highlight::Partitions { topic, partitions } => {
                    let n = self
                        .scenario
                        .topic_index(topic)
                        .map_or(0, |i| self.scenario.topics[i].partitions);
                    if let Some(p) = partitions.iter().find(|p| **p >= n) {
                        return Err(
                            self.err(format!("highlight: topic \"{topic}\" has no partition {p}"))
                        );
                    }
                }
                Highlight::Field { member, path } => self.field_exists(member, path)?,
                Highlight::Bytes { member, start, end } => {
                    let len = self.bytes_of(member).map_or(0, <[u8]>::len);
                    if start >= end || end > len {
                        return Err(self.err(format!(
                            "highlight: bytes {start}..{end} are not within member \"{member}\"'s {len} bytes"
                        )));
                    }
                }
                _ => {}
            }
        }
        let Some(q) = self.step.question else {
            if self.step.mistake.is_some() {
                return Err(self.err("a mistake step needs a question to show its answers"));
            }
            return Ok(());
        };
        match q {
            Question::Cells { member } if !self.has_member(member) => {
                return Err(self.err(format!("question: no member \"{member}\"")));
            }
            Question::Choice { fact, options, .. } => {
                match fact {
                    // A partition of a topic missing from the metadata is a fair question
                    // (nobody owns it); a topic nobody has heard of is a typo.
                    Fact::Owner { topic, .. } if !self.has_topic(topic) => {
                        return Err(self.err(format!("question: no topic \"{topic}\"")));
                    }
                    Fact::Total { member } if !self.has_member(member) => {
                        return Err(self.err(format!("question: no member \"{member}\"")));
                    }
                    Fact::Moved if self.before.is_none() => {
                        return Err(self.err("question: \"moved\" needs a before group"));
                    }
                    Fact::Timeline(_) if self.timeline.is_none() => {
                        return Err(self.err(
                            "question: a timeline fact needs a timeline (xt) in the step's link",
                        ));
                    }
                    Fact::Field { member, path } => self.field_exists(member, path)?,
                    _ => {}
                }
                for (i, o) in options.iter().enumerate() {
                    if options[..i].contains(o) {
                        return Err(self.err(format!("option \"{o}\" is given twice")));
                    }
                }
                if let Some(Answer::Choice { index: None, value }) = self.answer() {
                    return Err(self.err(format!(
                        "no option reads as the computed answer \"{value}\""
                    )));
                }
            }
            _ => {}
        }
        if let Some(m) = self.step.mistake {
            let wrong = answer_under(self, Rule::Mistake(m));
            if wrong == self.answer() {
                return Err(self.err(format!(
                    "the wrong rule for {} gives the right answer here",
                    m.name()
                )));
            }
            if let Some(Answer::Choice { index: None, value }) = wrong {
                return Err(self.err(format!(
                    "no option reads as {}'s answer \"{value}\"",
                    m.name()
                )));
            }
        }
        Ok(())
    }

    /// The right answer (`None` when the step asks nothing).
    pub fn answer(&self) -> Option<Answer> {
        answer_under(self, Rule::Real)
    }

    /// The named mistake's wrong answer, to show beside the right one.
    pub fn wrong_answer(&self) -> Option<(Mistake, Answer)> {
        let m = self.step.mistake?;
        Some((m, answer_under(self, Rule::Mistake(m))?))
    }

    /// Who owns what under `rule`, in the step's group (after the change, for a what-if).
    pub fn owners_under(&self, rule: Rule) -> Owners {
        match rule {
            Rule::Real => self.owners.clone(),
            Rule::Mistake(m) => {
                mistakes::owners(m, &self.input).unwrap_or_else(|| self.owners.clone())
            }
        }
    }

    fn before_owners_under(&self, rule: Rule) -> Option<Owners> {
        match rule {
            Rule::Real => self.before_owners.clone(),
            Rule::Mistake(m) => {
                let b = self.before.as_ref()?;
                Some(mistakes::owners(m, &b.group_input()).or_else(|| self.before_owners.clone())?)
            }
        }
    }

    /// A fact as it reads under `rule` (`None` when the step lacks what it needs).
    pub fn fact_under(&self, fact: Fact, rule: Rule) -> Option<String> {
        let owners = self.owners_under(rule);
        Some(match fact {
            Fact::Owner { topic, partition } => owners
                .owner(topic, partition)
                .unwrap_or("nobody")
                .to_string(),
            Fact::Total { member } => owners.count_of(member).unwrap_or(0).to_string(),
            Fact::Idle => owners.idle().len().to_string(),
            Fact::Moved => owners
                .moved_since(&self.before_owners_under(rule)?)
                .to_string(),
            Fact::Timeline(fact) => {
                let spec = self.timeline.as_ref()?;
                let group = crate::timeline::Group::of_scenario(&self.scenario);
                let run = crate::timeline::simulate(&group, &spec.settings, &spec.story).ok()?;
                fact.reads(&run.costs)
            }
            Fact::Field { member, path } => {
                let bytes = self.bytes_of(member)?;
                match rule {
                    Rule::Mistake(Mistake::UnsignedLength) => {
                        mistakes::unsigned_length(bytes, path)?
                    }
                    _ => field_value(bytes, path)?,
                }
            }
        })
    }
}

/// The answer to the step's question under `rule` (`None` when the step asks nothing).
pub fn answer_under(step: &LoadedStep, rule: Rule) -> Option<Answer> {
    let q = step.step.question?;
    let owners = step.owners_under(rule);
    Some(match q {
        Question::Cells { member } => Answer::Cells(owners.cells_of(member)),
        Question::Counts => Answer::Counts(
            owners
                .members
                .iter()
                .map(|m| (m.clone(), owners.count_of(m).unwrap_or(0)))
                .collect(),
        ),
        Question::Choice { fact, options, .. } => {
            let value = step.fact_under(fact, rule)?;
            Answer::Choice {
                index: options.iter().position(|o| *o == value),
                value,
            }
        }
    })
}
