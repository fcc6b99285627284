//! A lab's frame: its title and lead, then "predict, then reveal": a
//! question with two or more answers; the lab's numbers stay hidden until
//! the reader answers (or asks to see them).

use crate::app::i18n::{LabText, Lang};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LabProps {
    /// `data-lab` and `view=NAME`.
    pub name: &'static str,
    pub title: AttrValue,
    pub lead: AttrValue,
    pub question: AttrValue,
    /// The answers offered, and which one is right.
    pub answers: Vec<AttrValue>,
    pub right: usize,
    /// Said after any answer: why.
    pub explanation: AttrValue,
    pub lang: Lang,
    /// The lab's numbers, shown once the question is answered.
    pub children: Html,
}

/// A lab whose question does not depend on its state: the keys of its
/// title, lead, question, answers and explanation.
pub struct Fixed {
    pub name: &'static str,
    pub title: LabText,
    pub lead: LabText,
    pub question: LabText,
    pub answers: [Answer; 2],
    pub right: usize,
    pub explanation: LabText,
}

/// An answer offered: a sentence of the table, or a symbol (`× 4`).
pub enum Answer {
    Key(LabText),
    Text(&'static str),
}

impl Fixed {
    /// The lab framed by its question, with `body` (its numbers) inside.
    pub fn frame(&self, lang: Lang, body: Html) -> Html {
        let answers = self
            .answers
            .iter()
            .map(|a| match a {
                Answer::Key(k) => AttrValue::from(k.t(lang)),
                Answer::Text(t) => AttrValue::from(*t),
            })
            .collect::<Vec<_>>();
        html! {
            <Lab name={self.name} title={self.title.t(lang)} lead={self.lead.t(lang)}
                question={self.question.t(lang)} right={self.right} answers={answers}
                explanation={self.explanation.t(lang)} lang={lang}>
                { body }
            </Lab>
        }
    }
}

/// A lab's section: title, lead, the question, then its numbers.
///
/// The question is [`Predict`]'s markup written again rather than a
/// `Predict` inside: measured, the labs using `Predict` put it in a chunk
/// the three labs' chunks share, which every reader fetches after the
/// first paint, and the labs' part grows by about 2 KB gzip (docs/performance.md,
/// "Budgets"). Change the two together.
#[component]
pub fn Lab(p: &LabProps) -> Html {
    let chosen = use_state(|| None::<Option<usize>>);
    let lang = p.lang;
    let title_id = format!("lab-{}-title", p.name);
    let pick = |a: Option<usize>| {
        let chosen = chosen.clone();
        Callback::from(move |_: MouseEvent| chosen.set(Some(a)))
    };
    let verdict = match *chosen {
        Some(Some(a)) if a == p.right => Some(LabText::PredictRight),
        Some(Some(_)) => Some(LabText::PredictWrong),
        _ => None,
    };
    html! {
        <section class="lab" data-lab={p.name} aria-labelledby={title_id.clone()}>
            <h2 id={title_id}>{ p.title.clone() }</h2>
            <p class="lead">{ p.lead.clone() }</p>
            <div class="predict">
                <p class="question"><strong>{ LabText::PredictFirst.t(lang) }</strong>{ " " }{ crate::app::rich::rich(&p.question) }</p>
                <div class="answers" role="group" aria-label={LabText::PredictFirst.t(lang)}>
                    { for p.answers.iter().enumerate().map(|(k, a)| html! {
                        <button data-answer={k.to_string()} aria-pressed={(*chosen == Some(Some(k))).to_string()}
                            disabled={chosen.is_some()} onclick={pick(Some(k))}>{ a.clone() }</button>
                    }) }
                    if chosen.is_none() {
                        <button class="skip" onclick={pick(None)}>{ LabText::PredictSkip.t(lang) }</button>
                    }
                </div>
                if chosen.is_some() {
                    <p class="verdict" role="status">
                        if let Some(v) = verdict { <strong>{ v.t(lang) }</strong>{ " " } }
                        { crate::app::rich::rich(&p.explanation) }
                    </p>
                    { p.children.clone() }
                }
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct PredictProps {
    pub question: AttrValue,
    /// The answers offered, and which one is right.
    pub answers: Vec<AttrValue>,
    pub right: usize,
    /// Said after any answer: why.
    pub explanation: AttrValue,
    /// "Predict first:", "Right.", "Not quite.", "Just show me", from the
    /// string table of the lab that shows it (so each chunk carries only
    /// its own table).
    pub words: [&'static str; 4],
    /// Shown once the question is answered.
    #[prop_or_default]
    pub children: Html,
}

/// "Predict, then reveal" alone, for a lab framed elsewhere (the training
/// lab, whose controls stay visible): the same question, answers, verdict
/// and explanation as [`Lab`]'s, in the words of the lab that shows it
/// (so the training lab's chunk does not link the labs' table).
#[component]
pub fn Predict(p: &PredictProps) -> Html {
    let chosen = use_state(|| None::<Option<usize>>);
    let [first, right, wrong, skip] = p.words;
    let pick = |a: Option<usize>| {
        let chosen = chosen.clone();
        Callback::from(move |_: MouseEvent| chosen.set(Some(a)))
    };
    let verdict = match *chosen {
        Some(Some(a)) if a == p.right => Some(right),
        Some(Some(_)) => Some(wrong),
        _ => None,
    };
    html! {
        <div class="predict">
            <p class="question"><strong>{ first }</strong>{ " " }{ crate::app::rich::rich(&p.question) }</p>
            <div class="answers" role="group" aria-label={first}>
                { for p.answers.iter().enumerate().map(|(k, a)| html! {
                    <button data-answer={k.to_string()} aria-pressed={(*chosen == Some(Some(k))).to_string()}
                        disabled={chosen.is_some()} onclick={pick(Some(k))}>{ a.clone() }</button>
                }) }
                if chosen.is_none() {
                    <button class="skip" onclick={pick(None)}>{ skip }</button>
                }
            </div>
            if chosen.is_some() {
                <p class="verdict" role="status">
                    if let Some(v) = verdict { <strong>{ v }</strong>{ " " } }
                    { crate::app::rich::rich(&p.explanation) }
                </p>
                { p.children.clone() }
            }
        </div>
    }
}
