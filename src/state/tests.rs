//! The reducer's tests: each area's actions, the link round trip, the person's group kept
//! while the story or a lesson shows its own.

use super::*;
use rebalance_lab_core::lesson::{Highlight, LoadedStep, LESSONS};
use rebalance_lab_core::scenario::link::{from_fragment, to_fragment};

fn start(fragment: &str) -> AppState {
    AppState::default().apply(Action::LoadLink(Box::new(from_fragment(fragment).unwrap())))
}

/// An import's lag and what Kafka's tool said of it ride in the link, even when the
/// tool said nothing beside the members (the summary comes back on reload); a story
/// step or a lesson step, another group, lets them go.
#[test]
fn an_import_survives_a_reload_and_goes_with_its_group() {
    let members_only = rebalance_lab_core::import::parse(
        "GROUP  CONSUMER-ID  HOST  CLIENT-ID  #PARTITIONS\ng  c-1  /10.0.0.1  c  0\n",
    )
    .unwrap();
    let imported = AppState::default().apply(Action::Import(Box::new(members_only)));
    assert!(imported.imported.is_some());
    let reloaded = start(&to_fragment(&imported.link_state()));
    assert_eq!(reloaded.imported, imported.imported);
    let story = imported.apply(Action::StoryStep(0));
    assert_eq!(story.imported, None);
    assert!(!to_fragment(&story.link_state()).contains(";xk="));
    assert_eq!(imported.apply(Action::LessonGo(0)).imported, None);
}

/// The lesson: each step puts its own group on screen (a what-if step pins the group
/// before the change), the first check of a step is its outcome, the link carries the
/// step and the outcomes, and leaving keeps the group as it is.
#[test]
fn the_lesson_walks_its_steps_and_the_link_keeps_the_place() {
    let steps = LESSONS[0].steps;
    let mut s = AppState::default().apply(Action::LessonGo(0));
    for (k, step) in steps.iter().enumerate() {
        s = s.apply(Action::LessonGo(k));
        let on = s.lesson.as_ref().unwrap();
        assert_eq!(on.progress.step(), k);
        assert_eq!(s.history, HistoryMode::Push);
        let group = from_fragment(step.scenario).unwrap().scenario;
        assert_eq!(s.scenario.topics, group.topics, "{}", step.key);
        assert_eq!(s.scenario.members, group.members, "{}", step.key);
        assert_eq!(s.scenario.assignor, group.assignor, "{}", step.key);
        assert_eq!(s.pinned.is_some(), step.before.is_some(), "{}", step.key);
        assert_eq!(s.baseline.is_some(), step.before.is_some(), "{}", step.key);
        let bytes = step
            .highlights
            .iter()
            .any(|h| matches!(h, Highlight::Field { .. } | Highlight::Bytes { .. }));
        assert_eq!(s.bytes_member.is_some(), bytes, "{}", step.key);
    }
    let s = s.apply(Action::LessonGo(2));
    let loaded = LoadedStep::load(&steps[2]).unwrap();
    let Some(rebalance_lab_core::lesson::Answer::Counts(right)) = loaded.answer() else {
        panic!("step 3 asks for counts");
    };
    let typed = |s: AppState, plus: u32| {
        right.iter().fold(s, |s, (member, n)| {
            s.apply(Action::LessonCount {
                member: member.clone(),
                text: (n + plus).to_string(),
            })
        })
    };
    // a count left blank is refused, naming whose, and what was typed stays
    let (first, _) = &right[0];
    let blank = typed(s.clone(), 1).apply(Action::LessonCount {
        member: first.clone(),
        text: String::new(),
    });
    let refused = blank.clone().apply(Action::LessonCheck);
    assert!(refused.refusal.as_ref().unwrap().1.contains(first.as_str()));
    assert_eq!(refused.lesson, blank.lesson, "what was typed stays");
    let wrong = typed(s, 1).apply(Action::LessonCheck);
    assert!(wrong.refusal.is_none());
    // a second check shows its feedback but the first one is the outcome
    let again = typed(wrong, 0).apply(Action::LessonCheck);
    let on = again.lesson.as_ref().unwrap();
    assert_eq!(on.progress.outcome(2), Answered::Wrong);
    assert!(on.attempt().unwrap().checked.as_ref().unwrap().1.right);
    assert!(on.revealed);
    // (the link keeps the common mistake the first check showed)
    let mistake = on.progress.mistake(2).expect("the first check's mistake");
    let f = to_fragment(&again.link_state());
    assert!(
        f.contains(&format!(";xl=range.3.--{}", mistake.letter())),
        "{f}"
    );
    // the link opens on the same step, with the outcomes, the answer shown (here without
    // the group the page kept from before the lesson, as a lesson link written by hand)
    let (bare, kept) = f.split_once(";xo=").expect("the page's group is kept");
    assert!(
        !kept.contains(';'),
        "the kept group is the last section: {f}"
    );
    let back = start(bare);
    let on = back.lesson.as_ref().unwrap();
    assert_eq!(
        (
            on.progress.step(),
            on.progress.outcome(2),
            on.progress.mistake(2)
        ),
        (2, Answered::Wrong, Some(mistake))
    );
    assert!(on.revealed && on.attempt().is_none());
    // Back to a step not answered: asked again; past the end: refused, nothing moves
    let b = back.apply(Action::LessonGo(0));
    assert!(!b.lesson.as_ref().unwrap().revealed);
    let past = b.apply(Action::LessonGo(steps.len()));
    assert_eq!(past.lesson, b.lesson);
    assert!(past.refusal.unwrap().1.contains("has no step 18"));
    // a check with nothing chosen is refused, and says what is missing
    let refused = b.apply(Action::LessonCheck);
    let (at, said) = refused.refusal.as_ref().unwrap();
    assert_eq!(
        (at.as_str(), said.as_str()),
        ("lesson", "Pick one of the answers first.")
    );
    assert_eq!(refused.scenario, b.scenario);
    // an edit on a step is kept; a lesson opened from a link has no other group to put
    // back, so the group on screen stays on leaving
    let edited = b.apply(Action::AddMember);
    assert!(edited.lesson.is_some());
    let left = edited.apply(Action::LessonLeave);
    assert!(left.lesson.is_none());
    assert_eq!(left.scenario, edited.scenario);
    assert!(!to_fragment(&left.link_state()).contains(";xl="));
}

#[test]
fn refused_edits_change_nothing_but_the_message() {
    let s = start("v1;a=r;t=a*3,b*3;m=x***D,y***D");
    let n = s.apply(Action::RenameTopic {
        index: 0,
        name: "b".into(),
    });
    assert_eq!(n.scenario, s.scenario);
    assert_eq!(n.revision, s.revision);
    assert_eq!(n.refusal.as_ref().unwrap().0, "topic-0-name");
    let n = n.apply(Action::SetPartitions {
        index: 1,
        text: "10001".into(),
    });
    assert!(n.refusal.unwrap().1.contains("1 to 10,000"));
    let ok = s.apply(Action::RenameTopic {
        index: 0,
        name: "c".into(),
    });
    assert_eq!(ok.history, HistoryMode::Replace);
    assert_eq!(
        ok.scenario.members[0].topics[..],
        vec!["c".to_string(), "b".to_string()]
    );
    assert_eq!(s.apply(Action::AddMember).history, HistoryMode::Push);
}

/// The story and the lesson show groups of their own: leaving either puts the person's
/// own group back, as it was (pinned, imported, coloured); a page opened on the lesson
/// from a link has no other group, and keeps the one on screen.
#[test]
fn leaving_the_story_or_the_lesson_brings_the_person_s_group_back() {
    let own = start("v1;a=o;t=mine*5;m=me***B,you***B")
        .apply(Action::PinBaseline)
        .apply(Action::AddMember);
    let story = own.apply(Action::StoryStep(0)).apply(Action::StoryStep(1));
    assert_ne!(story.scenario, own.scenario);
    let back = story.apply(Action::ExitStory);
    assert_eq!(back.scenario, own.scenario);
    assert_eq!(back.baseline, own.baseline);
    assert_eq!(back.pinned, own.pinned);
    assert_eq!(back.colours, own.colours);
    assert_eq!(back.story_step, None);
    // the lesson, opened from the story and edited on a step: its leave brings the
    // group from before both
    let lesson = own
        .apply(Action::StoryStep(0))
        .apply(Action::LessonGo(0))
        .apply(Action::LessonGo(3))
        .apply(Action::AddMember);
    let back = lesson.apply(Action::LessonLeave);
    assert_eq!(back.scenario, own.scenario);
    assert_eq!((back.lesson.is_none(), back.story_step), (true, None));
    // the lesson opened again resumes where it was left, its outcomes kept
    let checked = own
        .apply(Action::LessonOpen)
        .apply(Action::LessonChoose(0))
        .apply(Action::LessonCheck)
        .apply(Action::LessonGo(4));
    let again = checked.apply(Action::LessonLeave).apply(Action::LessonOpen);
    let on = again.lesson.as_ref().unwrap();
    assert_eq!(on.progress.step(), 4);
    assert_eq!(
        on.progress.tally(),
        checked.lesson.as_ref().unwrap().progress.tally()
    );
    assert_eq!(
        on.progress.tally().1,
        1,
        "the wrong answer on step 1 is kept"
    );
    // unpinned during the story: its group is the person's now, no older one comes back
    let kept = own.apply(Action::StoryStep(1)).apply(Action::Unpin);
    assert_eq!((kept.own_group.is_none(), kept.story_step), (true, None));
    // a preset chosen meanwhile is the person's own group from then on
    let chose = own
        .apply(Action::LessonGo(0))
        .apply(Action::LoadPreset("seven-three"));
    assert!(chose.own_group.is_none());
}

/// Who joined first can be set (an import guesses it from the order of the pasted lines):
/// the member leads; once a member has left, the group's log decides and it is refused.
#[test]
fn who_joined_first_can_be_said() {
    let s = start("v1;a=r;t=t*4;m=b***B,a***B,c***B");
    let n = s.apply(Action::JoinFirst(2));
    let ids: Vec<&str> = n.scenario.members.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["c", "b", "a"]);
    assert_eq!(n.history, HistoryMode::Push);
    assert_eq!(n.colours, s.colours, "colours follow the members");
    let left = s.apply(Action::RemoveMember(0));
    let refused = left.apply(Action::JoinFirst(1));
    assert_eq!(refused.scenario, left.scenario);
    assert!(refused
        .refusal
        .unwrap()
        .1
        .contains("joins and leaves decide"));
    assert!(s.apply(Action::JoinFirst(9)).refusal.is_some());
}

/// The grid says which group it shows: the person's, a preset, an imported group with
/// its observed assignment pinned, a what-if against the pin, the story's or a lesson's.
#[test]
fn the_grid_says_which_group_it_shows() {
    let own = start("v1;a=o;t=mine*5;m=me***B,you***B");
    assert_eq!(own.group_shown(), "Your group, assigned by roundrobin.");
    assert!(AppState::default()
        .group_shown()
        .starts_with("The preset \""));
    let pinned = own.apply(Action::PinBaseline);
    assert!(
        pinned.group_shown().contains("and pinned"),
        "{}",
        pinned.group_shown()
    );
    let what_if = pinned.apply(Action::AddMember);
    assert_eq!(
        what_if.group_shown(),
        "A what-if: the pinned group changed to 3 members over 5 partitions (pinned: 2 members over 5 partitions), assigned by roundrobin; a corner marks a partition that moved from its pinned owner."
    );
    // (a change that keeps the group's size says so, not "changed to" the same numbers)
    let reordered = pinned.apply(Action::JoinFirst(1));
    assert!(
        reordered
            .group_shown()
            .starts_with("A what-if: the pinned group changed, still 2 members over 5 partitions"),
        "{}",
        reordered.group_shown()
    );
    let story = what_if.apply(Action::StoryStep(1));
    assert!(story
        .group_shown()
        .starts_with("The story's group, step 2 of"));
    assert!(story.group_shown().contains("your own group comes back"));
    let lesson = what_if.apply(Action::LessonOpen);
    assert!(
        lesson
            .group_shown()
            .starts_with("The lesson's group, step 1 of 17: One owner per partition."),
        "{}",
        lesson.group_shown()
    );
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/core/tests/fixtures/kafka-consumer-groups/3.x-all-views.txt"
    ))
    .unwrap();
    let imported = own.apply(Action::Import(Box::new(
        rebalance_lab_core::import::parse(&text).unwrap(),
    )));
    assert!(
        imported.group_shown().starts_with(
            "Your imported group (group.id orders-app), as roundrobin would assign it now; its assignment as observed is pinned"
        ),
        "{}",
        imported.group_shown()
    );
}

/// The person's group kept during the lesson or the story is in the link (and so in
/// storage): a reload, or the link opened on another page, brings it back on leaving.
#[test]
fn a_reload_during_the_lesson_keeps_the_person_s_group() {
    let own = start("v1;a=o;t=mine*5;m=me***B,you***B")
        .apply(Action::PinBaseline)
        .apply(Action::AddMember);
    for away in [
        own.apply(Action::LessonOpen).apply(Action::LessonGo(3)),
        own.apply(Action::StoryStep(2)),
    ] {
        let fragment = away.link_fragment();
        assert!(fragment.contains(";xo="), "{fragment}");
        let reloaded = start(&fragment);
        assert_eq!(reloaded.scenario, away.scenario);
        let back = if reloaded.lesson.is_some() {
            reloaded.apply(Action::LessonLeave)
        } else {
            reloaded.apply(Action::ExitStory)
        };
        assert_eq!(back.scenario, own.scenario);
        assert_eq!(back.baseline, own.baseline);
        assert_eq!(back.pinned, own.pinned);
        assert_eq!(back.colours, own.colours);
        assert!(!back.link_fragment().contains(";xo="));
    }
    // the person's own page carries no second group
    assert!(!own.link_fragment().contains(";xo="));
}

/// What only changes the view (a topic explained, bytes opened, a cell picked for a
/// lesson) is no new revision: the link and the history stay as they are, and the
/// scenario is the same value, not a copy.
#[test]
fn view_changes_are_no_new_revision() {
    let s = start("v1;a=r;t=a*3,b*3;m=x***D,y***D").apply(Action::LessonGo(3));
    for a in [
        Action::SelectTopic(Some("b".into())),
        Action::ShowBytes(Some(1)),
        Action::LessonPick {
            topic: "orders".into(),
            partition: 3,
        },
        Action::LessonReveal,
        Action::DismissBrokenLink,
    ] {
        let n = s.apply(a.clone());
        assert_eq!((n.revision, n.history), (s.revision, s.history), "{a:?}");
        assert!(Rc::ptr_eq(&n.scenario, &s.scenario), "{a:?}");
    }
    let picked = s.apply(Action::LessonPick {
        topic: "orders".into(),
        partition: 3,
    });
    let on = picked.lesson.as_ref().unwrap();
    assert_eq!(
        on.attempt().unwrap().entered.cells,
        vec![("orders".to_string(), 3)]
    );
}

#[test]
fn pasted_bytes_drive_the_member_and_travel() {
    let s = start("v1;a=r;t=s01-a*3;m=x***");
    let n = s.apply(Action::SetSubscriptionHex {
        index: 0,
        text: "00 03 00000001 0005 7330312d61 00000000 00000000 ffffffff 0000".into(),
    });
    assert_eq!(n.scenario.members[0].topics[..], vec!["s01-a".to_string()]);
    let back = from_fragment(&to_fragment(&n.link_state())).unwrap();
    assert_eq!(
        back.scenario.members[0].subscription,
        n.scenario.members[0].subscription
    );
    // Unfinished hex keeps the text as typed, and the link keeps it too.
    let half = n.apply(Action::SetSubscriptionHex {
        index: 0,
        text: "0003 0".into(),
    });
    assert_eq!(half.hex_drafts["x"], "0003 0");
    let again = start(&to_fragment(&half.link_state()));
    assert_eq!(again.hex_drafts["x"], "0003 0");
    // The version chooser writes the bytes again and says nothing is lost at v3 -> v0.
    let v0 = n.apply(Action::SetSubscriptionVersion {
        index: 0,
        version: 0,
    });
    assert_eq!(v0.version_of(0), 0);
    assert_eq!(
        v0.scenario.members[0].subscription.as_ref().unwrap()[..2],
        [0, 0]
    );
    // A form edit takes over from the bytes.
    let f = n.apply(Action::SetSubscribed {
        index: 0,
        topic: "s01-a".into(),
        on: false,
    });
    assert!(
        f.scenario.members[0].subscription.is_none() && f.scenario.members[0].topics.is_empty()
    );
}

#[test]
fn view_state_follows_the_member_not_its_position() {
    let s = start("v1;a=r;t=a*3;m=x***B,y***B,z***B*v1");
    assert_eq!(s.version_of(2), 1);
    let n = s
        .apply(Action::SetSubscriptionHex {
            index: 1,
            text: "zz".into(),
        })
        .apply(Action::ShowBytes(Some(2)))
        .apply(Action::RemoveMember(0));
    // y and z moved up one place; their draft, version and open panel went with them
    assert_eq!(n.version_of(1), 1);
    assert_eq!(n.hex_drafts.get("y").map(String::as_str), Some("zz"));
    assert_eq!(n.bytes_member_index(), Some(1));
    // removing a member drops its state: a member added later never shows it
    let gone = n.apply(Action::RemoveMember(0));
    assert!(gone.hex_drafts.is_empty());
    let added = gone.apply(Action::AddMember);
    assert_eq!(added.version_of(1), DEFAULT_VERSION);
    // renaming keeps it
    let r = n.apply(Action::RenameMember {
        index: 1,
        id: "zed".into(),
    });
    assert_eq!(r.version_of(1), 1);
    assert_eq!(r.bytes_member.as_deref(), Some("zed"));
    // the link keeps it by position and reads it back by id
    let back = start(&to_fragment(&r.link_state()));
    assert_eq!(back.versions, r.versions);
    assert_eq!(back.hex_drafts, r.hex_drafts);
}

#[test]
fn pin_restart_and_story() {
    let s = start("v1;a=r;t=a*6;m=c1*~i1**B,c2*~i2**B");
    let pinned = s.apply(Action::PinBaseline);
    assert!(pinned.baseline.is_some());
    // Static members: a rolling restart renames them and nothing moves.
    let r = pinned.apply(Action::RollingRestart);
    assert_ne!(r.scenario.members[0].id, "c1");
    let input = r.scenario.group_input();
    let a = rebalance_lab_core::assignor::range(&input);
    assert_eq!(
        rebalance_lab_core::scenario::whatif::diff(r.baseline.as_ref().unwrap(), &input, &a).moved,
        0
    );
    // The baseline and the story step travel in the link.
    let st = r.apply(Action::StoryStep(3));
    assert_eq!(st.link_fragment(), to_fragment(&st.link_state()));
    let back = start(&to_fragment(&st.link_state()));
    assert_eq!(back.story_step, Some(3));
    assert_eq!(back.baseline, st.baseline);
    assert_eq!(back.scenario, st.scenario);
    assert!(st.apply(Action::StoryStep(99)).refusal.is_some());
    assert!(st.apply(Action::Unpin).baseline.is_none());
}

#[test]
fn a_broken_baseline_in_a_link_is_said() {
    let st = from_fragment("v1;a=r;t=t*1;m=a***;xb=a%7Ct%3A7").unwrap();
    let s = AppState::default().apply(Action::LoadLink(Box::new(st)));
    let broken = s.broken_link.unwrap();
    assert!(broken.message.contains("owner 7"), "{}", broken.message);
    assert!(broken.partial);
    assert_eq!(broken.raw, "a|t:7");
}

fn leader_of(s: &AppState) -> LeaderHistory {
    let vote = s.scenario.vote();
    let refused: Vec<&str> = vote.refused.iter().map(|r| r.id.as_str()).collect();
    group_leader(&s.group_log, &vote.accepted_ids(), &refused)
}

#[test]
fn the_story_step_where_the_leader_leaves_hands_over_as_the_coordinator_does() {
    let steps = rebalance_lab_core::scenario::whatif::story();
    let k = steps
        .iter()
        .position(|s| s.title == "The leader leaves")
        .unwrap();
    let before = AppState::default().apply(Action::StoryStep(k - 1));
    let first = before.scenario.members[0].id.clone();
    let s = AppState::default().apply(Action::StoryStep(k));
    let h = leader_of(&s);
    let next = h.leader.clone().unwrap();
    // not the first listed member, whom a group that simply joined in list order would
    // make the leader
    assert_ne!(Some(&next), s.scenario.members.first().map(|m| &m.id));
    assert!(!s.scenario.members.iter().any(|m| m.id == first));
    assert!(steps[k]
        .sentence
        .contains(&rebalance_lab_core::scenario::member_id::display_id(&next)));
    let why = &h.steps.last().unwrap().why;
    assert!(why.contains("first key of the members HashMap"), "{why}");
    // and a link of that step reopens with the same leader
    let again = start(&rebalance_lab_core::scenario::link::to_fragment(
        &s.link_state(),
    ));
    assert_eq!(leader_of(&again).leader, Some(next));
}

#[test]
fn group_id_vote_and_override() {
    let s = start("v1;a=r;t=a*6;m=a***B,b***B");
    assert!(
        !s.scenario.assignor_by_vote,
        "an old link keeps its assignor as given"
    );
    let g = s.apply(Action::SetGroupId("orders".into()));
    assert_eq!(g.scenario.coordinator().partition, 31);
    let g = g.apply(Action::SetOffsetsPartitions("150".into()));
    assert_eq!(g.scenario.coordinator().offsets_partitions, 150);
    let bad = g.apply(Action::SetOffsetsPartitions("0".into()));
    assert_eq!(bad.scenario, g.scenario);
    assert_eq!(bad.refusal.unwrap().0, "offsets-partitions");
    // a tie: each member prefers another protocol; HashMap order gives range
    let t = g
        .apply(Action::FollowVote)
        .apply(Action::SetProtocols {
            index: 0,
            text: "range, roundrobin,".into(),
        })
        .apply(Action::SetProtocols {
            index: 1,
            text: "roundrobin,range".into(),
        });
    let v = t.scenario.vote();
    assert_eq!(v.tally.tied, ["range", "roundrobin"]);
    assert!(v.why.contains("tie"), "{}", v.why);
    assert_eq!(t.scenario.assignor, AssignorKind::Range, "follows the vote");
    // librdkafka's default on both: range wins outright; an override sticks
    let o = t
        .apply(Action::UseClientPreset {
            index: 1,
            preset: ClientPreset::Librdkafka,
        })
        .apply(Action::SetAssignor(AssignorKind::RoundRobin));
    assert!(!o.scenario.assignor_by_vote);
    let o = o.apply(Action::SetProtocols {
        index: 0,
        text: "range".into(),
    });
    assert_eq!(o.scenario.assignor, AssignorKind::RoundRobin);
    let f = o.apply(Action::FollowVote);
    assert_eq!(f.scenario.assignor, AssignorKind::Range);
    // a member that lists nothing in common is refused and does not vote
    let r = f.apply(Action::SetProtocols {
        index: 1,
        text: "sticky".into(),
    });
    assert_eq!(r.scenario.vote().refused[0].id, "b");
    // everything travels in the link
    let back = start(&to_fragment(&r.link_state()));
    assert_eq!(back.scenario, r.scenario);
    let l = r.apply(Action::SetLeaderClient(
        rebalance_lab_core::assignor::LeaderClient::Librdkafka,
    ));
    assert_eq!(start(&to_fragment(&l.link_state())).scenario, l.scenario);
}

#[test]
fn removing_the_leader_hands_over_to_the_hash_map_first() {
    let s = start("v1;a=r;t=a*6;m=z***B,y***B,x***B");
    let h = leader_of(&s);
    assert_eq!(h.leader.as_deref(), Some("z"));
    assert_eq!(h.next_leader.as_deref(), Some("x"));
    let gone = s.apply(Action::RemoveMember(0));
    let h = leader_of(&gone);
    assert_eq!(h.leader.as_deref(), Some("x"), "not y, the second joiner");
    // the link carries the joins and leaves: reopened, x still leads (a group of y and
    // x that joined in list order would be led by y)
    let fragment = rebalance_lab_core::scenario::link::to_fragment(&gone.link_state());
    assert!(fragment.ends_with(";xj=+~z,+0,+1,-~z"), "{fragment}");
    let reopened = start(&fragment);
    assert_eq!(leader_of(&reopened).leader.as_deref(), Some("x"));
    assert_eq!(reopened.group_log, gone.group_log);
    let fresh = start(fragment.split(";xj=").next().unwrap());
    assert_eq!(leader_of(&fresh).leader.as_deref(), Some("y"));
    // a newcomer joins after: x still leads
    let more = gone.apply(Action::AddMember);
    assert_eq!(leader_of(&more).leader.as_deref(), Some("x"));
    assert_eq!(more.group_log.len(), 5);
    // a new group starts the log again, and without the previous group's pin
    let pinned = more.apply(Action::PinBaseline);
    assert!(pinned.baseline.is_some() && pinned.pinned.is_some());
    let preset = pinned.apply(Action::LoadPreset("round-robin"));
    assert!(preset.baseline.is_none() && preset.pinned.is_none());
    assert!(more
        .apply(Action::LoadPreset("seven-three"))
        .group_log
        .is_empty());
}

#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// Adding, removing or renaming one member (or setting the member count) leaves
    /// every other member's colour as it was, and no two members share a colour.
    #[test]
    fn colours_follow_members(n in 1usize..12, action in 0u8..4, at in 0usize..12, count in 0usize..14) {
        let ids: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
        let members: Vec<String> = ids.iter().map(|id| format!("{id}***B")).collect();
        let s = start(&format!("v1;a=r;t=t*7;m={}", members.join(",")));
        // start from colours that are not simply in order
        let s = s.apply(Action::RemoveMember(0)).apply(Action::AddMember);
        let before: Vec<(String, u32)> = s.scenario.members.iter().map(|m| (m.id.clone(), s.colour_of(&m.id))).collect();
        let at = at % s.scenario.members.len();
        let next = match action {
            0 => s.apply(Action::AddMember),
            1 => s.apply(Action::RemoveMember(at)),
            2 => s.apply(Action::RenameMember { index: at, id: "renamed".into() }),
            _ => s.apply(Action::SetMemberCount(count.to_string())),
        };
        for (id, c) in &before {
            if let Some(m) = next.scenario.members.iter().find(|m| &m.id == id) {
                proptest::prop_assert_eq!(next.colour_of(&m.id), *c, "{}", id);
            }
        }
        if action == 2 {
            proptest::prop_assert_eq!(next.colour_of("renamed"), before[at].1);
        }
        let mut slots: Vec<u32> = next.scenario.members.iter().map(|m| next.colour_of(&m.id)).collect();
        slots.sort_unstable();
        slots.dedup();
        proptest::prop_assert_eq!(slots.len(), next.scenario.members.len());
        // and the link carries them (the page writes it without a copy of the scenario:
        // the same fragment)
        proptest::prop_assert_eq!(next.link_fragment(), to_fragment(&next.link_state()));
        let back = start(&to_fragment(&next.link_state()));
        for m in &next.scenario.members {
            proptest::prop_assert_eq!(back.colour_of(&m.id), next.colour_of(&m.id));
        }
    }
}

#[test]
fn the_over_time_lesson_opens_each_step_s_timeline_and_leaving_gives_the_person_s_back() {
    let s = AppState::default().apply(Action::LessonStart("over-time"));
    assert_eq!(s.lesson.as_ref().unwrap().lesson.key, "over-time");
    assert!(s.timeline.is_some(), "the step's timeline is open");
    let back = s.apply(Action::LessonLeave);
    assert_eq!(back.timeline, None);
    // from the range lesson to this one
    let r = AppState::default()
        .apply(Action::LessonOpen)
        .apply(Action::LessonStart("over-time"));
    assert_eq!(r.lesson.as_ref().unwrap().lesson.key, "over-time");
    assert!(AppState::default()
        .apply(Action::LessonStart("nope"))
        .refusal
        .is_some());
    // each lesson keeps its place: range at step 3, then over time, then range again
    let r = AppState::default()
        .apply(Action::LessonOpen)
        .apply(Action::LessonGo(2))
        .apply(Action::LessonStart("over-time"))
        .apply(Action::LessonLeave)
        .apply(Action::LessonOpen);
    let on = r.lesson.as_ref().unwrap();
    assert_eq!((on.lesson.key, on.progress.step()), ("range", 2));
    assert_eq!(
        r.timeline, None,
        "the range lesson's step opens no timeline"
    );
}
