//! Checking a prediction: what is right, what is wrong and why, in the lesson's words.

use super::answer::{answer_under, Answer, Rule};
use super::step::LoadedStep;
use super::{mistakes, Mistake, Prediction, Question};

/// One item's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Right.
    Right,
    /// Wrong: predicted, but not so.
    Wrong,
    /// Wrong by omission: so, but not predicted (a cell not clicked, a member not given).
    Missed,
}

/// The verdict on one item of a prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The item: a cell (`orders-3`), a member id, or the option picked.
    pub item: String,
    /// Right or wrong.
    pub verdict: Verdict,
    /// What is so, and for a wrong item, why.
    pub why: String,
    /// The common mistake that gives this wrong item, when one does.
    pub mistake: Option<Mistake>,
}

/// The feedback on a prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// True when every item is right.
    pub right: bool,
    /// Per item, right or wrong and why.
    pub items: Vec<Item>,
    /// One sentence: how it went, and the reasons behind the wrong items.
    pub summary: String,
    /// The common mistakes recognised in the wrong items, the step's own first.
    pub mistakes: Vec<Mistake>,
}

fn cell(t: &str, p: u32) -> String {
    format!("{t}-{p}")
}

/// The mistakes to try when explaining, the step's own first, each with its answer.
fn suspects(step: &LoadedStep) -> Vec<(Mistake, Answer)> {
    let mut order: Vec<Mistake> = step.step.mistake.into_iter().collect();
    order.extend(
        Mistake::ALL
            .iter()
            .filter(|m| Some(**m) != step.step.mistake),
    );
    let right = step.answer();
    order
        .into_iter()
        .filter_map(|m| {
            let a = answer_under(step, Rule::Mistake(m))?;
            (Some(&a) != right.as_ref()).then_some((m, a))
        })
        .collect()
}

/// Compares `prediction` with the step's answer (computed by the real assignor). Each wrong
/// item is matched against the common mistakes' rules: when one gives that very item, its
/// reason is given.
pub fn check(step: &LoadedStep, prediction: &Prediction) -> Feedback {
    let Some(answer) = step.answer() else {
        return Feedback {
            right: false,
            items: Vec::new(),
            summary: "This step asks for no prediction.".into(),
            mistakes: Vec::new(),
        };
    };
    let suspects = suspects(step);
    let items = match (&answer, prediction) {
        (Answer::Cells(truth), Prediction::Cells(p)) => {
            let member = match step.step.question {
                Some(Question::Cells { member }) => member,
                _ => "",
            };
            cells(step, member, truth, p, &suspects)
        }
        (Answer::Counts(truth), Prediction::Counts(p)) => counts(truth, p, &suspects),
        (Answer::Choice { index, value }, Prediction::Choice(i)) => {
            choice(step, *index, value, *i, &suspects)
        }
        _ => {
            return Feedback {
                right: false,
                items: Vec::new(),
                summary: format!(
                    "This step asks for another kind of answer: {}",
                    step.step.question.map(|q| q.prompt()).unwrap_or_default()
                ),
                mistakes: Vec::new(),
            }
        }
    };
    // right items first, each side in its own order (a partition, not a sort: one more
    // sort's code in the page for a handful of items)
    let (mut items, wrong_items): (Vec<Item>, Vec<Item>) =
        items.into_iter().partition(|i| i.verdict == Verdict::Right);
    items.extend(wrong_items);
    let wrong = items.iter().filter(|i| i.verdict != Verdict::Right).count();
    let mut found: Vec<Mistake> = Vec::new();
    for i in &items {
        if let Some(m) = i.mistake {
            if !found.contains(&m) {
                found.push(m);
            }
        }
    }
    let summary = if wrong == 0 {
        format!("Right: {}.", describe(step, &answer))
    } else {
        let total = items.len();
        let mut s = format!("{} of {total} right. ", total - wrong);
        if found.is_empty() {
            s.push_str(&format!("The answer: {}.", describe(step, &answer)));
        } else {
            // The mistake's name first: a member id or topic must keep its case.
            let reasons: Vec<String> = found
                .iter()
                .map(|m| format!("{}: {}.", capitalise(m.name()), mistakes::reason(*m, step)))
                .collect();
            s.push_str(&reasons.join(" "));
        }
        s
    };
    Feedback {
        right: wrong == 0 && !items.is_empty(),
        items,
        summary,
        mistakes: found,
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        // (the mistakes' names are ASCII: no Unicode case tables in the page)
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// An answer in a few words (`consumer-b owns orders-3, orders-4`; `C0 5, C1 4`).
pub fn describe(step: &LoadedStep, answer: &Answer) -> String {
    match answer {
        Answer::Cells(c) => {
            let member = match step.step.question {
                Some(Question::Cells { member }) => member,
                _ => "",
            };
            if c.is_empty() {
                format!("{member} owns nothing")
            } else {
                let list: Vec<String> = c.iter().map(|(t, p)| cell(t, *p)).collect();
                format!("{member} owns {}", list.join(", "))
            }
        }
        Answer::Counts(c) => {
            let list: Vec<String> = c.iter().map(|(m, n)| format!("{m} {n}")).collect();
            list.join(", ")
        }
        Answer::Choice { value, .. } => value.clone(),
    }
}

fn cells(
    step: &LoadedStep,
    member: &str,
    truth: &[(String, u32)],
    predicted: &[(String, u32)],
    suspects: &[(Mistake, Answer)],
) -> Vec<Item> {
    let has = |list: &[(String, u32)], t: &str, p: u32| list.iter().any(|c| c.0 == t && c.1 == p);
    let mut items = Vec::new();
    for (i, (t, p)) in predicted.iter().enumerate() {
        if predicted[..i].iter().any(|c| c.0 == *t && c.1 == *p) {
            continue;
        }
        if has(truth, t, *p) {
            items.push(Item {
                item: cell(t, *p),
                verdict: Verdict::Right,
                why: format!("{member} owns {}", cell(t, *p)),
                mistake: None,
            });
            continue;
        }
        let mistake = suspects
            .iter()
            .find(|(_, a)| matches!(a, Answer::Cells(c) if has(c, t, *p)))
            .map(|(m, _)| *m);
        let what = match step.owners.owner(t, *p) {
            Some(o) => format!("{} goes to {o}", cell(t, *p)),
            None if step
                .owners
                .topics
                .iter()
                .any(|(n, o)| n == t && (*p as usize) < o.len()) =>
            {
                format!("nobody owns {}", cell(t, *p))
            }
            None => format!("{} is not a partition anybody gets", cell(t, *p)),
        };
        items.push(Item {
            item: cell(t, *p),
            verdict: Verdict::Wrong,
            why: what,
            mistake,
        });
    }
    for (t, p) in truth {
        if has(predicted, t, *p) {
            continue;
        }
        let mistake = suspects
            .iter()
            .find(|(_, a)| matches!(a, Answer::Cells(c) if !has(c, t, *p)))
            .map(|(m, _)| *m);
        items.push(Item {
            item: cell(t, *p),
            verdict: Verdict::Missed,
            why: format!("{member} owns {} too", cell(t, *p)),
            mistake,
        });
    }
    items
}

fn counts(
    truth: &[(String, u32)],
    predicted: &[(String, u32)],
    suspects: &[(Mistake, Answer)],
) -> Vec<Item> {
    let mut items = Vec::new();
    fn count_in(a: &Answer, m: &str) -> Option<u32> {
        match a {
            Answer::Counts(c) => c.iter().find(|(id, _)| id == m).map(|(_, n)| *n),
            _ => None,
        }
    }
    for (i, (m, n)) in predicted.iter().enumerate() {
        if predicted[..i].iter().any(|(id, _)| id == m) {
            items.push(Item {
                item: m.clone(),
                verdict: Verdict::Wrong,
                why: format!("{m} is given twice"),
                mistake: None,
            });
            continue;
        }
        let Some((_, t)) = truth.iter().find(|(id, _)| id == m) else {
            items.push(Item {
                item: m.clone(),
                verdict: Verdict::Wrong,
                why: format!("there is no member {m} in this group"),
                mistake: None,
            });
            continue;
        };
        if t == n {
            items.push(Item {
                item: m.clone(),
                verdict: Verdict::Right,
                why: format!("{m} gets {t}"),
                mistake: None,
            });
            continue;
        }
        let mistake = suspects
            .iter()
            .find(|(_, a)| count_in(a, m) == Some(*n))
            .map(|(k, _)| *k);
        items.push(Item {
            item: m.clone(),
            verdict: Verdict::Wrong,
            why: format!("{m} gets {t}, not {n}"),
            mistake,
        });
    }
    for (m, t) in truth {
        if predicted.iter().any(|(id, _)| id == m) {
            continue;
        }
        let mistake = suspects
            .iter()
            .find(|(_, a)| matches!(a, Answer::Counts(_)) && count_in(a, m).is_none())
            .map(|(k, _)| *k);
        items.push(Item {
            item: m.clone(),
            verdict: Verdict::Missed,
            why: format!("{m} is a member too, with {t}"),
            mistake,
        });
    }
    items
}

fn choice(
    step: &LoadedStep,
    right: Option<usize>,
    value: &str,
    picked: usize,
    suspects: &[(Mistake, Answer)],
) -> Vec<Item> {
    let options = match step.step.question {
        Some(Question::Choice { options, .. }) => options,
        _ => &[],
    };
    let Some(text) = options.get(picked) else {
        return vec![Item {
            item: format!("option {picked}"),
            verdict: Verdict::Wrong,
            why: format!("there is no option {picked} (there are {})", options.len()),
            mistake: None,
        }];
    };
    if right == Some(picked) {
        return vec![Item {
            item: text.to_string(),
            verdict: Verdict::Right,
            why: format!("the answer is {value}"),
            mistake: None,
        }];
    }
    let mistake = suspects
        .iter()
        .find(|(_, a)| matches!(a, Answer::Choice { index: Some(i), .. } if *i == picked))
        .map(|(m, _)| *m);
    vec![Item {
        item: text.to_string(),
        verdict: Verdict::Wrong,
        why: format!("the answer is {value}, not {text}"),
        mistake,
    }]
}
