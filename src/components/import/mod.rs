//! Your own group: what `kafka-consumer-groups.sh --describe` printed, pasted and
//! read ([`rebalance_lab_core::import`]), its observed assignment pinned as the baseline; how it compares
//! with what each assignor computes for the group, with the likely reasons; its lag per
//! member and, on request, per partition on the grid.

use crate::state::{Action, Imported};
use rebalance_lab_core::scenario::whatif::Baseline;
use std::rc::Rc;
use yew::prelude::*;

mod export;
mod planner;
mod summary;

pub use export::Export;
pub use planner::Planner;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub imported: Option<Rc<Imported>>,
    /// The observed assignment, pinned.
    pub baseline: Option<Baseline>,
    pub scenario: Rc<rebalance_lab_core::scenario::Scenario>,
    /// A large group's assignment is computing in the worker.
    pub pending: bool,
    /// The lag is shown on the grid.
    pub lag_on: bool,
    /// Shows or hides the lag on the grid.
    pub on_lag: Callback<()>,
    pub dispatch: Callback<Action>,
}

/// The import box and, after an import, what the page read.
#[function_component]
pub fn Import(p: &Props) -> Html {
    let error = use_state(|| None::<String>);
    let (imported, dispatch, lag_on) = (p.imported.clone(), &p.dispatch, p.lag_on);
    // The pasted text, kept while the page lives: an import refused leaves it as it was.
    let text = use_state(String::new);
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            )
        })
    };
    let run = {
        let (d, error, text) = (dispatch.clone(), error.clone(), text.clone());
        Callback::from(
            move |_: MouseEvent| match rebalance_lab_core::import::parse(&text) {
                Ok(i) => {
                    error.set(None);
                    d.emit(Action::Import(Box::new(i)));
                }
                Err(e) => error.set(Some(e.to_string())),
            },
        )
    };
    let flip_lag = p.on_lag.reform(|_: MouseEvent| ());
    // (computed again only when what it reads changes: it runs every assignor)
    let m = use_memo(
        (
            imported.clone(),
            p.baseline.clone(),
            p.scenario.clone(),
            p.pending,
        ),
        |(imported, base, s, pending)| match (imported, base) {
            (Some(i), Some(base)) => summary::summary(i, base, s, *pending),
            _ => Html::default(),
        },
    );
    let has_lag = imported.as_deref().is_some_and(summary::shows_lag);
    html! {
        <section class="panel import-panel" id="import-panel">
            <details id="import">
                <summary>{ "Your group: paste from kafka-consumer-groups.sh" }</summary>
                <p class="hint">
                    { "The output of " }<code>{ "kafka-consumer-groups.sh --describe --group G" }</code>
                    { " (offsets), " }<code>{ "--members" }</code>{ ", " }<code>{ "--members --verbose" }</code>
                    { " or " }<code>{ "--state" }</code>
                    { ", alone or pasted together, as Kafka 2.8 to 4.x print them. The group replaces the one on screen, its observed assignment pinned as the baseline." }
                </p>
                <textarea id="import-text" rows="8" spellcheck="false" aria-label="What kafka-consumer-groups.sh printed"
                    placeholder="GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID"
                    value={(*text).clone()} oninput={on_text} />
                <button id="import-run" onclick={run}>{ "Import" }</button>
            </details>
            if let Some(e) = &*error {
                <p class="alert" role="alert" id="import-error">{ format!("Not imported, the group on screen is unchanged: {e}") }</p>
            }
            { (*m).clone() }
            if has_lag {
                <button id="lag-toggle" aria-pressed={lag_on.to_string()} onclick={flip_lag}>
                    { if lag_on { "Hide the lag on the grid" } else { "Show the lag on the grid" } }
                </button>
                if lag_on {
                    <p class="hint" id="lag-key">{ "Lag on the grid: the taller the dark bar at the bottom of a cell, the more that partition lags (four steps up to the largest lag; no bar: no lag, or none shown, as for a partition without a committed offset). The lag is also in each cell's name." }</p>
                }
            }
        </section>
    }
}
