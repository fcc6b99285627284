//! What the page says about the reader's work, above the figures: alerts
//! (`role="alert"`) and quiet notes (`role="status"`).

use crate::app::i18n::{refusal_text, PageText};
use crate::app::state::{Alert, Notice, Source, State};
use yew::prelude::*;

pub(super) fn alert_view(state: &State, on_dismiss: Callback<MouseEvent>) -> Html {
    let lang = state.lang;
    let mut messages = Vec::new();
    match &state.alert {
        Some(Alert::BadLink(e)) => {
            messages.push(format!("{} {}", PageText::BadLink.t(lang), e.message(lang)))
        }
        Some(Alert::Refused(source, e)) => {
            let prefix = match source {
                Source::Import => PageText::RefusedImport,
                Source::Link => PageText::BadLink,
                Source::Edit => PageText::RefusedEdit,
            };
            messages.push(format!("{} {}", prefix.t(lang), refusal_text(e, lang)));
        }
        Some(Alert::LangUnavailable) => {
            messages.push(PageText::LangUnavailable.t(lang).to_string())
        }
        None => {}
    }
    if !state.trace().undefined_rows.is_empty() {
        let rows: Vec<String> = state
            .trace()
            .undefined_rows
            .iter()
            .map(|r| format!("{} ({})", r + 1, state.trace().tokens[*r]))
            .collect();
        messages.push(format!(
            "{} {}",
            PageText::UndefinedRowsAlert.t(lang),
            rows.join(", ")
        ));
    }
    if messages.is_empty() {
        return html! {};
    }
    html! {
        <div class="alert" role="alert">
            { for messages.into_iter().map(|m| html! { <p>{ m }</p> }) }
            if state.alert.is_some() {
                <button onclick={on_dismiss}>{ PageText::Dismiss.t(lang) }</button>
            }
        </div>
    }
}

/// Quiet notes (`role="status"`): another tab's newer work is shown; the
/// reader's previous work is kept, with the button that brings it back;
/// storage does not keep work.
pub(super) fn notice_view(state: &State, on_restore: Callback<MouseEvent>) -> Html {
    let lang = state.lang;
    // Not offered while it is on screen (after Undo went back to it).
    let previous = state
        .previous
        .as_ref()
        .is_some_and(|p| **p != *state.scenario);
    if state.notice.is_none() && !previous && !state.storage_failed {
        return html! {};
    }
    html! {
        <div class="notice" role="status">
            if state.notice == Some(Notice::OtherTab) {
                <p>{ PageText::OtherTab.t(lang) }</p>
            }
            if previous {
                <p>
                    { PageText::PreviousKept.t(lang) }{ " " }
                    <button id="back-to-previous" onclick={on_restore}>{ PageText::BackToPrevious.t(lang) }</button>
                </p>
            }
            if state.storage_failed {
                <p class="storage-failed">{ PageText::StorageFailed.t(lang) }</p>
            }
        </div>
    }
}
