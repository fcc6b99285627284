//! The projections' two forms: the heads' W_Q as one matrix cut into
//! blocks or as h small ones ("one big W_Q"), and the notes' form of one
//! head's Q as a product with a selection matrix.

use crate::app::heatmap::head_name;
use crate::app::i18n::{row_suffix, Lang, MapText, PageText};
use crate::app::matrix::{use_window, window_nav};
use crate::attention::{Matrix, Scenario, Trace};
use crate::lesson::format::{exact, short};
use crate::lesson::formulas::split_captions;
use crate::lesson::heads::{notes_form, split};
use crate::lesson::names::Convention;
use crate::lesson::window::{swap_if, Axis};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
struct BlockProps {
    /// The `data-matrix` name.
    name: &'static str,
    /// 1-based head of the first block (also `data-head`), if one head's.
    #[prop_or_default]
    head: Option<usize>,
    m: Rc<Matrix>,
    /// Columns per block.
    block: usize,
    /// MathML (trusted markup generated here or by `lesson::formulas`).
    caption: AttrValue,
    transpose: bool,
    lang: Lang,
}

/// A read-only matrix cut into column blocks of `block` columns, block r
/// tinted and labelled as head r (`data-matrix`, cells with the page
/// contract's attributes, always in row orientation). The column layout
/// shows it transposed: the blocks are stacked rows. A long axis shows a
/// window with a slider, like the workbench's matrices.
#[component]
fn BlockMatrix(p: &BlockProps) -> Html {
    let (win, on_move) = use_window(p.transpose);
    let (m, lang, transpose) = (&p.m, p.lang, p.transpose);
    let block = p.block.max(1);
    let first = p.head.unwrap_or(1) - 1;
    let tint = |c: usize| format!("blk{}", (first + c / block) % 4);
    let label = |b: usize| format!("{} {}", MapText::HeadHeading.t(lang), first + b + 1);
    let (rows, cols) = if transpose {
        (m.ncols(), m.nrows())
    } else {
        (m.nrows(), m.ncols())
    };
    let (a0, b0) = swap_if(transpose, *win);
    let (ra, ca) = (Axis::new(rows, a0), Axis::columns(cols, b0));
    let multi = m.ncols() > block;
    let cell = |a: usize, b: usize| {
        let (r, c) = if transpose { (b, a) } else { (a, b) };
        html! {
            <td class={tint(c)} data-row={r.to_string()} data-col={c.to_string()} data-value={exact(m[(r, c)])}>
                { short(m[(r, c)]) }
            </td>
        }
    };
    let row_heads: Vec<(usize, usize, usize)> = if multi && transpose {
        ra.blocks(block).collect()
    } else {
        Vec::new()
    };
    html! {
        <figure class="matrix" data-matrix={p.name} data-head={p.head.map(|h| h.to_string())}>
            <figcaption><span class="formula">{ Html::from_html_unchecked(p.caption.clone()) }</span>
                <span class="shape">{ format!("{rows}×{cols}") }</span></figcaption>
            { window_nav(ra, ca, lang, &on_move) }
            <div class="grid-scroll">
                <table>
                    if multi && !transpose {
                        <tr>
                            { for ca.blocks(block).map(|(b, _, n)| html! {
                                <th colspan={n.to_string()} class={tint(b * block)}>{ label(b) }</th>
                            }) }
                        </tr>
                    }
                    { for ra.range().map(|a| html! {
                        <tr>
                            if let Some(&(b, _, n)) = row_heads.iter().find(|(_, from, _)| *from == a) {
                                <th rowspan={n.to_string()} class={tint(b * block)}>{ label(b) }</th>
                            }
                            { for ca.range().map(|b| cell(a, b)) }
                        </tr>
                    }) }
                </table>
            </div>
        </figure>
    }
}

/// A [`BlockMatrix`] (one call site keeps the bundle small).
#[inline(never)]
fn block_matrix(
    name: &'static str,
    head: Option<usize>,
    m: Matrix,
    block: usize,
    caption: String,
    transpose: bool,
    lang: Lang,
) -> Html {
    html! { <BlockMatrix name={name} head={head} m={Rc::new(m)} block={block} caption={caption} transpose={transpose} lang={lang} /> }
}

#[derive(Properties, PartialEq)]
pub(super) struct SplitProps {
    pub scenario: crate::app::Shared<Scenario>,
    pub trace: crate::app::Shared<Trace>,
    pub transpose: bool,
    pub lang: Lang,
}

/// "One big W_Q, or h small ones?": the heads' W_Q as one matrix and each
/// head's own, X·W_Q from one product and each head's Q, and the check.
#[component]
pub(super) fn SplitView(props: &SplitProps) -> Html {
    let (s, t, tr, lang) = (&props.scenario, &props.trace, props.transpose, props.lang);
    let sp = split(s, t);
    let conv = if tr { Convention::Col } else { Convention::Row };
    let d_k = s.heads.first().map_or(1, |w| w.w_q.ncols());
    html! {
        <>
            <p class="note split-intro">{ crate::app::rich::rich(if tr { PageText::SplitIntroCol } else { PageText::SplitIntro }.t(lang)) }</p>
            { block_matrix("w_q_all", None, sp.w_q_all, d_k, split_captions(conv, 1).w_all, tr, lang) }
            { for s.heads.iter().enumerate().map(|(r, w)| block_matrix("w_q_split", Some(r + 1), w.w_q.clone(), d_k, split_captions(conv, r + 1).w_head, tr, lang)) }
            { block_matrix("q_all", None, sp.q_all, d_k, split_captions(conv, 1).q_all, tr, lang) }
            { for t.heads.iter().enumerate().map(|(r, h)| block_matrix("q_split", Some(r + 1), h.q.clone(), d_k, split_captions(conv, r + 1).q_head, tr, lang)) }
            <p class="note split-check" data-identical={sp.identical.to_string()}>
                { if sp.identical { PageText::SplitIdentical.t(lang) } else { PageText::SplitDifferent.t(lang) } }
            </p>
        </>
    }
}

/// `<math>` around `inner`.
fn math(inner: String) -> String {
    format!("<math>{inner}</math>")
}

/// `base` with a superscript of `sup` (numbers or letters) joined by commas.
fn sup(base: &str, sup: &[String]) -> String {
    let tag = |s: &str| {
        if s.bytes().all(|b| b.is_ascii_digit()) {
            "mn"
        } else {
            "mi"
        }
    };
    let sup: Vec<String> = sup
        .iter()
        .map(|s| format!("<{t}>{s}</{t}>", t = tag(s)))
        .collect();
    format!(
        "<msup><mi>{base}</mi><mrow>{}</mrow></msup>",
        sup.join("<mo>,</mo>")
    )
}

/// The notes view's four formulas for token `i` and head `r` (0-based):
/// `qⁱ`, head r's `W^{q,r}` (transposed in the row layout), their product
/// `q^{i,r}`, and head r's own Q row.
fn notes_math(i: usize, r: usize, tr: bool, lang: Lang) -> [String; 4] {
    let (ti, hr) = ((i + 1).to_string(), (r + 1).to_string());
    let q_i = sup("q", std::slice::from_ref(&ti));
    let w_r = sup("W", &["q".into(), hr.clone()]);
    let (w_caption, product) = if tr {
        (
            math(w_r.clone()),
            math(format!(
                "{}<mo>=</mo>{w_r}{q_i}",
                sup("q", &[ti.clone(), hr.clone()])
            )),
        )
    } else {
        let w_t = format!("<msup><mrow><mo>(</mo>{w_r}<mo>)</mo></mrow><mi>T</mi></msup>");
        (
            math(w_t.clone()),
            math(format!(
                "{}<mo>=</mo>{q_i}{w_t}",
                sup("q", &[ti.clone(), hr.clone()])
            )),
        )
    };
    // Row i of head r's own Q: "Q², row 3" / "Q² 第 3 行".
    let head_row = math(format!(
        "{}<mtext>{}</mtext>",
        sup("Q", std::slice::from_ref(&hr)),
        row_suffix(lang, i + 1)
    ));
    [math(q_i), w_caption, product, head_row]
}

/// Multi-head attention as note 000 §5.1 writes it: for a chosen token i and
/// head r, the shared `qⁱ`, head r's 0/1 matrix `W^{q,r}`, their product
/// `q^{i,r}`, the head's own Q row, and the computed check that they agree.
#[component]
pub(super) fn NotesView(props: &SplitProps) -> Html {
    let (s, t, tr, lang) = (&props.scenario, &props.trace, props.transpose, props.lang);
    let pick = use_state(|| (0usize, 0usize));
    let f = notes_form(s, t, pick.0, pick.1);
    let (i, r) = (pick.0.min(s.n() - 1), pick.1.min(s.heads.len() - 1));
    let d_k = s.d_k();
    let choose = |which: usize| {
        let pick = pick.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|el| el.value().parse::<usize>().ok())
            {
                pick.set(if which == 0 { (v, pick.1) } else { (pick.0, v) });
            }
        })
    };
    let options = |labels: Vec<String>, chosen: usize| {
        labels
            .into_iter()
            .enumerate()
            .map(|(k, l)| html! { <option value={k.to_string()} selected={k == chosen}>{ l }</option> })
            .collect::<Html>()
    };
    let [q_i, w_caption, product, head_row] = notes_math(i, r, tr, lang);
    let answer = if f.equal { PageText::Yes } else { PageText::No };
    html! {
        <section class="heads-notes" data-figure="heads-notes" aria-labelledby="heads-notes-title">
            <h3 id="heads-notes-title">{ PageText::NotesHeading.t(lang) }</h3>
            <p class="note">{ crate::app::rich::rich(PageText::NotesIntro.t(lang)) }</p>
            <p class="notes-pick">
                <label>{ PageText::NotesToken.t(lang) }{ " " }
                    <select data-pick="token" onchange={choose(0)}>{ options(t.tokens.clone(), i) }</select></label>
                { " " }
                <label>{ PageText::NotesHead.t(lang) }{ " " }
                    <select data-pick="head" onchange={choose(1)}>{ options((0..s.heads.len()).map(|k| head_name(lang, k)).collect(), r) }</select></label>
            </p>
            <div class="row-of-matrices">
                { block_matrix("q_shared", None, f.shared, d_k, q_i, tr, lang) }
                // Stored as the notes write it (d_k × h·d_k): the row layout shows it transposed.
                { block_matrix("w_q_head", None, f.select, d_k, w_caption, !tr, lang) }
                { block_matrix("q_head_notes", Some(r + 1), f.q_r, d_k, product, tr, lang) }
                { block_matrix("q_head_row", Some(r + 1), f.head_row, d_k, head_row, tr, lang) }
            </div>
            <p class="note" data-equal={f.equal.to_string()}>{ crate::app::rich::rich(PageText::NotesEqual.t(lang)) }{ " " }<strong>{ answer.t(lang) }</strong></p>
            <p class="note">{ crate::app::rich::rich(PageText::NotesRelate.t(lang)) }</p>
            <p class="note">{ PageText::NotesLearned.t(lang) }</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::glyphs::{drawn_chars, font_chars, formula_chars};

    /// The math font (cut to `crates/lesson/formula-chars.txt` by
    /// scripts/make-math-font.sh) holds exactly the characters the
    /// formulas draw: the engine's and the teaching logic's
    /// (`formula_chars`, whose own test checks the same list) and the
    /// notes view's above. A missing one would be drawn with another font;
    /// a spare one is bytes every reader fetches for nothing.
    #[test]
    fn the_math_font_holds_exactly_what_the_formulas_draw() {
        let mut used = formula_chars();
        for lang in [Lang::Zh, Lang::En] {
            for tr in [false, true] {
                for (i, r) in [(0, 0), (8, 11), (99, 3)] {
                    for f in notes_math(i, r, tr, lang) {
                        drawn_chars(&f, &mut used);
                    }
                }
            }
        }
        let font = font_chars();
        let missing: String = used.difference(&font).collect();
        let spare: String = font.difference(&used).collect();
        assert!(
            missing.is_empty() && spare.is_empty(),
            "crates/lesson/formula-chars.txt: add {missing:?}, remove {spare:?}, \
             then run scripts/make-math-font.sh"
        );
    }
}
