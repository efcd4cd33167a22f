//! The sentence above the grid that says which group it shows.

use super::AppState;
use rebalance_lab_core::scenario::presets;

impl AppState {
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
                rebalance_lab_core::scenario::whatif::STORY_STEPS
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
                let (now, then) = (
                    (s.members.len() as u64, s.total_partitions()),
                    (p.members.len() as u64, p.total_partitions()),
                );
                let size = if now == then {
                    format!(
                        "changed, still {} over {}",
                        count(now.0, "member"),
                        count(now.1, "partition")
                    )
                } else {
                    format!(
                        "changed to {} over {} (pinned: {} over {})",
                        count(now.0, "member"),
                        count(now.1, "partition"),
                        count(then.0, "member"),
                        count(then.1, "partition"),
                    )
                };
                format!(
                    "A what-if: the pinned group{named} {size}, assigned by {assignor}; a corner marks a partition that moved from its pinned owner."
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
}
