//! The lesson: its steps gone to, what the learner enters, Check, Show answer, Leave.

use super::{AppState, HistoryMode, LessonOn, Outcome};
use rebalance_lab_core::lesson::{
    self, Highlight, LoadedStep, Outcome as Answered, Progress, LESSONS,
};
use rebalance_lab_core::scenario::colours::Colours;
use rebalance_lab_core::scenario::whatif::Baseline;
use std::rc::Rc;

/// Opens the lesson (the first one) at step `k` (counting from 0), or moves to it, putting
/// the step's group on screen as a preset does: colours in list order, nothing pinned unless
/// the step is a what-if (its group before the change), nothing imported; the bytes the step
/// points into are open, and the topic it names is the one explained.
pub(super) fn go(next: &mut AppState, k: usize) -> Outcome {
    let opening = next.lesson.is_none();
    // the lesson on screen, else the one left last, else the first
    let mut on = next
        .lesson
        .take()
        .or_else(|| next.left_lessons.last().cloned())
        .unwrap_or_else(|| LessonOn::at(&LESSONS[0], Progress::default()));
    let Some(step) = on.lesson.steps.get(k) else {
        let n = on.lesson.steps.len();
        return Outcome::refused("", format!("the lesson has no step {} (it has {n})", k + 1));
    };
    let read = |f: &str| {
        rebalance_lab_core::scenario::link::from_fragment(f)
            .map_err(|e| format!("this lesson's step cannot be read: {e}"))
    };
    let (group, before) = match read(step.scenario).and_then(|g| {
        Ok((
            g,
            step.before
                .map(|b| read(b).map(|l| l.scenario))
                .transpose()?,
        ))
    }) {
        Ok(read) => read,
        Err(message) => return Outcome::refused("", message),
    };
    // (a step about the group over time opens its timeline)
    let timeline = group.timeline;
    let group = group.scenario;
    on.progress.go_to(k);
    on.revealed = on.progress.outcome(k) != Answered::Unanswered;
    let key = on.lesson.key;
    next.lesson = Some(on);
    next.left_lessons.retain(|l| l.lesson.key != key);
    // (the person's group comes back when they leave the lesson)
    if opening {
        next.keep_own_group();
    }
    let s = Rc::make_mut(&mut next.scenario);
    *s = group;
    s.assignor_by_vote = s.voted_assignor() == Some(s.assignor);
    next.imported = None;
    next.baseline = before.as_ref().map(|b| Baseline::now(b, None));
    next.pinned = before.map(|b| (b, Vec::new()));
    next.colours = Colours::default();
    next.group_log.clear();
    next.story_step = None;
    next.timeline = timeline;
    next.hex_drafts.clear();
    next.versions.clear();
    next.bytes_member = None;
    next.selected_topic = None;
    for h in step.highlights {
        match h {
            Highlight::Field { member, .. } | Highlight::Bytes { member, .. } => {
                next.bytes_member = Some(member.to_string())
            }
            Highlight::Topic(t) | Highlight::Partitions { topic: t, .. } => {
                next.selected_topic = Some(t.to_string())
            }
            _ => {}
        }
    }
    Outcome::Changed(HistoryMode::Push)
}

/// A cell of the grid picked for the step's prediction, or let go.
pub(super) fn pick(next: &mut AppState, topic: &str, partition: u32) -> Outcome {
    if let Some(on) = next.lesson.as_mut() {
        on.attempt_mut().entered.pick(topic, partition);
    }
    Outcome::Viewed
}

/// A count typed for a member.
pub(super) fn count(next: &mut AppState, member: &str, text: String) -> Outcome {
    if let Some(on) = next.lesson.as_mut() {
        on.attempt_mut().entered.count(member, text);
    }
    Outcome::Viewed
}

/// An option chosen.
pub(super) fn choose(next: &mut AppState, option: usize) -> Outcome {
    if let Some(on) = next.lesson.as_mut() {
        on.attempt_mut().entered.choice = Some(option);
    }
    Outcome::Viewed
}

/// Checks what was entered on the step on screen: the first check of a step is the one
/// its outcome records (the link carries it); a prediction that cannot be read is refused,
/// and what was entered stays.
pub(super) fn check(next: &mut AppState) -> Outcome {
    let Some(on) = next.lesson.as_mut() else {
        return Outcome::Viewed;
    };
    let Some((step, q)) = on.step().and_then(|s| Some((s, s.question?))) else {
        return Outcome::Viewed;
    };
    let checked = LoadedStep::load(step)
        .map_err(|e| format!("this step cannot be checked: {e}"))
        .and_then(|loaded| {
            let members: Vec<&str> = loaded
                .scenario
                .members
                .iter()
                .map(|m| m.id.as_str())
                .collect();
            let entered = on.attempt().map(|a| a.entered.clone()).unwrap_or_default();
            let p = crate::lesson::prediction(&q, &members, &entered)?;
            let f = lesson::check(&loaded, &p);
            Ok((p, f))
        });
    let (p, f) = match checked {
        Ok(c) => c,
        Err(message) => return Outcome::refused("lesson", message),
    };
    let k = on.progress.step();
    if on.progress.outcome(k) == Answered::Unanswered {
        on.progress.record(
            k,
            if f.right {
                Answered::Right
            } else {
                Answered::Wrong
            },
        );
        if !f.right {
            if let Some(m) = f.mistakes.first() {
                on.progress.record_mistake(k, *m);
            }
            on.attempt_mut().first_wrong = Some(f.clone());
        }
    }
    on.attempt_mut().checked = Some((p, f));
    on.revealed = true;
    Outcome::Changed(HistoryMode::Replace)
}

/// Show answer.
pub(super) fn reveal(next: &mut AppState) -> Outcome {
    if let Some(on) = next.lesson.as_mut() {
        on.revealed = true;
    }
    Outcome::Viewed
}

/// Opens the lesson `key`: where it was left when it was, else at its first step. A lesson
/// on screen gives way and is kept where it was, to resume.
pub(super) fn start(next: &mut AppState, key: &str) -> Outcome {
    let Some(chosen) = lesson::lesson(key) else {
        return Outcome::refused("", format!("there is no lesson \"{key}\""));
    };
    if next.lesson.as_ref().is_some_and(|on| on.lesson.key == key) {
        return Outcome::Viewed;
    }
    let on = match next.left_lessons.iter().position(|l| l.lesson.key == key) {
        Some(i) => next.left_lessons.remove(i),
        None => LessonOn::at(chosen, Progress::default()),
    };
    match next.lesson.take() {
        Some(other) => {
            next.left_lessons
                .retain(|l| l.lesson.key != other.lesson.key);
            next.left_lessons.push(other);
        }
        // (the person's group comes back when they leave the lesson)
        None => next.keep_own_group(),
    }
    let k = on.progress.step();
    next.lesson = Some(on);
    go(next, k)
}

/// Opens the first lesson (the range lesson) where it was left (its first step the first
/// time).
pub(super) fn open(next: &mut AppState) -> Outcome {
    start(next, LESSONS[0].key)
}

/// Leaves the lesson (kept, to resume): the person's own group comes back.
pub(super) fn leave(next: &mut AppState) -> Outcome {
    if let Some(on) = next.lesson.take() {
        next.left_lessons.retain(|l| l.lesson.key != on.lesson.key);
        next.left_lessons.push(on);
    }
    next.story_step = None;
    next.restore_own_group();
    Outcome::Changed(HistoryMode::Push)
}
