//! The lab's figures: each head's weights over the evaluation sample, the
//! loss curve, decoding step by step beside the parallel pass, and for the
//! sequence-to-sequence task the answers generated until `<EOS>`, and for
//! the multi-label task its two read-outs side by side.

use super::*;
use crate::app::heatmap::{Heatmap, Map};
use crate::app::i18n::{fill, Lang, TrainText};
use crate::attention::Trace;
use crate::lesson::format::{exact, exact_rows, rounded};
use std::rc::Rc;
use train::{Generated, HeadKind, HeadScore, Model, Readout};
use yew::prelude::*;

/// One head's heatmap with its name, what it has become and its scores.
pub(super) fn head_figure(
    t: &Rc<Trace>,
    l: usize,
    h: usize,
    score: Option<&HeadScore>,
    cell_css: f64,
    dpr: f64,
    lang: Lang,
) -> Html {
    let name = fill(
        TrainText::HeadName.t(lang),
        &[&(l + 1).to_string(), &(h + 1).to_string()],
    );
    let weights = exact_rows(&t.heads[h].weights);
    let kind = score.and_then(|s| s.kind);
    let label = score.and_then(|s| {
        let (k, v) = match s.kind? {
            HeadKind::PreviousToken => (TrainText::PreviousHead, s.previous),
            HeadKind::Induction => (TrainText::InductionHead, s.induction?),
        };
        Some(fill(
            TrainText::Labelled.t(lang),
            &[k.t(lang), &rounded(v, 2)],
        ))
    });
    let scores = score.map(|s| {
        fill(
            TrainText::Scores.t(lang),
            &[
                &rounded(s.previous, 2),
                &s.induction.map_or("—".to_string(), |v| rounded(v, 2)),
            ],
        )
    });
    html! {
        <figure class="train-head" data-layer={(l + 1).to_string()} data-head={(h + 1).to_string()}
            data-weights={weights} data-head-kind={kind.map(|k| k.label())}
            data-previous-score={score.map(|s| exact(s.previous))}
            data-induction-score={score.and_then(|s| s.induction).map(exact)}>
            <figcaption>
                <strong>{ name.clone() }</strong>
                if let Some(label) = label {
                    { " · " }<span class="head-kind">{ label }</span>
                }
                <br />
                <span class="scores">{ scores.unwrap_or_default() }</span>
            </figcaption>
            <Heatmap trace={t.clone()} map={Map::Head(h)} transpose={false} cell_css={cell_css} dpr={dpr}
                title={AttrValue::from(name)} file={AttrValue::from(format!("train-layer{}-head{}", l + 1, h + 1))}
                lang={lang} layer={Some(l + 1)} />
        </figure>
    }
}

/// The loss (solid) and accuracy (dashed) against the steps.
pub(super) fn curve(history: &[(u64, f64, f64)], lang: Lang) -> Html {
    const W: f64 = 320.0;
    const H: f64 = 140.0;
    const LEFT: f64 = 34.0;
    const BOTTOM: f64 = 18.0;
    const TOP: f64 = 6.0;
    let last = history.last().map_or(0, |h| h.0).max(10) as f64;
    let top_loss = history
        .iter()
        .map(|h| h.1)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
        .max(0.1);
    let x = |s: u64| LEFT + (W - LEFT - 6.0) * s as f64 / last;
    let y = |v: f64, max: f64| TOP + (H - TOP - BOTTOM) * (1.0 - (v / max).clamp(0.0, 1.0));
    let points = |f: &dyn Fn(&(u64, f64, f64)) -> f64, max: f64| {
        history
            .iter()
            .map(|h| format!("{:.1},{:.1}", x(h.0), y(f(h), max)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let label = fill(
        TrainText::CurveAxes.t(lang),
        &[&(last as u64).to_string(), &rounded(top_loss, 2)],
    );
    html! {
        <figure class="train-curve">
            <figcaption>{ TrainText::CurveTitle.t(lang) }</figcaption>
            <svg viewBox={format!("0 0 {W} {H}")} width={W.to_string()} height={H.to_string()} role="img" aria-label={label.clone()}
                data-curve="loss" data-points={history.len().to_string()}>
                <line class="axis" x1={LEFT.to_string()} y1={(H - BOTTOM).to_string()} x2={(W - 6.0).to_string()} y2={(H - BOTTOM).to_string()} />
                <line class="axis" x1={LEFT.to_string()} y1={TOP.to_string()} x2={LEFT.to_string()} y2={(H - BOTTOM).to_string()} />
                <text x={(LEFT - 4.0).to_string()} y={(TOP + 8.0).to_string()} text-anchor="end">{ rounded(top_loss, 2) }</text>
                <text x={(LEFT - 4.0).to_string()} y={(H - BOTTOM).to_string()} text-anchor="end">{ "0" }</text>
                <text x={(W - 6.0).to_string()} y={(H - 4.0).to_string()} text-anchor="end">{ (last as u64).to_string() }</text>
                <polyline class="train-acc" points={points(&|h| h.2, 1.0)} />
                <polyline class="train-loss" points={points(&|h| h.1, top_loss)} />
            </svg>
            <p class="note">{ label }</p>
        </figure>
    }
}

/// Decoding (note 000 §6.2) beside the parallel pass, once training stops.
pub(super) fn decode_view(model: &Model, phase: Phase, lang: Lang) -> Html {
    let body = if phase == Phase::Training || model.steps() == 0 {
        None
    } else {
        let sample = &model.eval_sample().tokens;
        let n = sample.len();
        let k = (n / 2).max(1);
        Some(
            match (model.predict(sample), model.decode(&sample[..k], n - k)) {
                (Ok(par), Ok(dec)) => {
                    let label = |t: usize| model.config.label(t);
                    let same: Vec<bool> = (0..dec.predictions.len())
                        .map(|i| dec.tokens[..=i] == sample[..=i])
                        .collect();
                    let agree: Vec<bool> = (0..dec.predictions.len())
                        .map(|i| dec.predictions[i] == par.next[i])
                        .collect();
                    let same_count = same.iter().filter(|s| **s).count();
                    let agree_count = (0..same.len()).filter(|&i| same[i] && agree[i]).count();
                    let causal = model.config.task.mask() == crate::attention::Mask::Causal;
                    let row = |name: TrainText, cells: Vec<Html>| {
                        html! { <tr><th scope="row">{ name.t(lang) }</th>{ for cells }</tr> }
                    };
                    html! {
                        <>
                            <p data-decode-steps={dec.steps.to_string()} data-parallel-passes={par.passes.to_string()}>
                                { fill(TrainText::DecodeSteps.t(lang), &[&par.passes.to_string(), &n.to_string(), &dec.steps.to_string()]) }
                            </p>
                            <p data-agree={agree_count.to_string()} data-same={same_count.to_string()}>
                                { fill(TrainText::DecodeAgree.t(lang), &[&same_count.to_string(), &agree_count.to_string()]) }
                                if !causal { { " " }{ TrainText::DecodeNotCausal.t(lang) } }
                            </p>
                            <div class="grid-scroll">
                                <table class="lab-table train-decode" data-decode="">
                                    <thead><tr><th scope="col">{ TrainText::Position.t(lang) }</th>
                                        { for (0..n).map(|i| html! { <th scope="col">{ i + 1 }</th> }) }</tr></thead>
                                    <tbody>
                                        { row(TrainText::SampleRow, sample.iter().map(|&t| html! { <td>{ label(t) }</td> }).collect()) }
                                        { row(TrainText::ParallelRow, par.next.iter().enumerate().map(|(i, &t)| html! {
                                            <td data-pos={i.to_string()} data-parallel={label(t)}>{ label(t) }</td> }).collect()) }
                                        { row(TrainText::DecoderInput, dec.tokens.iter().enumerate().map(|(i, &t)| html! {
                                            <td class={classes!((i >= k).then_some("generated"))}>{ label(t) }</td> }).collect()) }
                                        { row(TrainText::DecoderRow, (0..n).map(|i| match dec.predictions.get(i) {
                                            Some(&t) => html! {
                                                <td data-pos={i.to_string()} data-decoded={label(t)} data-same-input={same[i].to_string()}
                                                    data-agree={agree[i].to_string()}
                                                    class={classes!((same[i] && agree[i]).then_some("now"))}>{ label(t) }</td> },
                                            None => html! { <td>{ "—" }</td> },
                                        }).collect()) }
                                    </tbody>
                                </table>
                            </div>
                        </>
                    }
                }
                _ => html! {},
            },
        )
    };
    let k = (model.config.n / 2).max(1);
    let lead = fill(TrainText::DecodeLead.t(lang), &[&k.to_string()]);
    when_stopped(
        ("train-decode-section", "decode"),
        TrainText::DecodeTitle,
        lead,
        None,
        body,
        lang,
    )
}

/// A figure worked out once training stops: its title and lead, then
/// `body`, or while training (`None`) a note that it comes then. `figure`
/// is its class and `data-figure`; `multilabel` is the read-out trained
/// and the right labels (`data-trained`, `data-truth`) of the multi-label
/// figure.
fn when_stopped(
    (class, figure): (&'static str, &'static str),
    title: TrainText,
    lead: String,
    multilabel: Option<(&'static str, String)>,
    body: Option<Html>,
    lang: Lang,
) -> Html {
    let (trained, truth) = multilabel.unzip();
    html! {
        <section class={class} data-figure={figure} data-trained={trained} data-truth={truth}>
            <h3>{ title.t(lang) }</h3>
            <p class="lead">{ lead }</p>
            { body.unwrap_or_else(|| html! { <p class="note">{ TrainText::DecodeWhen.t(lang) }</p> }) }
        </section>
    }
}

/// Sequence to sequence (note 000 §2.2): for the first evaluation sample of
/// each input length, the answer generated one token at a time until
/// `<EOS>` (or the length limit), where it stopped, and whether it is the
/// right one: one line each.
pub(super) fn generate_view(model: &Model, phase: Phase, lang: Lang) -> Html {
    let words = |ts: &[usize]| model.config.words(ts);
    let line = |g: Generated| {
        let stopped = if g.stopped {
            fill(
                TrainText::StoppedEos.t(lang),
                &[&g.answer.len().to_string()],
            )
        } else {
            TrainText::StoppedLimit.t(lang).to_string()
        };
        let (answer, expected) = (words(&g.answer), words(&g.expected));
        let verdict = if g.right() {
            TrainText::GenerateRight.t(lang).to_string()
        } else {
            fill(TrainText::GenerateWrong.t(lang), &[&expected])
        };
        let input = words(&g.input);
        let text = fill(
            TrainText::GenerateLine.t(lang),
            &[&input, &answer, &stopped, &verdict],
        );
        html! {
            <li data-input-length={g.input.len().to_string()} data-input={input} data-answer={answer}
                data-expected={expected} data-stopped={if g.stopped { "eos" } else { "limit" }}
                data-right={g.right().to_string()}>{ text }</li>
        }
    };
    let body = (phase != Phase::Training).then(|| {
        // Letters come before <SEP>, so a sample whose position l holds
        // <SEP> has an input of length l.
        let sep = model.config.task.specials(model.config.vocab).map(|s| s.0);
        let set = model.eval_set();
        let first_of = |l: usize| set.iter().find(|s| s.tokens.get(l).copied() == sep);
        html! {
            <ul class="train-generate" data-generate="">
                { for (2..=train::seq2seq_longest(model.config.n)).filter_map(first_of).filter_map(|s| model.generate(s)).map(line) }
            </ul>
        }
    });
    let lead = TrainText::GenerateLead.t(lang).to_string();
    when_stopped(
        ("train-generate-section", "generate"),
        TrainText::GenerateTitle,
        lead,
        None,
        body,
        lang,
    )
}

/// Multi-label (note 000 §2): the evaluation sample read out both ways, a
/// sigmoid per letter (its probability) and the set written as a sequence
/// until `<EOS>`; the read-out the model was not trained with is marked.
pub(super) fn both_view(model: &Model, phase: Phase, lang: Lang) -> Html {
    let sample = model.eval_sample();
    let Some(labels) = sample.labels.as_ref() else {
        return html! {};
    };
    let c = &model.config;
    let truth: Vec<usize> = (0..labels.present.len())
        .filter(|&t| labels.present[t])
        .collect();
    let (input, truth) = (c.words(&sample.tokens[..labels.row]), c.words(&truth));
    let trained = c.readout;
    let untrained = |r: Readout| {
        (r != trained).then(|| html! { <>{ " " }{ TrainText::NotTrained.t(lang) }</> })
    };
    // Both read-outs are worked out only when shown, not on every render
    // while training.
    let shown = (phase != Phase::Training)
        .then(|| Some((model.label_probabilities(sample)?, model.generate(sample)?)))
        .flatten();
    let body = shown.map(|(probabilities, g)| {
            let said: Vec<usize> = (0..probabilities.len())
                .filter(|&t| probabilities[t] > 0.5)
                .collect();
            let answer = c.words(&g.answer);
            html! {
                <>
                    <p class="train-sample" data-readout-figure="sigmoid" data-sigmoid={c.words(&said)}>
                        { TrainText::BothSigmoid.t(lang) }{ untrained(Readout::Sigmoid) }{ " " }
                        // The letters above 1/2 in bold.
                        { for probabilities.iter().enumerate().map(|(t, p)| {
                            let text = format!("{} {}", c.label(t), rounded(*p, 2));
                            html! {
                                <span class="chip" data-letter={c.label(t)} data-probability={exact(*p)} data-yes={(*p > 0.5).to_string()}>
                                    if *p > 0.5 { <b>{ text }</b> } else { { text } }
                                </span>
                            }
                        }) }
                    </p>
                    <p class="train-sample" data-readout-figure="sequence" data-sequence={answer.clone()}
                        data-stopped={if g.stopped { "eos" } else { "limit" }}>
                        { TrainText::BothSequence.t(lang) }{ untrained(Readout::Sequence) }{ " " }
                        <span class="chip">{ answer }</span>
                    </p>
                </>
            }
    });
    let lead = fill(TrainText::BothLead.t(lang), &[&input, &truth]);
    let multilabel = Some((trained.code(), truth));
    when_stopped(
        ("train-both-section", "multilabel"),
        TrainText::BothTitle,
        lead,
        multilabel,
        body,
        lang,
    )
}
