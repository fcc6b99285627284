//! What a heatmap says in words: the tooltip of the cell under the cursor,
//! and the table of all its numbers for screen readers.

use super::HeatmapProps;
use crate::app::i18n::{CommonText, MapText};
use crate::lesson::format::{exact, short};
use crate::lesson::heads::query_key;
use crate::lesson::heatmap::{Cell, Layout};
use yew::prelude::*;

/// The cursor's outline and tooltip at display cell `(r, c)`.
pub(super) fn tip(props: &HeatmapProps, layout: &Layout, (r, c): (usize, usize)) -> Html {
    let (lang, n) = (props.lang, props.n());

    let (q, k) = query_key(r, c, props.transpose);
    let tok = |i: usize| props.trace.tokens.get(i).cloned().unwrap_or_default();
    let (x, y, w, h) = layout.cell_rect_css(r, c);
    let flip = c * 2 >= n;
    let tip_style = if flip {
        format!("left:{}px;top:{y}px;transform:translateX(-100%)", x - 6.0)
    } else {
        format!("left:{}px;top:{y}px", x + w + 6.0)
    };
    let masked = props.cell(r, c) == Cell::Masked;
    let value = props.value(q, k);
    html! {
        <>
            <div class="heat-cursor" style={format!("left:{x}px;top:{y}px;width:{w}px;height:{h}px")}></div>
            <div class="heat-tip" style={tip_style} data-query={q.to_string()} data-key={k.to_string()}
                data-value={exact(value)}>
                <div><b>{ CommonText::QueryWord.t(lang) }</b>{ " " }{ tok(q) }{ " → " }<b>{ CommonText::KeyWord.t(lang) }</b>{ " " }{ tok(k) }</div>
                { for props.details(q, k).into_iter().map(|(name, v)| html! {
                    <div>{ name }{ ": " }<span class="num">{ short(v) }</span></div>
                }) }
                if props.undefined(q) {
                    <div class="tip-wrap">{ MapText::UndefinedRow.t(lang) }</div>
                } else if masked {
                    <div class="tip-masked">{ MapText::MaskedCell.t(lang) }</div>
                }
            </div>
        </>
    }
}

/// Every number of the map in a table, with the tokens as headers.
pub(super) fn table(props: &HeatmapProps) -> Html {
    let (lang, n) = (props.lang, props.n());
    let corner = if props.transpose {
        format!(
            "{} \\ {}",
            CommonText::KeyWord.t(lang),
            CommonText::QueryWord.t(lang)
        )
    } else {
        format!(
            "{} \\ {}",
            CommonText::QueryWord.t(lang),
            CommonText::KeyWord.t(lang)
        )
    };
    html! {
                <div class="grid-scroll">
                    <table class="heat-table">
                        <caption>{ props.title.clone() }</caption>
                        <tr>
                            <th scope="col">{ corner }</th>
                            { for props.trace.tokens.iter().take(n).enumerate().map(|(c, t)| html! {
                                <th scope="col">
                                    { t.clone() }
                                    // Column layout: a query is a column.
                                    if props.transpose && props.undefined(c) {
                                        { format!(" ({})", MapText::UndefinedShort.t(lang)) }
                                    }
                                </th>
                            }) }
                        </tr>
                        { for (0..n).map(|r| html! {
                            <tr>
                                <th scope="row">
                                    { props.trace.tokens[r].clone() }
                                    // A query with no visible key (row layout: its row).
                                    if !props.transpose && props.undefined(r) {
                                        { format!(" ({})", MapText::UndefinedShort.t(lang)) }
                                    }
                                </th>
                                { for (0..n).map(|c| html! {
                                    <td>{ match props.cell(r, c) {
                                        Cell::Value(v) => short(v),
                                        // The softmax of this query does not exist: "—", as in the matrices.
                                        Cell::Masked if props.undefined(query_key(r, c, props.transpose).0) => "—".to_string(),
                                        Cell::Masked => MapText::MaskedCell.t(lang).to_string(),
                                    } }</td>
                                }) }
                            </tr>
                        }) }
                    </table>
                </div>
    }
}
