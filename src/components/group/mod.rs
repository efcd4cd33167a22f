//! The group's life: which broker coordinates it, what each member's client lists, the vote
//! and its winner, the leader and who leads next, the leader's client, and one rebalance
//! round step by step with what eager and cooperative rebalancing stop. Every sentence
//! comes from the core (`group`, `scenario::classic`); this file only lays it out.

mod views;

use crate::state::DEFAULT_VERSION;
use crate::state::{group_leader, Action};
use crate::Computed;
use rebalance_lab_core::assignor::{AssignorKind, LeaderClient};
use rebalance_lab_core::group::{
    join_metadata, rebalances_eagerly, revocations, round, ClientPreset, GroupEvent, RoundAssignor,
    RoundMember,
};
use rebalance_lab_core::protocol::{
    encode_assignment, Assignment, SubscriptionParts, TopicPartitions,
};
use rebalance_lab_core::scenario::Scenario;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub scenario: Rc<Scenario>,
    pub group_log: Vec<GroupEvent>,
    pub computed: Rc<Computed>,
    /// The panel waits for the task after the grid's repaint ([`crate::AfterRepaint`]).
    pub waiting: bool,
    pub refusal: Option<(String, String)>,
    /// The group came from a paste of kafka-consumer-groups.sh, which does not print who
    /// joined first: who leads is the page's guess.
    pub imported: bool,
    pub dispatch: Callback<Action>,
}

fn value_of(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

fn input_of(e: &InputEvent) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

fn parse_list(t: &str) -> Vec<String> {
    t.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

/// The text typed last in a member's partition.assignment.strategy field, and that member's
/// index, held by the panel (in two states of types the page already has: each state type
/// brings its own code).
type Typed = (UseStateHandle<Option<String>>, UseStateHandle<usize>);

/// A member's partition.assignment.strategy: a client's default, or typed. The typed text is
/// kept as typed while it reads as the member's list (so a trailing comma stays).
fn strategy(i: usize, protocols: &[String], dispatch: &Callback<Action>, typed: &Typed) -> Html {
    let preset = ClientPreset::ALL.into_iter().find(|c| {
        c.protocols()
            .iter()
            .copied()
            .eq(protocols.iter().map(String::as_str))
    });
    let shown = match &*typed.0 {
        Some(text) if *typed.1 == i && parse_list(text) == protocols => text.clone(),
        _ => protocols.join(", "),
    };
    let pick = {
        let d = dispatch.clone();
        // "custom" changes nothing: the text field beside it is where the list is typed.
        Callback::from(move |e: Event| {
            if let Some(preset) = ClientPreset::parse(&value_of(&e)) {
                d.emit(Action::UseClientPreset { index: i, preset });
            }
        })
    };
    let typed = {
        let (d, typed) = (dispatch.clone(), typed.clone());
        Callback::from(move |e: InputEvent| {
            let text = input_of(&e);
            typed.0.set(Some(text.clone()));
            typed.1.set(i);
            d.emit(Action::SetProtocols { index: i, text });
        })
    };
    html! {
        <>
            <select data-member-preset={i.to_string()} aria-label="Client" onchange={pick}>
                { for ClientPreset::ALL.into_iter().map(|c| html! {
                    <option value={c.name()} selected={preset == Some(c)}>{ c.name() }</option>
                }) }
                <option value="custom" selected={preset.is_none()}>{ "custom" }</option>
            </select>
            <input id={format!("member-{i}-protocols")} data-member-protocols={i.to_string()}
                aria-label="partition.assignment.strategy" value={shown} oninput={typed} />
        </>
    }
}

/// Where the Java and librdkafka leaders' assignments differ: (topic, partition, Java's
/// owner, librdkafka's owner) for the first few, and how many in all. The page already ran
/// the scenario's leader client; only the other one runs here.
fn disagreements(s: &Scenario, c: &Computed) -> (Vec<(String, u32, String, String)>, usize) {
    // Only range and round-robin follow the leader's client (the panel says so otherwise):
    // running the sticky assignors twice more per render would show nothing.
    let (mine, other) = match s.assignor {
        AssignorKind::Range => (
            &*c.range,
            rebalance_lab_core::assignor::range_with as fn(_, _) -> _,
        ),
        AssignorKind::RoundRobin => (
            &*c.round_robin,
            rebalance_lab_core::assignor::round_robin_with as fn(_, _) -> _,
        ),
        _ => return (Vec::new(), 0),
    };
    let input: &rebalance_lab_core::assignor::GroupInput = &c.input;
    // (none while a large group's worker computes)
    if c.pending {
        return (Vec::new(), 0);
    }
    let theirs = &other(input, s.leader_client.other());
    let (j, r) = match s.leader_client {
        LeaderClient::Java => (mine, theirs),
        LeaderClient::Librdkafka => (theirs, mine),
    };
    let name = |o: u32| {
        input
            .members
            .get(o as usize)
            .map_or("nobody".to_string(), |m| m.id.clone())
    };
    let mut first = Vec::new();
    let mut n = 0;
    for (tj, tr) in j.topics.iter().zip(&r.topics) {
        for (p, (a, b)) in tj.owners.iter().zip(&tr.owners).enumerate() {
            if a != b {
                n += 1;
                if first.len() < 5 {
                    first.push((tj.topic.clone(), p as u32, name(*a), name(*b)));
                }
            }
        }
    }
    (first, n)
}

/// The round's members; the bytes (JoinGroup metadata, SyncGroup assignment) only for the
/// first `shown`, the ones whose lines the round shows (encoding every member's metadata
/// took most of a 1,000-member page's first paint).
fn round_members<'a>(
    s: &'a Scenario,
    c: &'a Computed,
    mut cooperative_all: Option<Vec<Vec<TopicPartitions>>>,
    shown: usize,
) -> Vec<RoundMember<'a>> {
    let mut assigned_shown = c.assigned_to_first(shown);
    s.members
        .iter()
        .zip(&c.before_round().members)
        .enumerate()
        .map(|(i, (m, was))| {
            let assigned = assigned_shown
                .get_mut(i)
                .map(std::mem::take)
                .unwrap_or_default();
            let cooperative = cooperative_all
                .as_mut()
                .map(|all| all.get_mut(i).map(std::mem::take).unwrap_or_default());
            // the bytes only for a member whose lines the round shows
            let (metadata, assignment) = if i < shown {
                let mut sub = m.fields_subscription();
                sub.owned_partitions =
                    TopicPartitions::list(was.owned.iter().map(|(t, ps)| (t, ps)));
                sub.generation_id = was.generation.unwrap_or(-1);
                let assignment = encode_assignment(
                    &Assignment {
                        assigned_partitions: assigned.clone(),
                        user_data: None,
                    },
                    3,
                )
                .map(|e| e.bytes)
                .unwrap_or_default();
                (
                    join_metadata(
                        SubscriptionParts::of(&sub),
                        &m.protocols,
                        m.subscription.as_deref(),
                        DEFAULT_VERSION,
                    ),
                    assignment,
                )
            } else {
                Default::default()
            };
            RoundMember {
                id: m.id.clone(),
                protocols: &m.protocols,
                metadata,
                eager: rebalances_eagerly(&m.protocols),
                assignment,
                assigned,
                owned_before: &was.owned,
                cooperative,
            }
        })
        .collect()
}

/// The panel. Its view is kept while a large group's panel waits for the task after the
/// grid's repaint, and drawn again only when what it shows changes: the panel's vote, round
/// and second leader's assignment took about 60 ms at 500,000 partitions.
#[function_component]
pub fn GroupPanel(p: &Props) -> Html {
    let step = use_state(|| 0usize);
    // A large group: the first MEMBERS_SHOWN (50) members in each per-member list until
    // asked for all.
    let all = use_state(|| false);
    let typed: Typed = (use_state(|| None), use_state(|| 0));
    // The panel drawn last and what it showed: drawn again only when that changes, and what
    // a large group shows while its panel waits for the task after the grid's repaint
    // (nothing of it is lost meanwhile: a field being typed in stays).
    let last = use_mut_ref(|| None);
    // (the typed text too: the panel's view written again with the field as the person
    // typed it; the cached one would set the field back to the list as the page writes it)
    let deps = (
        p.scenario.clone(),
        p.group_log.clone(),
        p.computed.clone(),
        p.refusal.clone(),
        *step,
        *all,
        (*typed.0).clone(),
        *typed.1,
    );
    let mut last = last.borrow_mut();
    match &*last {
        Some((was, view)) if p.waiting || *was == deps => return Html::clone(view),
        // (nothing until the first: the grid above is what the page opens with)
        _ if p.waiting => return Html::default(),
        _ => {}
    }
    let view = group_panel(p, &step, &all, &typed);
    *last = Some((deps, view.clone()));
    view
}

thread_local! {
    /// The last vote and the group it is for: a repaint whose members and their protocol
    /// lists are as they were (the assignor switched, a topic or a subscription changed, a
    /// baseline pinned) reads it instead of voting again, the panel's largest cost at 10,000
    /// members.
    static VOTED: std::cell::RefCell<Option<(Rc<Scenario>, Rc<rebalance_lab_core::group::ProtocolSelection>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The vote of `s`'s members, computed once per such group.
fn vote_of(s: &Rc<Scenario>) -> Rc<rebalance_lab_core::group::ProtocolSelection> {
    VOTED.with(|v| {
        let mut v = v.borrow_mut();
        if let Some((was, r)) = &*v {
            if was.members.len() == s.members.len()
                && was
                    .members
                    .iter()
                    .zip(&s.members)
                    .all(|(a, b)| a.id == b.id && a.protocols == b.protocols)
            {
                return r.clone();
            }
        }
        let r = Rc::new(s.vote());
        *v = Some((s.clone(), r.clone()));
        r
    })
}

#[inline(never)]
/// The group's id and the offsets topic's partition count (which choose the coordinator),
/// with a refusal of either.
fn group_fields(p: &Props) -> Html {
    let (s, d) = (&p.scenario, &p.dispatch);
    let set_id = d.reform(|e: InputEvent| Action::SetGroupId(input_of(&e)));
    let set_n = d.reform(|e: InputEvent| Action::SetOffsetsPartitions(input_of(&e)));
    let refusal = match &p.refusal {
        Some((f, m)) if f == "offsets-partitions" || f == "group" || f.ends_with("-protocols") => {
            html! { <div class="refusal" role="alert" data-field={f.clone()}>{ m.clone() }</div> }
        }
        _ => html! {},
    };
    html! {
        <>
            <p class="group-fields">
                <label>{ "group.id " }<input id="group-id" value={s.group_id_or_default().to_string()} oninput={set_id} /></label>
                <label>{ " offsets.topic.num.partitions " }<input id="offsets-partitions" type="number" min="1"
                    value={s.offsets_partitions.to_string()} oninput={set_n} /></label>
            </p>
            { refusal }
        </>
    }
}

/// The group under the consumer protocol (KIP-848): the same coordinator, and none of the
/// classic group's vote, leader or JoinGroup/SyncGroup round, which that protocol does not
/// have.
fn consumer_protocol_panel(p: &Props, coord: &rebalance_lab_core::group::Coordinator) -> Html {
    let assignor = match p.scenario.assignor {
        AssignorKind::ServerRange => "range",
        _ => "uniform",
    };
    html! {
        <section class="panel group" id="group" data-protocol="consumer">
            <h2>{ "The group" }</h2>
            { group_fields(p) }
            { views::coordinator(coord) }
            <p id="consumer-protocol-group">
                { "Under the consumer protocol (group.protocol=consumer, KIP-848) there is no vote, no leader and no JoinGroup or SyncGroup round: each member sends ConsumerGroupHeartbeat to this coordinator, which computes every member's target assignment itself with the group's server-side assignor (group.remote.assignor=" }
                { assignor }
                { ") and hands it out heartbeat by heartbeat, as the reconciliation shows once a group is pinned and changed. The members' partition.assignment.strategy plays no part." }
            </p>
        </section>
    }
}

fn group_panel(
    p: &Props,
    step: &UseStateHandle<usize>,
    all: &UseStateHandle<bool>,
    typed: &Typed,
) -> Html {
    let s = &p.scenario;
    let d = &p.dispatch;
    let shown = crate::components::members_shown(**all, s.members.len());
    let coord = s.coordinator();
    if s.assignor.is_broker() {
        return consumer_protocol_panel(p, &coord);
    }
    let vote = &*vote_of(s);
    let accepted = vote.accepted_ids();
    let refused: Vec<&str> = vote.refused.iter().map(|r| r.id.as_str()).collect();
    let lead = group_leader(&p.group_log, &accepted, &refused);
    let leader = lead.leader.clone().unwrap_or_default();
    let next = lead.next_leader.clone().unwrap_or_default();
    let winner = vote.selected.clone().unwrap_or_default();
    let (differ, n_differ) = disagreements(s, &p.computed);
    // cooperative-sticky's first round, once: the round's members and the stops table's note
    let (cooperative_all, cooperative_error) = match p.computed.cooperative_to_all() {
        Some(Ok(all)) => (Some(all), None),
        Some(Err(e)) => (
            None,
            Some(format!(
                "cooperative-sticky gives no answer for this change: {e}"
            )),
        ),
        None => (None, None),
    };
    let members = round_members(s, &p.computed, cooperative_all, shown);
    let voted = rebalance_lab_core::scenario::assignor_of(vote);
    let runs = RoundAssignor {
        name: s.assignor.name().to_string(),
        by_vote: s.assignor_by_vote && voted == Some(s.assignor),
        kept: s.assignor_by_vote && voted.is_none(),
        withheld: match (&p.computed.sticky, s.assignor) {
            (Some(Ok((r1, _))), AssignorKind::CooperativeSticky) => r1.withheld.len() as u32,
            _ => 0,
        },
    };
    let steps = round(&coord, vote, lead.leader.as_deref(), &runs, &members, shown);
    let rev = revocations(&members);
    let k = (**step).min(steps.len() - 1);

    // The round's Back and Forward (the focus stays on the pressed one, or goes to the other
    // when it became disabled at either end).
    let go = |to: usize, ids: &'static [&'static str]| {
        let step = step.clone();
        Callback::from(move |_: MouseEvent| {
            step.set(to);
            crate::components::refocus(ids);
        })
    };
    let last = steps.len() - 1;
    let source = assignor_source(s, voted, &winner, d);
    let last_why = lead
        .steps
        .last()
        .filter(|st| st.changed && matches!(st.event, GroupEvent::Leave(_)))
        .map(|st| st.why.as_str());
    html! {
        <section class="panel group" id="group">
            <h2>{ "The group" }</h2>
            { group_fields(p) }
            { views::coordinator(&coord) }
            { votes_table(p, vote, &leader, shown, typed) }
            { crate::components::show_all_toggle(all, s.members.len(), "group") }
            { views::vote_and_leader(vote, &leader, &next, last_why) }
            if p.imported && !leader.is_empty() {
                <p class="hint" id="leader-guessed">{ format!("kafka-consumer-groups.sh does not print who joined first. {leader} leads here because it is first in the list (the order of the pasted lines, until you press \"Joined first\" beside another member); the group's real leader may be another member.") }</p>
            }
            <p class="assignor-source">{ "Assignor: " }{ s.assignor.name() }{ ", " }{ source }</p>
            { leader_client(s, &differ, n_differ, d) }
            <h3>{ "One rebalance, step by step" }</h3>
            <div class="round" data-round-step={steps[k].name}>
                <button id="round-back" disabled={k == 0} onclick={go(k.saturating_sub(1), &["round-back", "round-forward"])}>{ "Back" }</button>
                <strong>{ format!(" {}/{} {} ", k + 1, steps.len(), steps[k].name) }</strong>
                <button id="round-forward" disabled={k == last} onclick={go((k + 1).min(last), &["round-forward", "round-back"])}>{ "Forward" }</button>
                <div class="round-lines">
                    <ul>{ for steps[k].lines.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
                </div>
                if steps[k].name == "JoinGroup" {
                    <p>
                        { "Each entry's metadata, decoded: " }
                        { for s.members.iter().take(shown).enumerate().map(|(i, member)| html! {
                            <button data-round-bytes={member.id.clone()} onclick={d.reform(move |_| Action::ShowBytes(Some(i)))}>
                                { format!("Bytes of {}", member.id) }
                            </button>
                        }) }
                    </p>
                }
            </div>
            { views::stops(&rebalance_lab_core::group::Revocations {
                eager: rev.eager.iter().take(shown).cloned().collect(),
                cooperative: rev.cooperative.iter().take(shown).cloned().collect(),
            }, cooperative_error.as_deref()) }
        </section>
    }
}

/// Each member's strategies and vote, who leads, and "Joined first" while the list is the
/// join order (nobody has left): the first `shown` members.
fn votes_table(
    p: &Props,
    vote: &rebalance_lab_core::group::ProtocolSelection,
    leader: &str,
    shown: usize,
    typed: &Typed,
) -> Html {
    let (s, d) = (&p.scenario, &p.dispatch);
    html! {
        <table class="votes">
            <tr><th>{ if p.imported { "member (joins in list order; the paste does not say who joined first)" } else { "member (joins in list order)" } }</th><th>{ "partition.assignment.strategy" }</th><th>{ "vote" }</th></tr>
            { for s.members.iter().take(shown).enumerate().map(|(i, m)| {
                let v = vote.votes.iter().find(|v| v.id == m.id);
                let refused = vote.refused.iter().find(|r| r.id == m.id);
                // One cell, three readings: refused, a vote (or none), or not in the vote.
                let (refused, voted, text) = match (refused, v) {
                    (Some(r), _) => (Some("true"), None, format!("{}: {}", r.error.name(), r.why)),
                    (_, Some(v)) => {
                        let name = v.vote.as_ref().map(|x| x.0.clone());
                        let text = format!("{} — {}", name.as_deref().unwrap_or("none"), v.why);
                        (None, Some(name.unwrap_or_default()), text)
                    }
                    _ => (None, None, String::new()),
                };
                let cell = html! { <td data-refused={refused} data-member-vote={voted}>{ text }</td> };
                // Who joined first is the person's to say (an import cannot know it), while
                // the list is the join order: nobody has left.
                let first = (i > 0 && p.group_log.is_empty()).then(|| html! {
                    <button class="join-first" data-join-first={m.id.clone()} aria-label={format!("{} joined first", m.id)}
                        onclick={d.reform(move |_| Action::JoinFirst(i))}>{ "Joined first" }</button>
                });
                html! { <tr data-vote-member={m.id.clone()}>
                    <td class="name">{ m.id.clone() }{ if m.id == leader { " (leader)" } else { "" } }{ for first }</td>
                    <td>{ strategy(i, &m.protocols, d, typed) }</td>
                    { cell }
                </tr> }
            }) }
        </table>
    }
}

/// The leader's client (Java or librdkafka) and where the two would order the members
/// differently (`data-disagree`).
fn leader_client(
    s: &Scenario,
    differ: &[(String, u32, String, String)],
    n_differ: usize,
    d: &Callback<Action>,
) -> Html {
    let set_client = d.reform(|e: Event| {
        Action::SetLeaderClient(if value_of(&e) == "librdkafka" {
            LeaderClient::Librdkafka
        } else {
            LeaderClient::Java
        })
    });
    html! {
        <p class="leader-client">
            <label for="leader-client">{ "The leader's client " }</label>
            <select id="leader-client" onchange={set_client}>
                <option value="java" selected={s.leader_client == LeaderClient::Java}>{ "Java" }</option>
                <option value="librdkafka" selected={s.leader_client == LeaderClient::Librdkafka}>{ "librdkafka" }</option>
            </select>
            <span data-disagree={n_differ.to_string()}>{
                if !matches!(s.assignor, AssignorKind::Range | AssignorKind::RoundRobin) {
                    " orders members for range and round-robin only.".to_string()
                } else if n_differ == 0 {
                    " Java and librdkafka order this group's members alike: same assignment.".to_string()
                } else {
                    let mut t = format!(" Java and librdkafka disagree on {n_differ} partition(s):");
                    for (topic, part, a, b) in differ {
                        t.push_str(&format!(" {topic} {part} (Java {a}, librdkafka {b});"));
                    }
                    t
                }
            }</span>
        </p>
    }
}

/// Where the assignor comes from: the vote, chosen by hand and the vote's too, or chosen by
/// hand over the vote (with "Follow the vote").
fn assignor_source(
    s: &Scenario,
    voted: Option<AssignorKind>,
    winner: &str,
    d: &Callback<Action>,
) -> Html {
    if s.assignor_by_vote {
        // (a protocol no client assignor of this page answers to, a custom one say, keeps it)
        let text = match voted {
            None if !winner.is_empty() => {
                format!("kept: the vote chose {winner}, which this page does not run")
            }
            _ => "chosen by the vote".to_string(),
        };
        html! { <span data-assignor-source="vote">{ text }</span> }
    } else if voted == Some(s.assignor) {
        // (chosen by hand, but the same as the vote's: nothing is overridden)
        html! { <span data-assignor-source="vote">{ "chosen, and the vote's too" }</span> }
    } else {
        html! { <>
            <span data-assignor-source="override">{ format!("overridden (the vote chose {winner})") }</span>
            <button id="follow-vote" onclick={d.reform(|_| Action::FollowVote)}>{ "Follow the vote" }</button>
        </> }
    }
}
