//! Text with the app's one bit of markup (`^{…}` or `^c`, a superscript; see
//! [`crate::lesson::format::pieces`]) as HTML, so that `W^q`, `W^O` and
//! `q^{i,r}` read as the notes print them, never with a caret.

use crate::lesson::format::{pieces, Piece};
use yew::prelude::*;

/// `s` as HTML: text, and `<sup>` for its superscripts.
pub fn rich(s: &str) -> Html {
    if !s.contains('^') {
        return html! { s.to_string() };
    }
    html! {<>{
        for pieces(s).into_iter().map(|p| match p {
            Piece::Text(t) => html! { t.to_string() },
            Piece::Sup(t) => html! { <sup>{ t.to_string() }</sup> },
        })
    }</>}
}

/// `s` as the inside of an SVG `<text>`: superscripts as raised, smaller
/// `<tspan>`s.
pub fn rich_svg(s: &str) -> Html {
    if !s.contains('^') {
        return html! { s.to_string() };
    }
    html! {<>{
        for pieces(s).into_iter().map(|p| match p {
            Piece::Text(t) => html! { <tspan>{ t.to_string() }</tspan> },
            Piece::Sup(t) => html! { <><tspan class="sup" dy="-0.35em" font-size="72%">{ t.to_string() }</tspan><tspan dy="0.35em">{ "\u{200B}" }</tspan></> },
        })
    }</>}
}
