//! A new group on screen: a preset, an import of kafka-consumer-groups.sh output, a link
//! (at start, Back or Forward, or pasted), or a link that could not be read.

use super::{by_id, AppState, BrokenLink, HistoryMode, Imported, LessonOn, Outcome};
use rebalance_lab_core::scenario::colours::Colours;
use rebalance_lab_core::scenario::link::LinkState;
use rebalance_lab_core::scenario::presets;
use rebalance_lab_core::scenario::whatif::Baseline;
use std::rc::Rc;

/// A preset: a new group, colours in list order, nothing imported, nothing pinned (the
/// previous group's baseline is not this group's: a what-if against it would compare two
/// unrelated groups; Back brings the previous group back with its pin).
pub(super) fn preset(next: &mut AppState, key: &str) -> Outcome {
    let Some(p) = presets::preset(key) else {
        return Outcome::refused("", format!("no preset \"{key}\""));
    };
    let s = Rc::make_mut(&mut next.scenario);
    *s = p;
    s.assignor_by_vote = s.voted_assignor() == Some(s.assignor);
    next.imported = None;
    next.colours = Colours::default();
    next.group_log.clear();
    next.preset = presets::PRESETS
        .iter()
        .find(|p| p.key == key)
        .map(|p| p.key);
    // (a group the person chose is their own now)
    next.own_group = None;
    next.selected_topic = None;
    next.bytes_member = None;
    next.hex_drafts.clear();
    next.versions.clear();
    next.baseline = None;
    next.pinned = None;
    next.story_step = None;
    Outcome::Changed(HistoryMode::Push)
}

/// What kafka-consumer-groups.sh printed, read: the group replaces the one on screen, its
/// observed assignment the baseline every assignor is compared with; colours start again
/// in list order.
pub(super) fn import(next: &mut AppState, i: rebalance_lab_core::import::Import) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    *s = i.scenario;
    if s.group_id.is_none() {
        s.group_id = i.group_id;
    }
    // (the members list the strategy the group chose, when the paste says which: the vote
    // picks it)
    s.assignor_by_vote = s.voted_assignor() == Some(s.assignor);
    next.colours = Colours::default();
    next.group_log.clear();
    next.preset = None;
    next.own_group = None;
    next.selected_topic = None;
    next.bytes_member = None;
    next.hex_drafts.clear();
    next.versions.clear();
    next.story_step = None;
    next.baseline = Some(Baseline::observed(s));
    next.pinned = Some((s.clone(), Vec::new()));
    next.imported = Some(Rc::new(Imported {
        lag: i.lag,
        printed: rebalance_lab_core::import::Printed {
            state: i.state,
            strategy: i.strategy,
            warnings: i.warnings,
        },
    }));
    Outcome::Changed(HistoryMode::Push)
}

/// A scenario read from the URL: the whole state the link carries, keyed by member id as
/// the app keys it (the link keys by position), and the URL left as it is.
pub(super) fn link(next: &mut AppState, state: LinkState) -> Outcome {
    next.preset = None;
    // (an imported group's lag and what Kafka's tool said of it come back with its link)
    next.imported = (state.lag.is_some() || state.printed.is_some()).then(|| {
        Rc::new(Imported {
            lag: state.lag.unwrap_or_default(),
            printed: state.printed.unwrap_or_default(),
        })
    });
    let s = Rc::make_mut(&mut next.scenario);
    *s = state.scenario;
    next.broken_link = None;
    next.baseline = None;
    next.story_step = state.story_step;
    next.timeline = state.timeline;
    next.pinned = state.pinned;
    // (the group as the link has it: a step's group may have been changed)
    next.lesson = state.lesson.and_then(|(key, progress)| {
        Some(LessonOn::at(
            rebalance_lab_core::lesson::lesson(key)?,
            progress,
        ))
    });
    match state.baseline {
        Some(Ok(b)) => next.baseline = Some(b),
        Some(Err(bad)) => {
            next.broken_link = Some(BrokenLink {
                message: bad.error.to_string(),
                raw: bad.raw,
                partial: true,
                fallback: "",
            })
        }
        None => {}
    }
    next.versions = by_id(s, state.versions);
    next.hex_drafts = by_id(s, state.hex_drafts);
    next.colours = match state.colours {
        Some(slots) => Colours::from_pairs(s.members.iter().map(|m| m.id.clone()).zip(slots)),
        None => Colours::in_order(s.members.iter().map(|m| m.id.as_str())),
    };
    if let Some(b) = &next.bytes_member {
        if !s.members.iter().any(|m| &m.id == b) {
            next.bytes_member = None;
        }
    }
    // Who joined and left: the link's, kept in step with its member list.
    next.group_log = state.group_log;
    // (a link back to a page without the story or the lesson is the person's own group;
    // one on the story or a lesson brings back the person's group it kept, if it kept one)
    // (a story or lesson link without one keeps the group this page kept, if any)
    if next.story_step.is_none() && next.lesson.is_none() {
        next.own_group = None;
    } else if let Some(own) = state.own {
        let theirs = AppState::default().apply(super::Action::LoadLink(own));
        next.own_group = Some(Rc::new(theirs.group_on_screen()));
    }
    Outcome::Changed(HistoryMode::None)
}

/// The URL's fragment could not be read.
pub(super) fn broken(next: &mut AppState, b: BrokenLink) -> Outcome {
    next.broken_link = Some(b);
    Outcome::Viewed
}

pub(super) fn dismiss_broken(next: &mut AppState) -> Outcome {
    next.broken_link = None;
    Outcome::Viewed
}
