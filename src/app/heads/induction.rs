//! What a stack predicts, and predict-then-reveal on it (note 000 §3.2):
//! for a scenario of one-hot tokens (the induction preset), the last
//! position's vote for each token, and the question "with layer 1 removed,
//! does it still vote the same?", answered from the engine's numbers.

use crate::app::i18n::{fill, Lang, PageText};
use crate::app::state::Layers;
use crate::attention::Scenario;
use crate::lesson::format::rounded;
use crate::lesson::induction::{vote, vote_without_first_layer, Vote};
use yew::prelude::*;

/// Compared by pointer: the page renders this on every edit.
#[derive(Properties, PartialEq)]
pub struct VoteProps {
    pub scenario: crate::app::Shared<Scenario>,
    /// The scenario's layers (the output is the last one's).
    pub stack: crate::app::Shared<Layers>,
    pub lang: Lang,
}

fn votes_text(v: &Vote) -> String {
    v.votes
        .iter()
        .map(|(t, x)| format!("{t} {}", rounded(*x, 2)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The vote line and, with more than one layer, the prediction question.
#[component]
pub fn VotePanel(p: &VoteProps) -> Html {
    let answer = use_state(|| None::<bool>);
    {
        // A new scenario asks again.
        let answer = answer.clone();
        use_effect_with(p.scenario.clone(), move |_| answer.set(None));
    }
    let lang = p.lang;
    let Some(v) = vote(&p.scenario, p.stack.output()) else {
        return Html::default();
    };
    let last = p.scenario.tokens.last().cloned().unwrap_or_default();
    let without = vote_without_first_layer(&p.scenario);
    let choose = |yes: bool| {
        let answer = answer.clone();
        Callback::from(move |_: MouseEvent| answer.set(Some(yes)))
    };
    let best = v.token().to_string();
    html! {
        <div class="vote" data-prediction={best.clone()}>
            <p>{ fill(PageText::VoteLine.t(lang), &[&last, &best]) }{ " " }<span class="votes">{ votes_text(&v) }</span></p>
            if let Some(w) = without {
                <div class="predict" data-predict="layers">
                    <p class="question">{ fill(PageText::PredictLayers.t(lang), &["1", &last, &best]) }</p>
                    <div class="answers" role="group">
                        <button data-answer="yes" aria-pressed={(*answer == Some(true)).to_string()} onclick={choose(true)}>{ PageText::PredictYes.t(lang) }</button>
                        <button data-answer="no" aria-pressed={(*answer == Some(false)).to_string()} onclick={choose(false)}>{ PageText::PredictNo.t(lang) }</button>
                    </div>
                    if let Some(said) = *answer {
                        { reveal(&v, &w, said, lang) }
                    }
                </div>
            }
        </div>
    }
}

/// The answer, every number from the engine: what the vote becomes
/// without layer 1, and whether the reader's prediction was right.
fn reveal(v: &Vote, w: &Vote, said: bool, lang: Lang) -> Html {
    let best = v.token();
    let stays = w.token() == best;
    let right = said == stays;
    let value = w.votes.iter().find(|(t, _)| t == best).map_or(0.0, |x| x.1);
    let facts = fill(
        PageText::RevealLayers.t(lang),
        &[
            "1",
            best,
            &rounded(value, 2),
            w.token(),
            &rounded(w.votes[w.best].1, 2),
        ],
    );
    let why = if stays {
        PageText::RevealStays.t(lang).to_string()
    } else {
        fill(PageText::RevealFlips.t(lang), &["2"])
    };
    // Chinese sentences follow each other without a space.
    let gap = if lang == Lang::Zh { "" } else { " " };
    let text = [facts, why, fill(PageText::TryRemoving.t(lang), &["1"])].join(gap);
    html! {
        <p class="reveal" role="status" data-correct={right.to_string()} data-stays={stays.to_string()}>
            <strong>{ if right { PageText::RightAnswer.t(lang) } else { PageText::WrongAnswer.t(lang) } }</strong>
            { gap }{ text }
        </p>
    }
}
