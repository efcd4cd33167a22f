//! Where a learner is in a lesson and how their predictions went, in a compact text form
//! for the link.
//!
//! ```text
//! 4.rw-r
//! ```
//! - the step on screen, counting from 1 (`4`: "step 4 of 17"), in decimal without leading
//!   zeros;
//! - then, when any prediction was made, `.` and one character per step from the first:
//!   `r` right, `w` wrong, `-` not answered (or nothing to answer), or an upper-case letter:
//!   wrong, and the first check showed that common mistake ([`Mistake::letter`]: `N`
//!   numeric order, `A` arrival order, `G` one global range, `T` a topic without metadata,
//!   `U` an unsubscribed topic, `I` idle members left out, `L` an unsigned length). The
//!   writer leaves out trailing `-`; the reader accepts them.
//!
//! Every character is one the link writes as it is (`A-Z a-z 0-9 - . _`), so the form needs
//! no percent-encoding inside a link.

use super::{Lesson, Mistake};
use std::collections::BTreeMap;
use std::fmt;

/// The most steps a progress text may speak of (a guard against a link that would make the
/// app allocate without end; lessons are far shorter).
pub const MAX_PROGRESS_STEPS: usize = 1000;

/// How a step's prediction went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outcome {
    /// Not answered yet, or the step asks nothing.
    #[default]
    Unanswered,
    /// Answered right.
    Right,
    /// Answered wrong.
    Wrong,
}

impl Outcome {
    fn letter(self) -> char {
        match self {
            Outcome::Unanswered => '-',
            Outcome::Right => 'r',
            Outcome::Wrong => 'w',
        }
    }
}

/// Where a learner is in a lesson and how their predictions went.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Progress {
    /// The step on screen, counting from 0 (written counting from 1).
    step: usize,
    /// Per step from the first, how its prediction went; never ends with
    /// [`Outcome::Unanswered`].
    outcomes: Vec<Outcome>,
    /// The common mistake a wrong step's first check showed, by step.
    mistakes: BTreeMap<usize, Mistake>,
}

/// Why a progress text cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressError {
    /// Character index in the text where the problem is.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "progress, character {}: {}", self.position, self.message)
    }
}

impl std::error::Error for ProgressError {}

impl Progress {
    /// At `step` (counting from 0), with these outcomes per step (trailing unanswered ones
    /// dropped). `None` beyond [`MAX_PROGRESS_STEPS`].
    pub fn new(step: usize, mut outcomes: Vec<Outcome>) -> Option<Progress> {
        while outcomes.last() == Some(&Outcome::Unanswered) {
            outcomes.pop();
        }
        (step < MAX_PROGRESS_STEPS && outcomes.len() <= MAX_PROGRESS_STEPS).then_some(Progress {
            step,
            outcomes,
            mistakes: BTreeMap::new(),
        })
    }

    /// The step on screen, counting from 0.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Moves to `step` (counting from 0); `false` (and no move) beyond
    /// [`MAX_PROGRESS_STEPS`].
    pub fn go_to(&mut self, step: usize) -> bool {
        let ok = step < MAX_PROGRESS_STEPS;
        if ok {
            self.step = step;
        }
        ok
    }

    /// How step `step`'s prediction went.
    pub fn outcome(&self, step: usize) -> Outcome {
        self.outcomes.get(step).copied().unwrap_or_default()
    }

    /// The outcomes recorded, from the first step (without trailing unanswered ones).
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// Records how step `step`'s prediction went; `false` (and nothing recorded) beyond
    /// [`MAX_PROGRESS_STEPS`].
    pub fn record(&mut self, step: usize, outcome: Outcome) -> bool {
        if step >= MAX_PROGRESS_STEPS {
            return false;
        }
        if self.outcomes.len() <= step {
            self.outcomes.resize(step + 1, Outcome::Unanswered);
        }
        self.outcomes[step] = outcome;
        if outcome != Outcome::Wrong {
            self.mistakes.remove(&step);
        }
        while self.outcomes.last() == Some(&Outcome::Unanswered) {
            self.outcomes.pop();
        }
        true
    }

    /// The common mistake step `step`'s first check showed, when it was wrong and showed one.
    pub fn mistake(&self, step: usize) -> Option<Mistake> {
        self.mistakes.get(&step).copied()
    }

    /// Records that step `step`, answered wrong, showed `mistake` (nothing for a step not
    /// recorded wrong).
    pub fn record_mistake(&mut self, step: usize, mistake: Mistake) {
        if self.outcome(step) == Outcome::Wrong {
            self.mistakes.insert(step, mistake);
        }
    }

    /// (right, wrong) so far.
    pub fn tally(&self) -> (usize, usize) {
        let right = self
            .outcomes
            .iter()
            .filter(|o| **o == Outcome::Right)
            .count();
        let wrong = self
            .outcomes
            .iter()
            .filter(|o| **o == Outcome::Wrong)
            .count();
        (right, wrong)
    }

    /// Checks the progress against a lesson: its step and outcomes must be within the
    /// lesson's steps.
    pub fn fits(&self, lesson: &Lesson) -> Result<(), String> {
        let n = lesson.steps.len();
        if self.step >= n {
            return Err(format!(
                "step {} does not exist: \"{}\" has {n} steps",
                self.step + 1,
                lesson.title
            ));
        }
        if self.outcomes.len() > n {
            return Err(format!(
                "{} outcomes for the {n} steps of \"{}\"",
                self.outcomes.len(),
                lesson.title
            ));
        }
        Ok(())
    }

    /// Reads the text form (see the module's documentation).
    pub fn parse(text: &str) -> Result<Progress, ProgressError> {
        let err = |position: usize, message: String| ProgressError { position, message };
        let mut chars = text.chars().enumerate().peekable();
        let mut step: usize = 0;
        let mut digits = 0;
        while let Some((i, c)) = chars.peek().copied() {
            let Some(d) = c.to_digit(10) else { break };
            if digits == 0 && d == 0 {
                return Err(err(
                    i,
                    "steps count from 1, without leading zeros".to_string(),
                ));
            }
            step = step * 10 + d as usize;
            digits += 1;
            if step > MAX_PROGRESS_STEPS {
                return Err(err(
                    0,
                    format!("the step number is above the limit of {MAX_PROGRESS_STEPS}"),
                ));
            }
            chars.next();
        }
        if digits == 0 {
            return Err(match chars.peek() {
                None => err(0, "empty: expected a step number such as 4".to_string()),
                Some((i, c)) => err(*i, format!("expected a step number, found '{c}'")),
            });
        }
        let mut outcomes = Vec::new();
        let mut mistakes = BTreeMap::new();
        match chars.next() {
            None => {}
            Some((_, '.')) => {
                for (i, c) in chars {
                    let o = match c {
                        'r' => Outcome::Right,
                        'w' => Outcome::Wrong,
                        '-' => Outcome::Unanswered,
                        _ => match Mistake::from_letter(c) {
                            Some(m) => {
                                mistakes.insert(outcomes.len(), m);
                                Outcome::Wrong
                            }
                            None => {
                                return Err(err(
                                    i,
                                    format!(
                                    "'{c}' is not an outcome: r (right), w (wrong), - (not answered) or a mistake's letter (N, A, G, T, U, I, L)"
                                ),
                                ))
                            }
                        },
                    };
                    if outcomes.len() == MAX_PROGRESS_STEPS {
                        return Err(err(i, format!("more than {MAX_PROGRESS_STEPS} outcomes")));
                    }
                    outcomes.push(o);
                }
            }
            Some((i, c)) => {
                return Err(err(
                    i,
                    format!("expected '.' and the outcomes after the step number, found '{c}'"),
                ))
            }
        }
        let mut p = Progress::new(step - 1, outcomes).ok_or_else(|| {
            err(
                0,
                format!("the step number is above the limit of {MAX_PROGRESS_STEPS}"),
            )
        })?;
        p.mistakes = mistakes;
        Ok(p)
    }
}

impl fmt::Display for Progress {
    /// The text form (see the module's documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.step + 1)?;
        if !self.outcomes.is_empty() {
            f.write_str(".")?;
            for (k, o) in self.outcomes.iter().enumerate() {
                match self.mistake(k) {
                    Some(m) => write!(f, "{}", m.letter())?,
                    None => write!(f, "{}", o.letter())?,
                }
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Progress {
    type Err = ProgressError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Progress::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrong step keeps the mistake its first check showed, in the link's letters; a step
    /// recorded otherwise later loses it; an unknown letter is refused where it is.
    #[test]
    fn a_wrong_step_keeps_its_mistake() {
        let mut p = Progress::parse("9.rw").unwrap();
        p.record(8, Outcome::Wrong);
        p.record_mistake(8, Mistake::TopicWithoutMetadata);
        p.record_mistake(0, Mistake::NumericOrder);
        assert_eq!(p.to_string(), "9.rw------T");
        let back = Progress::parse(&p.to_string()).unwrap();
        assert_eq!(back, p);
        assert_eq!(back.mistake(8), Some(Mistake::TopicWithoutMetadata));
        assert_eq!(back.outcome(8), Outcome::Wrong);
        assert_eq!(back.mistake(0), None, "a right step has no mistake");
        assert_eq!(back.tally(), (1, 2));
        for m in Mistake::ALL {
            assert_eq!(Mistake::from_letter(m.letter()), Some(m));
        }
        let e = Progress::parse("3.rZ").unwrap_err();
        assert_eq!(e.position, 3);
        assert!(e.message.contains("a mistake's letter"), "{e}");
        let mut q = back.clone();
        q.record(8, Outcome::Right);
        assert_eq!(q.mistake(8), None);
    }

    #[test]
    fn reads_and_writes() {
        let p = Progress::parse("4.rw-r").unwrap();
        assert_eq!(p.step(), 3);
        assert_eq!(
            p.outcomes(),
            [
                Outcome::Right,
                Outcome::Wrong,
                Outcome::Unanswered,
                Outcome::Right
            ]
        );
        assert_eq!(p.to_string(), "4.rw-r");
        assert_eq!(Progress::parse("1").unwrap(), Progress::default());
        assert_eq!(Progress::parse("2.r--").unwrap().to_string(), "2.r");
        assert_eq!(Progress::parse("2.").unwrap().to_string(), "2");
    }

    #[test]
    fn refuses_with_where() {
        let cases = [
            ("", 0, "empty"),
            ("x", 0, "step number"),
            ("0", 0, "count from 1"),
            ("04", 0, "count from 1"),
            ("3:r,w", 1, "'.'"),
            ("3.rx", 3, "'x' is not an outcome"),
            ("3.r\u{e9}", 3, "not an outcome"),
            ("99999999999999999999999", 0, "above the limit"),
            ("1001", 0, "above the limit"),
        ];
        for (text, at, want) in cases {
            let e = Progress::parse(text).expect_err(text);
            assert_eq!(e.position, at, "{text}: {e}");
            assert!(e.message.contains(want), "{text}: {e}");
        }
        let long = format!("1.{}", "r".repeat(MAX_PROGRESS_STEPS + 1));
        let e = Progress::parse(&long).unwrap_err();
        assert_eq!(e.position, 2 + MAX_PROGRESS_STEPS);
    }

    #[test]
    fn record_keeps_the_form_canonical() {
        let mut p = Progress::default();
        assert!(p.record(2, Outcome::Wrong));
        assert!(p.go_to(3));
        assert_eq!(p.to_string(), "4.--w");
        assert!(p.record(2, Outcome::Unanswered));
        assert_eq!(p.to_string(), "4");
        assert!(!p.record(MAX_PROGRESS_STEPS, Outcome::Right));
        assert!(!p.go_to(MAX_PROGRESS_STEPS));
    }
}
