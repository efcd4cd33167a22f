//! Topics and members: add, rename, remove; partitions; group.instance.id, rack and
//! subscriptions per member. Refused edits say why beside the field. Each row is its own
//! component, so an edit repaints only the rows it changes.

use crate::components::{members_shown, show_all_toggle};
use crate::state::Action;
use rebalance_lab_core::scenario::edit::format_partition_racks;
use rebalance_lab_core::scenario::{Member, Scenario, Topic};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub scenario: Rc<Scenario>,
    /// The member whose bytes are open in the bytes panel, if any.
    pub bytes_open: Option<usize>,
    pub refusal: Option<(String, String)>,
    pub dispatch: Callback<Action>,
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

fn refusal_html(field: &str, refusal: &Option<(String, String)>) -> Html {
    match refusal {
        Some((f, msg)) if f == field => html! {
            <div class="refusal" role="alert" data-field={field.to_string()}>{ msg.clone() }</div>
        },
        _ => html! {},
    }
}

// Rows are keyed by position: yew then pairs row i with row i (an unkeyed list pairs them
// from the end, so appending a member would repaint every row), and an input keeps its
// focus while its name is edited.

/// The refusal, when it concerns this row (so other rows' props stay equal).
fn refusal_for_row(refusal: &Option<(String, String)>, prefix: &str) -> Option<(String, String)> {
    refusal
        .as_ref()
        .filter(|(f, _)| f.starts_with(prefix) && f[prefix.len()..].starts_with('-'))
        .cloned()
}

#[derive(Properties, PartialEq)]
struct TopicRowProps {
    index: usize,
    topic: Topic,
    racks: Option<Vec<Vec<String>>>,
    /// Its topic id, shown only where the broker's assignors run (they read it).
    id: Option<String>,
    refusal: Option<(String, String)>,
    dispatch: Callback<Action>,
}

#[function_component(TopicRow)]
fn topic_row(p: &TopicRowProps) -> Html {
    let i = p.index;
    let rename = p.dispatch.reform(move |e: InputEvent| Action::RenameTopic {
        index: i,
        name: input_value(&e),
    });
    let partitions = p
        .dispatch
        .reform(move |e: InputEvent| Action::SetPartitions {
            index: i,
            text: input_value(&e),
        });
    let remove = p.dispatch.reform(move |_| Action::RemoveTopic(i));
    let set_racks = p
        .dispatch
        .reform(move |e: InputEvent| Action::SetPartitionRacks {
            index: i,
            text: input_value(&e),
        });
    let name_field = format!("topic-{i}-name");
    let part_field = format!("topic-{i}-partitions");
    let racks_field = format!("topic-{i}-racks");
    let racks_text = p
        .racks
        .as_deref()
        .map(format_partition_racks)
        .unwrap_or_default();
    html! {
        <li class="topic-row">
            <input class="topic-name" id={name_field.clone()} aria-label="Topic name" value={p.topic.name.clone()} oninput={rename} />
            <input class="topic-partitions" id={part_field.clone()} aria-label="Partitions" type="number" min="1" max="10000"
                value={p.topic.partitions.to_string()} oninput={partitions} />
            <button class="remove-topic" aria-label={format!("Remove topic {}", p.topic.name)} onclick={remove}>{ "✕" }</button>
            <input class="topic-racks" id={racks_field.clone()} aria-label="Replica racks per partition"
                placeholder="replica racks per partition: a,b; b,c; …" value={racks_text} oninput={set_racks}
                title="For rack-aware range (KIP-881): the racks of each partition's replicas, partitions split by ';', racks by ','" />
            { topic_id_field(p) }
            { refusal_html(&name_field, &p.refusal) }
            { refusal_html(&part_field, &p.refusal) }
            { refusal_html(&racks_field, &p.refusal) }
        </li>
    }
}

/// The topic's id, when one of the broker's assignors is chosen.
fn topic_id_field(p: &TopicRowProps) -> Html {
    let Some(id) = &p.id else {
        return Html::default();
    };
    let i = p.index;
    let set = p.dispatch.reform(move |e: InputEvent| Action::SetTopicId {
        index: i,
        text: input_value(&e),
    });
    let field = format!("topic-{i}-id");
    html! {
        <>
            <label class="topic-id-label" for={field.clone()}>{ "topic id" }</label>
            <input class="topic-id" id={field.clone()} aria-label={format!("Topic id of {}", p.topic.name)} value={id.clone()} oninput={set}
                spellcheck="false" title="Kafka's topic id (a Uuid, 22 base64url characters): the broker's assignors order topics by it. Empty: an id derived from the name." />
            { refusal_html(&field, &p.refusal) }
        </>
    }
}

/// A topic's id as its row shows it (None: the row shows none).
fn topic_id(s: &rebalance_lab_core::scenario::Scenario, name: &str) -> Option<String> {
    s.assignor.is_broker().then(|| s.topic_id_of(name))
}

/// Above this many topics a member's subscription is one line until opened.
const COMPACT_ABOVE: usize = 10;

#[derive(Properties, PartialEq)]
struct MemberRowProps {
    index: usize,
    member: Member,
    /// Whether its bytes are open in the bytes panel.
    bytes_open: bool,
    topics: Rc<Vec<String>>,
    refusal: Option<(String, String)>,
    dispatch: Callback<Action>,
}

#[function_component(MemberRow)]
fn member_row(p: &MemberRowProps) -> Html {
    let i = p.index;
    let m = &p.member;
    let d = &p.dispatch;
    let rename = d.reform(move |e: InputEvent| Action::RenameMember {
        index: i,
        id: input_value(&e),
    });
    let instance = d.reform(move |e: InputEvent| Action::SetInstanceId {
        index: i,
        text: input_value(&e),
    });
    let rack = d.reform(move |e: InputEvent| Action::SetRack {
        index: i,
        text: input_value(&e),
    });
    let remove = d.reform(move |_| Action::RemoveMember(i));
    // (a toggle: pressed again, it closes the bytes)
    let open = p.bytes_open;
    let show_bytes = d.reform(move |_| Action::ShowBytes((!open).then_some(i)));
    let id_field = format!("member-{i}-id");
    let bad_bytes = m.subscription.is_some() && m.effective_subscription().is_err();
    // Many topics: one line ("all 50 topics") until opened, not a checkbox per topic in
    // every row (a 1,000-member group drew 10,000 of them before anyone looked).
    // (the open member's id, not a flag: rows are keyed by position, and the row a removed
    // member leaves to the next one must not come open)
    let open = use_state(|| None::<String>);
    let compact = p.topics.len() > COMPACT_ABOVE && open.as_deref() != Some(m.id.as_str());
    let flip = {
        let open = open.clone();
        let id = if compact { Some(m.id.clone()) } else { None };
        Callback::from(move |_| open.set(id.clone()))
    };
    let summary = (p.topics.len() > COMPACT_ABOVE).then(|| {
        let n = p.topics.len();
        let on = p.topics.iter().filter(|t| m.topics.contains(t)).count();
        let text = if on == n {
            format!("all {n} topics")
        } else {
            format!("{on} of {n} topics")
        };
        html! {
            <button class="subs-open" data-subs-open={m.id.clone()} aria-expanded={(!compact).to_string()} onclick={flip}>{ text }</button>
        }
    });
    let boxes = p.topics.iter().filter(|_| !compact).map(|t| {
        let topic = t.clone();
        let on = m.topics.contains(t);
        let toggle = d.reform(move |e: Event| Action::SetSubscribed {
            index: i,
            topic: topic.clone(),
            on: e.target_unchecked_into::<web_sys::HtmlInputElement>().checked(),
        });
        html! {
            <label class="sub">
                <input type="checkbox" class="subscribe" data-subscribe-member={m.id.clone()} data-subscribe-topic={t.clone()} checked={on} onchange={toggle} />
                { t.clone() }
            </label>
        }
    });
    let ghosts = m.topics.iter().filter(|t| !p.topics.contains(t)).map(|t| {
        let topic = t.clone();
        let drop_it = d.reform(move |_| Action::SetSubscribed { index: i, topic: topic.clone(), on: false });
        html! {
            <span class="ghost" data-missing-topic={t.clone()} title="Subscribed, but not in the cluster metadata: Kafka skips it">
                { format!("{t} (missing: Kafka skips it)") }
                <button class="unsubscribe" aria-label={format!("Unsubscribe from {t}")} onclick={drop_it}>{ "✕" }</button>
            </span>
        }
    });
    html! {
        <li class="member-row">
            <div class="member-fields">
                <input class="member-id" id={id_field.clone()} aria-label="Member id" value={m.id.clone()} title={m.id.clone()} oninput={rename} />
                // A long id is cut to the same prefix in every input: say what tells it apart.
                if rebalance_lab_core::scenario::member_id::display_id(&m.id) != m.id {
                    <span class="id-hint" aria-hidden="true">{ rebalance_lab_core::scenario::member_id::display_id(&m.id) }</span>
                }
                <input class="member-instance" aria-label="group.instance.id" placeholder="group.instance.id (static)"
                    value={m.instance_id.clone().unwrap_or_default()} oninput={instance} />
                <input class="member-rack" aria-label="client.rack" placeholder="client.rack"
                    value={m.rack.clone().unwrap_or_default()} oninput={rack} />
                <button class="show-bytes" data-show-bytes={m.id.clone()} onclick={show_bytes}
                    aria-pressed={p.bytes_open.to_string()}
                    title="The ConsumerProtocolSubscription this member sends, as hex">
                    { if m.subscription.is_some() { "Bytes (raw)" } else { "Bytes" } }
                </button>
                <button class="remove-member" aria-label={format!("Remove member {}", m.id)} onclick={remove}>{ "✕" }</button>
            </div>
            if bad_bytes {
                <div class="refusal" role="status">{ "Its subscription bytes do not decode: it subscribes to nothing until they do (see Bytes)." }</div>
            }
            { refusal_html(&id_field, &p.refusal) }
            <div class="subs">{ for summary }{ for boxes }{ for ghosts }</div>
        </li>
    }
}

/// The editor: the topics and the members, each a row repainted only when it changes.
#[function_component]
pub fn Editor(props: &Props) -> Html {
    let s = &props.scenario;
    let d = &props.dispatch;
    let names = {
        let names: Vec<String> = s.topics.iter().map(|t| t.name.clone()).collect();
        use_memo(names, |n| n.clone())
    };
    let topics = s.topics.iter().enumerate().map(|(i, t)| {
        html! {
            <TopicRow key={i} index={i} topic={t.clone()} racks={s.partition_racks.get(&t.name).cloned()} id={topic_id(s, &t.name)} refusal={refusal_for_row(&props.refusal, &format!("topic-{i}"))} dispatch={d.clone()} />
        }
    });
    let all = use_state(|| false);
    let shown = members_shown(*all, s.members.len());
    let members = s.members.iter().take(shown).enumerate().map(|(i, m)| {
        html! {
            <MemberRow key={i} index={i} member={m.clone()} topics={names.clone()} bytes_open={props.bytes_open == Some(i)}
                refusal={refusal_for_row(&props.refusal, &format!("member-{i}"))} dispatch={d.clone()} />
        }
    });
    html! {
        <>
            { crate::components::glossary::heading("h2", "Topics".into(), &["partition"]) }
            <ul class="topics">{ for topics }</ul>
            <button id="add-topic" onclick={d.reform(|_| Action::AddTopic)}>{ "+ Add topic" }</button>
            { crate::components::glossary::heading("h2", "Members".into(), &["member", "static"]) }
            <ul class="members">{ for members }</ul>
            { show_all_toggle(&all, s.members.len(), "editor") }
            <div class="member-count-row">
                <button id="add-member" onclick={d.reform(|_| Action::AddMember)}>{ "+ Add member" }</button>
                <label for="member-count">{ "members:" }</label>
                <input id="member-count" type="number" min="0" max="10000" inputmode="numeric"
                    aria-describedby="member-count-help" value={s.members.len().to_string()}
                    onchange={d.reform(|e: Event| Action::SetMemberCount(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))} />
                <span id="member-count-help" class="hint">{ "sets the group's size in one step: joiners get real consumer ids, the last listed leave" }</span>
            </div>
            { refusal_html("member-count", &props.refusal) }
        </>
    }
}
