//! Topics and members: add, rename, remove; partitions; group.instance.id, rack and
//! subscriptions per member. Refused edits say why beside the field.

use crate::app::state::Action;
use crate::scenario::Scenario;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub scenario: Scenario,
    pub refusal: Option<(String, String)>,
    pub dispatch: Callback<Action>,
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>().value()
}

fn refusal_for(props: &Props, field: &str) -> Html {
    match &props.refusal {
        Some((f, msg)) if f == field => html! {
            <div class="refusal" role="alert" data-field={field.to_string()}>{ msg.clone() }</div>
        },
        _ => html! {},
    }
}

#[function_component(Editor)]
pub fn editor(props: &Props) -> Html {
    let s = &props.scenario;
    let d = &props.dispatch;
    let topics = s.topics.iter().enumerate().map(|(i, t)| {
        let rename = d.reform(move |e: InputEvent| Action::RenameTopic { index: i, name: input_value(&e) });
        let partitions = d.reform(move |e: InputEvent| Action::SetPartitions { index: i, text: input_value(&e) });
        let remove = d.reform(move |_| Action::RemoveTopic(i));
        let name_field = format!("topic-{i}-name");
        let part_field = format!("topic-{i}-partitions");
        html! {
            <li class="topic-row" data-topic-row={t.name.clone()}>
                <input class="topic-name" id={name_field.clone()} aria-label="Topic name" value={t.name.clone()} oninput={rename} />
                <input class="topic-partitions" id={part_field.clone()} aria-label="Partitions" type="number" min="1" max="10000"
                    value={t.partitions.to_string()} oninput={partitions} />
                <button class="remove-topic" aria-label={format!("Remove topic {}", t.name)} onclick={remove}>{ "✕" }</button>
                { refusal_for(props, &name_field) }
                { refusal_for(props, &part_field) }
            </li>
        }
    });
    let members = s.members.iter().enumerate().map(|(i, m)| {
        let rename = d.reform(move |e: InputEvent| Action::RenameMember { index: i, id: input_value(&e) });
        let instance = d.reform(move |e: InputEvent| Action::SetInstanceId { index: i, text: input_value(&e) });
        let rack = d.reform(move |e: InputEvent| Action::SetRack { index: i, text: input_value(&e) });
        let remove = d.reform(move |_| Action::RemoveMember(i));
        let id_field = format!("member-{i}-id");
        let boxes = s.topics.iter().map(|t| {
            let topic = t.name.clone();
            let on = m.topics.contains(&t.name);
            let toggle = d.reform(move |e: Event| Action::SetSubscribed {
                index: i,
                topic: topic.clone(),
                on: e.target_unchecked_into::<web_sys::HtmlInputElement>().checked(),
            });
            html! {
                <label class="sub">
                    <input type="checkbox" class="subscribe" data-member={m.id.clone()} data-topic={t.name.clone()} checked={on} onchange={toggle} />
                    { t.name.clone() }
                </label>
            }
        });
        let ghosts = m.topics.iter().filter(|t| s.topic_index(t).is_none()).map(|t| {
            let topic = t.clone();
            let drop_it = d.reform(move |_| Action::SetSubscribed { index: i, topic: topic.clone(), on: false });
            html! {
                <span class="ghost" data-missing-topic={t.clone()} title="Subscribed, but not in the cluster metadata: Kafka skips it">
                    { format!("{} (missing: Kafka skips it)", t) }
                    <button class="unsubscribe" aria-label={format!("Unsubscribe from {t}")} onclick={drop_it}>{ "✕" }</button>
                </span>
            }
        });
        html! {
            <li class="member-row" data-member-row={m.id.clone()}>
                <div class="member-fields">
                    <input class="member-id" id={id_field.clone()} aria-label="Member id" value={m.id.clone()} oninput={rename} />
                    <input class="member-instance" aria-label="group.instance.id" placeholder="group.instance.id (static)"
                        value={m.instance_id.clone().unwrap_or_default()} oninput={instance} />
                    <input class="member-rack" aria-label="client.rack" placeholder="client.rack"
                        value={m.rack.clone().unwrap_or_default()} oninput={rack} />
                    <button class="remove-member" aria-label={format!("Remove member {}", m.id)} onclick={remove}>{ "✕" }</button>
                </div>
                { refusal_for(props, &id_field) }
                <div class="subs">{ for boxes }{ for ghosts }</div>
            </li>
        }
    });
    html! {
        <>
            <h2>{ "Topics" }</h2>
            <ul class="topics">{ for topics }</ul>
            <button id="add-topic" onclick={d.reform(|_| Action::AddTopic)}>{ "+ Add topic" }</button>
            <h2>{ "Members" }</h2>
            <ul class="members">{ for members }</ul>
            <button id="add-member" onclick={d.reform(|_| Action::AddMember)}>{ "+ Add member" }</button>
        </>
    }
}
