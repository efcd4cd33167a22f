//! The lesson's panel as markup, and a prediction read from what the learner typed or
//! picked. Plain Rust (no web dependency), tested natively: the page's buttons and inputs
//! here are run by the app's one listener (`data-app`), which reads the inputs back with
//! [`prediction`].

use super::markup::escape_into;
use super::state::LessonOn;
use rebalance_lab_core::lesson::{
    self, Answer, LessonError, LoadedStep, Outcome, Prediction, Question,
};

/// What the learner entered, as the page found it: cells picked in the grid (topic,
/// partition number as written), counts typed per member id, the option checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entered {
    /// Cells picked: (topic, partition).
    pub cells: Vec<(String, String)>,
    /// (member id, what was typed).
    pub counts: Vec<(String, String)>,
    /// The value of the option checked.
    pub choice: Option<String>,
}

/// The prediction `entered` makes for question `q`, or what is missing or wrong in it.
pub fn prediction(q: &Question, entered: &Entered) -> Result<Prediction, String> {
    match q {
        Question::Cells { .. } => {
            let mut cells = Vec::new();
            for (t, p) in &entered.cells {
                let p = p
                    .parse()
                    .map_err(|_| format!("cell \"{t}\" partition \"{p}\" is not a number"))?;
                cells.push((t.clone(), p));
            }
            if cells.is_empty() {
                return Err("Pick at least one cell in the grid first (click it, or focus it and press Space).".into());
            }
            Ok(Prediction::Cells(cells))
        }
        Question::Counts => {
            let mut counts = Vec::new();
            for (m, text) in &entered.counts {
                let t = text.trim();
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
                counts.push((m.clone(), n));
            }
            Ok(Prediction::Counts(counts))
        }
        Question::Choice { options, .. } => entered
            .choice
            .as_ref()
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|i| *i < options.len())
            .map(Prediction::Choice)
            .ok_or_else(|| "Pick one of the answers first.".to_string()),
    }
}

/// How a check went, in one word or two.
fn verdict(f: &lesson::Feedback) -> &'static str {
    if f.right {
        "Right."
    } else {
        "Not quite."
    }
}

/// What the page's live region says of a check: its verdict and summary.
pub fn said(f: &lesson::Feedback) -> String {
    format!("{} {}", verdict(f), f.summary)
}

/// The feedback on a checked prediction, as markup: the verdict and summary, then each
/// item.
pub fn feedback(f: &lesson::Feedback) -> String {
    let mut m = format!(
        "<div class=\"lesson-feedback\" id=\"lesson-feedback\" data-right=\"{}\"><p><strong>{}</strong> ",
        f.right,
        verdict(f)
    );
    escape_into(&f.summary, &mut m);
    m.push_str("</p><ul class=\"lesson-items\">");
    for i in &f.items {
        let v = match i.verdict {
            lesson::Verdict::Right => "right",
            lesson::Verdict::Wrong => "wrong",
            lesson::Verdict::Missed => "missed",
        };
        m.push_str(&format!("<li data-verdict=\"{v}\"><strong>{v}</strong> "));
        escape_into(&i.item, &mut m);
        m.push_str(": ");
        escape_into(&i.why, &mut m);
        m.push_str("</li>");
    }
    m.push_str("</ul></div>");
    m
}

/// The step's question, with what was entered before (when a check repainted the panel).
fn question(m: &mut String, q: &Question, loaded: &LoadedStep, before: Option<&Prediction>) {
    m.push_str("<div class=\"lesson-question\" id=\"lesson-question\"><p class=\"lesson-prompt\"><strong>Predict: </strong>");
    escape_into(&q.prompt(), m);
    m.push_str("</p>");
    match q {
        Question::Cells { .. } => m.push_str(
            "<p class=\"hint\">Click the cells in the grid (or focus one and press Space): the owners are hidden until you check.</p>",
        ),
        Question::Counts => {
            m.push_str("<div class=\"lesson-counts\">");
            for member in &loaded.scenario.members {
                let typed = match before {
                    Some(Prediction::Counts(c)) => c
                        .iter()
                        .find(|(id, _)| *id == member.id)
                        .map(|(_, n)| n.to_string()),
                    _ => None,
                };
                m.push_str("<label><span class=\"member-name\">");
                escape_into(&member.id, m);
                m.push_str("</span> <input type=\"number\" min=\"0\" step=\"1\" inputmode=\"numeric\" data-count=\"");
                escape_into(&member.id, m);
                m.push_str("\" value=\"");
                m.push_str(typed.as_deref().unwrap_or(""));
                m.push_str("\"></label>");
            }
            m.push_str("</div>");
        }
        Question::Choice {
            prompt, options, ..
        } => {
            m.push_str("<fieldset class=\"lesson-choice\"><legend>");
            escape_into(prompt, m);
            m.push_str("</legend>");
            for (i, o) in options.iter().enumerate() {
                let on = before == Some(&Prediction::Choice(i));
                m.push_str(&format!(
                    "<label><input type=\"radio\" name=\"lesson-choice\" value=\"{i}\"{}> ",
                    if on { " checked" } else { "" }
                ));
                escape_into(o, m);
                m.push_str("</label>");
            }
            m.push_str("</fieldset>");
        }
    }
    m.push_str("<p class=\"lesson-actions\"><button id=\"lesson-check\" data-app=\"lesson-check\">Check</button><button id=\"lesson-show\" data-app=\"lesson-show\" data-then=\"lesson-forward\">Show answer</button></p></div>");
}

/// The right answer, and for a step that shows a common mistake, the wrong one beside it.
fn answer(m: &mut String, loaded: &LoadedStep, right: &Answer) {
    m.push_str(
        "<div class=\"lesson-answer\" id=\"lesson-answer\"><p><strong>The answer: </strong>",
    );
    escape_into(&lesson::describe(loaded, right), m);
    m.push_str(".</p>");
    if let Some((mistake, wrong)) = loaded.wrong_answer() {
        m.push_str("<table class=\"compare lesson-compare\" id=\"lesson-compare\"><tr><th scope=\"row\">Right, as Kafka does it</th><td data-answer=\"right\">");
        escape_into(&lesson::describe(loaded, right), m);
        m.push_str("</td></tr><tr><th scope=\"row\">Wrong: ");
        escape_into(mistake.name(), m);
        m.push_str("</th><td data-answer=\"wrong\">");
        escape_into(&lesson::describe(loaded, &wrong), m);
        m.push_str("</td></tr></table><p class=\"lesson-why\">Why it is wrong: ");
        escape_into(&lesson::mistakes::reason(mistake, loaded), m);
        m.push_str(".</p>");
    }
    m.push_str("</div>");
}

/// The lesson's panel: where the learner is (step k of n, how the predictions went, every
/// step to go to), the step's text, its question (or its answer, once checked or shown),
/// and Back and Forward. `changed`: the group on screen is no longer the step's own.
pub fn panel(
    on: &LessonOn,
    loaded: &Result<LoadedStep, LessonError>,
    changed: bool,
    refused: Option<&str>,
) -> String {
    let steps = on.lesson.steps;
    let k = on.progress.step();
    let (right, wrong) = on.progress.tally();
    let asked = steps.iter().filter(|s| s.question.is_some()).count();
    let mut m = String::from(
        "<div class=\"lesson-head\"><p class=\"lesson-progress\" id=\"lesson-progress\">",
    );
    escape_into(on.lesson.title, &mut m);
    m.push_str(&format!(
        ": <strong>step {} of {}</strong> · predictions: {right} right, {wrong} wrong, of {asked}</p><button id=\"lesson-leave\" data-app=\"lesson-leave\" data-then=\"lesson-open\">Leave the lesson</button></div><details class=\"lesson-steps\"><summary>Steps</summary><ol>",
        k + 1,
        steps.len()
    ));
    for (i, s) in steps.iter().enumerate() {
        let (mark, said) = match on.progress.outcome(i) {
            Outcome::Right => ("right", " (right)"),
            Outcome::Wrong => ("wrong", " (wrong)"),
            Outcome::Unanswered => ("", ""),
        };
        m.push_str(&format!(
            "<li data-outcome=\"{mark}\"><button data-app=\"lesson-go\" data-step=\"{i}\"{}>",
            if i == k { " aria-current=\"step\"" } else { "" }
        ));
        escape_into(s.title, &mut m);
        m.push_str(said);
        m.push_str("</button></li>");
    }
    m.push_str("</ol></details>");
    let step = &steps[k.min(steps.len() - 1)];
    m.push_str("<h2 id=\"lesson-title\">");
    escape_into(step.title, &mut m);
    m.push_str("</h2><p class=\"lesson-text\" id=\"lesson-text\">");
    escape_into(step.text, &mut m);
    m.push_str("</p>");
    if step.before.is_some() {
        m.push_str("<p class=\"hint\">What if: the group before the change is pinned; the grid shows it after.</p>");
    }
    match loaded {
        Err(e) => {
            m.push_str("<p class=\"alert\" role=\"alert\">This step cannot be shown: ");
            escape_into(&e.to_string(), &mut m);
            m.push_str("</p>");
        }
        Ok(loaded) => {
            if changed {
                m.push_str(&format!("<p class=\"lesson-changed\" id=\"lesson-changed\">You changed this step's group: Check still answers for the step's own group. <button data-app=\"lesson-go\" data-step=\"{k}\">Put the step's group back</button></p>"));
            }
            if let Some(q) = &step.question {
                let before = on.checked.as_ref().map(|(p, _, _)| p);
                if !on.revealed || on.checked.is_some() {
                    question(&mut m, q, loaded, before);
                }
                if let Some(r) = refused {
                    m.push_str("<p class=\"refusal\" id=\"lesson-refused\" role=\"alert\">");
                    escape_into(r, &mut m);
                    m.push_str("</p>");
                }
                if let Some((_, f, _)) = &on.checked {
                    m.push_str(f);
                }
                if on.revealed {
                    if let Some(a) = loaded.answer() {
                        answer(&mut m, loaded, &a);
                    }
                }
            }
        }
    }
    let nav = |i: Option<usize>, id: &str, then: &str, label: &str| match i {
        Some(i) => {
            format!("<button id=\"{id}\" data-app=\"lesson-go\" data-step=\"{i}\">{label}</button>")
        }
        None => format!("<button id=\"{id}\" disabled data-then=\"{then}\">{label}</button>"),
    };
    m.push_str("<p class=\"lesson-nav\">");
    m.push_str(&nav(
        k.checked_sub(1),
        "lesson-back",
        "lesson-forward",
        "Back",
    ));
    m.push_str(&nav(
        (k + 1 < steps.len()).then_some(k + 1),
        "lesson-forward",
        "lesson-back",
        "Forward",
    ));
    m.push_str("</p>");
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use rebalance_lab_core::lesson::{check, Progress, LESSONS};

    fn on(step: usize) -> LessonOn {
        let mut progress = Progress::default();
        progress.go_to(step);
        LessonOn {
            lesson: &LESSONS[0],
            progress,
            checked: None,
            revealed: false,
        }
    }

    fn entered_counts(pairs: &[(&str, &str)]) -> Entered {
        Entered {
            counts: pairs
                .iter()
                .map(|(m, t)| (m.to_string(), t.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    /// Every step's panel names the step, its place and its question, and never its
    /// answer before it is checked or shown.
    #[test]
    fn every_step_asks_before_it_tells() {
        let n = LESSONS[0].steps.len();
        for k in 0..n {
            let o = on(k);
            let loaded = LoadedStep::load(&LESSONS[0].steps[k]);
            let m = panel(&o, &loaded, false, None);
            assert!(m.contains(&format!("step {} of {n}", k + 1)), "{m}");
            assert!(
                m.contains("id=\"lesson-check\""),
                "step {k} asks nothing: {m}"
            );
            assert!(!m.contains("lesson-answer"), "step {k} tells: {m}");
            assert_eq!(m.contains("lesson-back\" disabled"), k == 0);
            assert_eq!(m.contains("lesson-forward\" disabled"), k + 1 == n);
            let shown = LessonOn {
                revealed: true,
                ..o
            };
            let m = panel(&shown, &loaded, false, None);
            assert!(m.contains("id=\"lesson-answer\""), "{m}");
            assert!(!m.contains("lesson-check"), "{m}");
            let step = &LESSONS[0].steps[k];
            assert_eq!(m.contains("lesson-compare"), step.mistake.is_some(), "{m}");
        }
    }

    /// The counts step: what was typed is read per member, a bad entry says what and
    /// whose, and the check of the right counts is right.
    #[test]
    fn counts_are_read_and_checked() {
        let step = LESSONS[0]
            .steps
            .iter()
            .find(|s| s.key == "range-counts")
            .unwrap();
        let loaded = LoadedStep::load(step).unwrap();
        let q = step.question.unwrap();
        let p = prediction(
            &q,
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
            &entered_counts(&[
                ("consumer-c", "3"),
                ("consumer-a", "2"),
                ("consumer-b", "2"),
            ]),
        )
        .unwrap();
        let f = check(&loaded, &p);
        assert!(!f.right);
        let m = feedback(&f);
        assert!(
            m.contains("data-right=\"false\"") && m.contains("data-verdict=\"wrong\""),
            "{m}"
        );
        for (typed, says) in [
            ("", "Type how many partitions consumer-a gets"),
            ("-1", "\"-1\" for consumer-a is not a count"),
            ("2.5", "not a count"),
            ("99999999999", "not a count"),
        ] {
            let e = prediction(&q, &entered_counts(&[("consumer-a", typed)])).unwrap_err();
            assert!(e.contains(says), "{typed}: {e}");
        }
    }

    /// Cells and choices: nothing picked is asked for again, a picked option or cell
    /// becomes the prediction.
    #[test]
    fn cells_and_choices_are_read() {
        let cells = Question::Cells { member: "C0" };
        assert!(prediction(&cells, &Entered::default())
            .unwrap_err()
            .contains("Pick at least one cell"));
        let e = Entered {
            cells: vec![("t0".into(), "1".into()), ("t1".into(), "x".into())],
            ..Default::default()
        };
        assert!(prediction(&cells, &e)
            .unwrap_err()
            .contains("\"x\" is not a number"));
        let step = &LESSONS[0].steps[0];
        let q = step.question.unwrap();
        assert!(prediction(&q, &Entered::default()).is_err());
        let e = Entered {
            choice: Some("9".into()),
            ..Default::default()
        };
        assert!(prediction(&q, &e).is_err(), "an option past the list");
        let e = Entered {
            choice: Some("1".into()),
            ..Default::default()
        };
        let p = prediction(&q, &e).unwrap();
        let loaded = LoadedStep::load(step).unwrap();
        assert!(check(&loaded, &p).right, "one of 3 members sits idle");
        // what was picked stays picked when the panel is written again with the feedback
        let o = LessonOn {
            checked: Some((
                p,
                feedback(&check(&loaded, &Prediction::Choice(1))),
                String::new(),
            )),
            revealed: true,
            ..on(0)
        };
        let m = panel(&o, &Ok(loaded), true, None);
        assert!(m.contains("value=\"1\" checked"), "{m}");
        assert!(m.contains("id=\"lesson-changed\""), "{m}");
        assert!(m.contains("data-right=\"true\""), "{m}");
    }
}
