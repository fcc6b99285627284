//! The graph kind: the people of a small social network are the tokens, in
//! no order (note 000 §1.2). Attention reaches friends only (the adjacency
//! is the mask, as a graph neural network's messages do) or everyone; a
//! person clicked is the query, and each person's filled circle is their
//! weight. The drawing is the masks lab's (`labs::graph`).

use super::state::Msg;
use super::{KindProps, Seen};
use crate::app::i18n::{fill, Lang, TokensText};
use crate::app::labs::graph::{graph, Graph};
use crate::app::labs::predict::Predict;
use crate::lesson::format::exact_rows;
use crate::lesson::labs::tokens::{self, FRIENDS, PEOPLE};
use yew::prelude::*;

/// The question, about the query and the first person who is not their
/// friend; its answer's number is the weight global attention gives.
fn question(q: usize, lang: Lang) -> Html {
    // The mask friends-only attention uses: self-loops and friends.
    let reach = tokens::friends_mask();
    let Some(other) = (0..PEOPLE.len()).find(|&b| !reach[q][b]) else {
        return Html::default();
    };
    let everyone: Seen = super::attend(super::people(), false);
    let w = everyone.weights[(q, other)];
    let (a, b) = (PEOPLE[q], PEOPLE[other]);
    html! {
        <Predict key={q.to_string()} question={fill(TokensText::TokGraphQuestion.t(lang), &[a, b])}
            answers={[TokensText::TokAnswerZero, TokensText::TokAnswerLess, TokensText::TokAnswerSame].iter().map(|k| AttrValue::from(k.t(lang))).collect::<Vec<_>>()}
            right={0}
            explanation={fill(TokensText::TokGraphExplain.t(lang), &[a, b, &format!("{w:.4}")])}
            words={TokensText::predict_words(lang)} />
    }
}

#[component]
pub fn GraphKind(k: &KindProps) -> Html {
    let (s, lang) = (&k.state, k.lang);
    let q = s.query();
    let w: Vec<f64> = k.seen.weights.row(q).iter().copied().collect();
    let on_node = {
        let send = k.send.clone();
        Callback::from(move |i: usize| send.emit(Msg::Query(i)))
    };
    let reach = |on: bool| {
        let send = k.send.clone();
        Callback::from(move |_: Event| send.emit(Msg::FriendsOnly(on)))
    };
    let x = &k.seen.x;
    html! {
        <>
            <div class="lab-controls" role="radiogroup" aria-label={TokensText::TokReach.t(lang)} data-control="reach">
                { TokensText::TokReach.t(lang) }{ " " }
                <label><input type="radio" name="tokens-reach" value="friends" checked={s.friends_only} onchange={reach(true)} />{ TokensText::TokReachFriends.t(lang) }</label>
                <label><input type="radio" name="tokens-reach" value="everyone" checked={!s.friends_only} onchange={reach(false)} />{ TokensText::TokReachEveryone.t(lang) }</label>
            </div>
            <div class="lab-row">
                <figure class="graph">
                    <figcaption>{ TokensText::TokGraphTitle.t(lang) }</figcaption>
                    { graph(&Graph {
                        edges: FRIENDS.to_vec(),
                        names: PEOPLE.iter().map(|&p| AttrValue::from(p)).collect(),
                        node_word: TokensText::TokPerson.t(lang).into(),
                        picked: Some(q),
                        no_loop: Vec::new(),
                        weights: Some(w),
                        on_node: Some(on_node),
                    }) }
                    <figcaption>{ TokensText::TokGraphHow.t(lang) }</figcaption>
                </figure>
                <figure>
                    <figcaption>{ TokensText::TokGraphNoOrder.t(lang) }</figcaption>
                    <table class="people" data-x={format!("{}x{}", x.nrows(), x.ncols())} data-values={exact_rows(x)}>
                        <caption>{ TokensText::TokFeatures.t(lang) }</caption>
                        <tbody>
                            { for (0..x.nrows()).map(|i| html! {
                                <tr class={classes!((i == q).then_some("query"))}>
                                    <th scope="row">{ format!("{} {}", i + 1, PEOPLE[i]) }</th>
                                    { for x.row(i).iter().map(|v| html! { <td>{ format!("{v:.2}") }</td> }) }
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </figure>
            </div>
            { question(q, lang) }
        </>
    }
}
