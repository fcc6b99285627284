//! One matrix as an HTML grid, following the page contract (CONTRACT §3):
//! `data-matrix`, `data-head`, and per cell `data-row`, `data-col` (row-vector
//! orientation) and `data-value` (the exact f64). The cell text is rounded;
//! the exact value is also in the cell's tooltip.

use super::i18n::{Lang, S};
use crate::attention::Matrix;
use crate::lesson::format::{exact, short};
use nalgebra::DMatrix;
use std::rc::Rc;
use yew::prelude::*;

/// The role a matrix plays; it sets the colour (as in note 004's figures:
/// query red, key orange, value purple, scores blue, outputs dark green) and
/// is always named in the caption too, never colour alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Input,
    Param,
    Query,
    Key,
    Value,
    Score,
    Weight,
    Output,
}

impl Role {
    fn class(self) -> &'static str {
        match self {
            Role::Input => "role-input",
            Role::Param => "role-param",
            Role::Query => "role-query",
            Role::Key => "role-key",
            Role::Value => "role-value",
            Role::Score => "role-score",
            Role::Weight => "role-weight",
            Role::Output => "role-output",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct MatrixProps {
    /// The contract name (`x`, `q`, `weights`, …).
    pub name: &'static str,
    /// 1-based head number for per-head matrices.
    #[prop_or_default]
    pub head: Option<usize>,
    pub matrix: Matrix,
    /// The formula or symbol shown as the title, e.g. `Q = X · W_Q`.
    pub formula: AttrValue,
    /// What the matrix means, in the page language.
    pub caption: AttrValue,
    pub role: Role,
    pub row_labels: Rc<Vec<String>>,
    pub col_labels: Rc<Vec<String>>,
    /// Entries hidden by the mask (drawn as masked) for n × n matrices.
    #[prop_or_default]
    pub allowed: Option<Rc<DMatrix<bool>>>,
    /// Rows that have no value (softmax undefined).
    #[prop_or_default]
    pub undefined_rows: Rc<Vec<usize>>,
    pub lang: Lang,
}

/// `1 … n` as labels (for feature dimensions).
pub fn index_labels(n: usize) -> Rc<Vec<String>> {
    Rc::new((1..=n).map(|i| i.to_string()).collect())
}

#[component]
pub fn MatrixView(props: &MatrixProps) -> Html {
    let m = &props.matrix;
    let lang = props.lang;
    let shape = format!("{}×{}", m.nrows(), m.ncols());
    let label = format!("{} ({}) {}", props.formula, props.caption, shape);
    let head = props.head.map(|h| h.to_string());
    let masked_text = S::MaskedCell.t(lang);
    let undefined_text = S::UndefinedRow.t(lang);

    let header = html! {
        <tr>
            <th class="corner" aria-hidden="true"></th>
            { for props.col_labels.iter().map(|c| html! { <th scope="col">{ c }</th> }) }
        </tr>
    };
    let rows = (0..m.nrows()).map(|r| {
        let undefined = props.undefined_rows.contains(&r);
        let cells = (0..m.ncols()).map(|c| {
            let v = m[(r, c)];
            let masked = props.allowed.as_ref().is_some_and(|a| !a[(r, c)]);
            let class = classes!(
                "cell",
                masked.then_some("masked"),
                undefined.then_some("undefined")
            );
            let title = if undefined {
                undefined_text.to_string()
            } else if masked {
                format!("{} · {}", exact(v), masked_text)
            } else {
                exact(v)
            };
            html! {
                <td class={class} data-row={r.to_string()} data-col={c.to_string()}
                    data-value={exact(v)} title={title}>{ short(v) }</td>
            }
        });
        html! {
            <tr class={classes!(undefined.then_some("undefined-row"))}>
                <th scope="row">{ props.row_labels.get(r).cloned().unwrap_or_default() }</th>
                { for cells }
            </tr>
        }
    });

    html! {
        <figure class={classes!("matrix", props.role.class())} data-matrix={props.name}
                data-head={head} aria-label={label.clone()}>
            <figcaption>
                <span class="formula">{ props.formula.clone() }</span>
                <span class="shape">{ shape }</span>
                <span class="caption">{ props.caption.clone() }</span>
            </figcaption>
            <div class="grid-scroll">
                <table role="grid" aria-label={label}>
                    <thead>{ header }</thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </figure>
    }
}
