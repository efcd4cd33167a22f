//! The learner's side of a lesson step, plain Rust tested natively: what they entered
//! (cells picked in the grid, counts typed, the option chosen), kept in the app's state, and
//! the prediction it makes for the step's question. The panel is
//! `crate::components::lesson`.

use rebalance_lab_core::lesson::{self, Feedback, Prediction, Question};

/// What the learner entered on a step: cells picked in the grid, counts typed per member
/// id, the option chosen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entered {
    /// Cells picked: (topic, partition).
    pub cells: Vec<(String, u32)>,
    /// (member id, what was typed).
    pub counts: Vec<(String, String)>,
    /// The option chosen (its place in the list).
    pub choice: Option<usize>,
}

impl Entered {
    /// Picks a cell, or lets it go when it was picked.
    pub fn pick(&mut self, topic: &str, partition: u32) {
        match self
            .cells
            .iter()
            .position(|(t, p)| t == topic && *p == partition)
        {
            Some(i) => {
                self.cells.remove(i);
            }
            None => self.cells.push((topic.to_string(), partition)),
        }
    }

    /// What was typed for `member`, replacing what was there.
    pub fn count(&mut self, member: &str, text: String) {
        match self.counts.iter_mut().find(|(m, _)| m == member) {
            Some((_, t)) => *t = text,
            None => self.counts.push((member.to_string(), text)),
        }
    }

    /// What was typed for `member` so far.
    pub fn typed(&self, member: &str) -> &str {
        self.counts
            .iter()
            .find(|(m, _)| m == member)
            .map_or("", |(_, t)| t.as_str())
    }
}

/// The prediction `entered` makes for question `q` (counts asked of `members`, in the
/// step's order), or what is missing or wrong in it.
pub fn prediction(q: &Question, members: &[&str], entered: &Entered) -> Result<Prediction, String> {
    match q {
        Question::Cells { .. } => {
            if entered.cells.is_empty() {
                return Err("Pick at least one cell in the grid first (click it, or focus it and press Space).".into());
            }
            Ok(Prediction::Cells(entered.cells.clone()))
        }
        Question::Counts => {
            let mut counts = Vec::new();
            for m in members {
                let t = entered.typed(m).trim();
                let n: u32 = match t.parse() {
                    Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => n,
                    _ if t.is_empty() => {
                        return Err(format!("Type how many partitions {m} gets (0 for none)."))
                    }
                    _ => {
                        return Err(format!(
                            "\"{t}\" for {m} is not a count: type a whole number, 0 or more."
                        ))
                    }
                };
                counts.push((m.to_string(), n));
            }
            Ok(Prediction::Counts(counts))
        }
        Question::Choice { options, .. } => entered
            .choice
            .filter(|i| *i < options.len())
            .map(Prediction::Choice)
            .ok_or_else(|| "Pick one of the answers first.".to_string()),
    }
}

/// How a check went, in one word or two.
pub fn verdict(f: &Feedback) -> &'static str {
    if f.right {
        "Right."
    } else {
        "Not quite."
    }
}

/// What the page's live region says of a check: its verdict and summary.
pub fn said(f: &Feedback) -> String {
    format!("{} {}", verdict(f), f.summary)
}

/// A feedback item's verdict as the page marks it.
pub fn item_verdict(v: lesson::Verdict) -> &'static str {
    match v {
        lesson::Verdict::Right => "right",
        lesson::Verdict::Wrong => "wrong",
        lesson::Verdict::Missed => "missed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rebalance_lab_core::lesson::{check, LoadedStep, LESSONS};

    fn entered_counts(pairs: &[(&str, &str)]) -> Entered {
        let mut e = Entered::default();
        for (m, t) in pairs {
            e.count(m, t.to_string());
        }
        e
    }

    /// The counts step: what was typed is read per member, in the step's order, a bad or
    /// missing entry says what and whose, and the check of the right counts is right.
    #[test]
    fn counts_are_read_and_checked() {
        let step = LESSONS[0]
            .steps
            .iter()
            .find(|s| s.key == "range-counts")
            .unwrap();
        let loaded = LoadedStep::load(step).unwrap();
        let q = step.question.unwrap();
        let members = ["consumer-a", "consumer-b", "consumer-c"];
        let p = prediction(
            &q,
            &members,
            &entered_counts(&[
                ("consumer-c", "2"),
                ("consumer-a", " 3"),
                ("consumer-b", "2"),
            ]),
        )
        .unwrap();
        assert!(check(&loaded, &p).right);
        let p = prediction(
            &q,
            &members,
            &entered_counts(&[
                ("consumer-c", "3"),
                ("consumer-a", "2"),
                ("consumer-b", "2"),
            ]),
        )
        .unwrap();
        assert!(!check(&loaded, &p).right);
        for (typed, says) in [
            ("", "Type how many partitions consumer-a gets"),
            ("-1", "\"-1\" for consumer-a is not a count"),
            ("2.5", "not a count"),
            ("99999999999", "not a count"),
        ] {
            let e =
                prediction(&q, &members, &entered_counts(&[("consumer-a", typed)])).unwrap_err();
            assert!(e.contains(says), "{typed}: {e}");
        }
        // a member left blank is asked for, by name, even when the others are filled
        let e = prediction(
            &q,
            &members,
            &entered_counts(&[("consumer-a", "3"), ("consumer-c", "2")]),
        )
        .unwrap_err();
        assert!(e.contains("consumer-b"), "{e}");
    }

    /// Cells and choices: nothing picked is asked for again, a picked option or cell
    /// becomes the prediction, and picking a cell twice lets it go.
    #[test]
    fn cells_and_choices_are_read() {
        let cells = Question::Cells { member: "C0" };
        assert!(prediction(&cells, &[], &Entered::default())
            .unwrap_err()
            .contains("Pick at least one cell"));
        let mut e = Entered::default();
        e.pick("t0", 1);
        e.pick("t1", 2);
        e.pick("t0", 1);
        assert_eq!(
            prediction(&cells, &[], &e).unwrap(),
            Prediction::Cells(vec![("t1".into(), 2)])
        );
        let step = &LESSONS[0].steps[0];
        let q = step.question.unwrap();
        assert!(prediction(&q, &[], &Entered::default()).is_err());
        let e = Entered {
            choice: Some(9),
            ..Default::default()
        };
        assert!(prediction(&q, &[], &e).is_err(), "an option past the list");
        let e = Entered {
            choice: Some(1),
            ..Default::default()
        };
        let p = prediction(&q, &[], &e).unwrap();
        let loaded = LoadedStep::load(step).unwrap();
        assert!(check(&loaded, &p).right, "one of 3 members sits idle");
    }
}
