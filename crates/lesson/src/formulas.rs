//! # Formulas: how each matrix is made, written as mathematics
//!
//! Self-attention is a handful of matrix products. The same numbers can be
//! laid out two ways, and each way has its own formulas:
//!
//! - **Row convention** (note `000` §8, PyTorch, the engine): token `i` is
//!   row `i` of `X` (`n × d_model`). Projections multiply on the right,
//!   `Q = X W_Q`; the scores are `S = Q Kᵀ`, so `S_{i,j} = α_{i,j}` sits in
//!   row `i` (the query) and column `j` (the key); softmax runs along each
//!   row; the head output is `H = A V`; heads are placed side by side,
//!   `concat = [H_1 ⋯ H_h]`, and mixed by `Y = concat · W_O`.
//! - **Column convention** (note `000` §4.5): token `i` is column `a^i` of
//!   `X` (`d_model × n`). Projections multiply on the left, `Q = W^q X`; the
//!   scores are `S = Kᵀ Q`, so `S_{j,i} = α_{i,j}` sits in row `j` (the key)
//!   and column `i` (the query); softmax runs down each column; `B = V A`;
//!   the heads' outputs of one token are stacked into one tall column and
//!   mixed by `W^O`.
//!
//! Both are the same computation: every matrix of one is the transpose of the
//! other's. The √d_k division keeps the scores' spread independent of the
//! width d_k (note `000` §4.3); a mask removes hidden keys before the softmax.
//!
//! Everything here is a MathML Core string (`<math>…</math>`), ready to be
//! inserted into the page: [`formula`] for one matrix, [`attention_formula`]
//! for the whole layer, [`symbol`] for a matrix's short name inline. Any text
//! placed inside is escaped (`mathml::escape`).

use super::names::{Convention, MatrixName};
use attention::Positional;

use crate::mathml::*;

/// `W_Q` (row) or `W^q` (column), `letter` one of `Q`, `K`, `V`, `O`.
fn weight_symbol(conv: Convention, letter: char) -> String {
    match (conv, letter) {
        (Convention::Row, l) => sub(&mi("W"), &mi(&l.to_string())),
        (Convention::Col, 'O') => sup(&mi("W"), &mi("O")),
        (Convention::Col, l) => sup(&mi("W"), &mi(&l.to_ascii_lowercase().to_string())),
    }
}

/// `ℝ^{a×b}`.
fn real_space(a: &str, b: &str) -> String {
    sup(&mi("ℝ"), &row(&[a, &mo("×"), b]))
}

/// `h·d_v`, the width of the concatenation.
fn h_d_v() -> String {
    row(&[mi("h"), d_v()])
}

fn softmax_along(conv: Convention) -> String {
    match conv {
        Convention::Row => sub(&mi("softmax"), &mi("row")),
        Convention::Col => sub(&mi("softmax"), &mi("col")),
    }
}

/// `QKᵀ` (row) or `KᵀQ` (column).
fn scores_product(conv: Convention) -> String {
    let kt = transpose(&mi("K"));
    match conv {
        Convention::Row => row(&[mi("Q"), kt]),
        Convention::Col => row(&[kt, mi("Q")]),
    }
}

/// The scores, divided by √d_k when `scale`.
fn scaled_scores(conv: Convention, scale: bool) -> String {
    if scale {
        frac(&scores_product(conv), &sqrt_d_k())
    } else {
        scores_product(conv)
    }
}

/// `α_{i,j}` with symbolic indices.
fn alpha_ij(primed: bool) -> String {
    let ij = pair(&mi("i"), &mi("j"));
    if primed {
        subsup(&mi("α"), &ij, &mo("′"))
    } else {
        sub(&mi("α"), &ij)
    }
}

/// The matrix entry `M_{a,b}` (symbolic indices).
fn entry(m: &str, a: &str, b: &str) -> String {
    sub(&mi(m), &pair(&mi(a), &mi(b)))
}

/// `[b^{i,1}; ⋮; b^{i,h}]`, one token's head outputs stacked (column view).
fn stacked_heads() -> String {
    column(&[
        sup(&mi("b"), &pair(&mi("i"), &mn("1"))),
        mo("⋮"),
        sup(&mi("b"), &pair(&mi("i"), &mi("h"))),
    ])
}

/// The angle `p / 10000^{2k/d_model}` of the sinusoidal encoding.
fn pe_angle() -> String {
    let exponent = row(&[mn("2"), mi("k"), mo("/"), d_model()]);
    frac(&mi("p"), &sup(&mn("10000"), &exponent))
}

/// The body (inside `<math>`) of a matrix's short name.
fn symbol_body(name: MatrixName, conv: Convention) -> String {
    match name {
        MatrixName::X => mi("X"),
        MatrixName::Pe => mi("PE"),
        // Row layout: eⁱ after xⁱ along the row; column layout: below it.
        MatrixName::Input => match conv {
            Convention::Row => row(&[mo("["), mi("X"), mo("|"), mi("E"), mo("]")]),
            Convention::Col => column(&[mi("X"), mi("E")]),
        },
        MatrixName::WQ => weight_symbol(conv, 'Q'),
        MatrixName::WK => weight_symbol(conv, 'K'),
        MatrixName::WV => weight_symbol(conv, 'V'),
        MatrixName::Q => mi("Q"),
        MatrixName::K => mi("K"),
        MatrixName::V => mi("V"),
        MatrixName::Scores => mi("S"),
        MatrixName::Scaled => prime(&mi("S")),
        MatrixName::Weights => mi("A"),
        // Note 000 names the output B (rows or columns bⁱ) in both layouts.
        MatrixName::HeadOutput => mi("B"),
        MatrixName::Concat => mi("concat"),
        MatrixName::WO => weight_symbol(conv, 'O'),
        MatrixName::LayerOutput => mi("O"),
        MatrixName::Output => mi("B"),
    }
}

/// Head `r`'s query projection in the split view: `W_Q^r` (row) or
/// `W^{q,r}` (column), `r` a number or `h`.
fn head_w_q(conv: Convention, r: &str) -> String {
    let r = if r == "h" { mi("h") } else { mn(r) };
    match conv {
        Convention::Row => subsup(&mi("W"), &mi("Q"), &r),
        Convention::Col => sup(&mi("W"), &row(&[mi("q"), mo(","), r])),
    }
}

/// The split view's captions (inline MathML).
#[derive(Clone, Debug, PartialEq)]
pub struct SplitCaptions {
    /// The heads' query projections as one matrix.
    pub w_all: String,
    /// Head r's own projection.
    pub w_head: String,
    /// The queries of all heads from one product.
    pub q_all: String,
    /// Head r's queries.
    pub q_head: String,
}

/// The split view's captions for head `head` (1-based). Row layout: blocks
/// side by side, `W_Q = [W_Q^1 ⋯ W_Q^h]`, `X·W_Q = [Q^1 ⋯ Q^h]`; column
/// layout (`Q = W^q X`): blocks stacked, `W^q = [W^{q,1}; ⋮; W^{q,h}]`,
/// `W^q X = [Q^1; ⋮; Q^h]`.
pub fn split_captions(conv: Convention, head: usize) -> SplitCaptions {
    let w = weight_symbol(conv, 'Q');
    let q = |r: &str| {
        let r = if r == "h" { mi("h") } else { mn(r) };
        sup(&mi("Q"), &r)
    };
    let blocks = |f: &dyn Fn(&str) -> String| match conv {
        Convention::Row => row(&[mo("["), f("1"), mo("⋯"), f("h"), mo("]")]),
        Convention::Col => column(&[f("1"), mo("⋮"), f("h")]),
    };
    let product = match conv {
        Convention::Row => row(&[mi("X"), w.clone()]),
        Convention::Col => row(&[w.clone(), mi("X")]),
    };
    let r = head.to_string();
    SplitCaptions {
        w_all: inline(&row(&[w, mo("="), blocks(&|r| head_w_q(conv, r))])),
        w_head: inline(&head_w_q(conv, &r)),
        q_all: inline(&row(&[product, mo("="), blocks(&q)])),
        q_head: inline(&q(&r)),
    }
}

/// The short inline symbol of a matrix, as its formula's left-hand side
/// names it: `X`, `PE`, `W_Q` (row) / `W^q` (column), `Q`, `K`, `V`, `S`
/// (scores), `S′` (scaled), `A` (weights), `H` (row) / `B` (column) for a
/// head's output, `concat`, `W_O` / `W^O`, `Y` (output).
pub fn symbol(name: MatrixName, conv: Convention) -> String {
    inline(&symbol_body(name, conv))
}

/// How `name` is computed, in `conv`, as an inline `<math>` (wrap it with
/// `mathml::as_block` to display it on its own line); [`formula_with`]
/// says more.
///
/// `scale` says whether scores are divided by √d_k (when false the scaled
/// matrix is the scores unchanged, `S′ = S`, and no square root appears);
/// `has_w_o` whether an output projection exists (when false
/// `Y = concat`). Learned matrices (`W_Q`…) are given with their shape.
pub fn formula(name: MatrixName, conv: Convention, scale: bool, has_w_o: bool) -> String {
    formula_with(name, FormulaOptions::new(conv, scale, has_w_o))
}

/// What a matrix's formula says besides the matrix: the layout, whether
/// the scores are divided by √d_k, whether an output projection W_O
/// exists, whether the mask hides anything (when not, the weights are the
/// softmax of the (scaled) scores themselves, with no `mask(…)`), the
/// positional encoding (with one-hot positions the projections multiply
/// `[X | E]` and have d_model + n rows), and, for a head whose output has
/// a name of its own (several heads, or a W_O after it), which head
/// (0-based: its output is `Bʳ = A V`, as the stage labels its rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormulaOptions {
    pub conv: Convention,
    pub scale: bool,
    pub has_w_o: bool,
    pub masked: bool,
    pub pe: Positional,
    pub head: Option<usize>,
}

impl FormulaOptions {
    /// The workbench's: `conv`, scaling and W_O as given, a mask that may
    /// hide keys (`mask(…)` named), no positional encoding, no head of its
    /// own.
    pub fn new(conv: Convention, scale: bool, has_w_o: bool) -> FormulaOptions {
        FormulaOptions {
            conv,
            scale,
            has_w_o,
            masked: true,
            pe: Positional::None,
            head: None,
        }
    }
}

/// How `name` is computed under `o`, as an inline `<math>`.
pub fn formula_with(name: MatrixName, o: FormulaOptions) -> String {
    inline(&formula_body(name, o))
}

fn formula_body(name: MatrixName, o: FormulaOptions) -> String {
    let FormulaOptions {
        conv,
        scale,
        has_w_o,
        masked,
        pe,
        head,
    } = o;
    let row_conv = conv == Convention::Row;
    let one_hot = pe == Positional::OneHot;
    // A head with an output of its own names it Bʳ.
    let lhs = match (name, head) {
        (MatrixName::HeadOutput, Some(r)) => sup(&mi("B"), &mn(&(r + 1).to_string())),
        _ => symbol_body(name, conv),
    };
    let eq = mo("=");
    let is_in = mo("∈");
    let (n, dm, dk, dv) = (mi("n"), d_model(), d_k(), d_v());
    match name {
        MatrixName::X => {
            let a = |i: &str| sup(&mi("a"), &mi(i));
            if row_conv {
                let shape = row(&[n.clone(), mo("×"), dm]);
                let rows = column(&[a("1"), mo("⋮"), a("n")]);
                row(&[sub(&lhs, &shape), eq, rows])
            } else {
                let shape = row(&[dm, mo("×"), n]);
                let cols = row(&[mo("["), a("1"), mo("⋯"), a("n"), mo("]")]);
                row(&[sub(&lhs, &shape), eq, cols])
            }
        }
        MatrixName::Input => {
            let a = |i: &str| sup(&mi("a"), &mi(i));
            let e = |i: &str| sup(&mi("e"), &mi(i));
            let wide = paren(&row(&[dm, mo("+"), n.clone()]));
            if row_conv {
                let shape = row(&[n, mo("×"), wide]);
                let rows = column(&[row(&[a("1"), e("1")]), mo("⋮"), row(&[a("n"), e("n")])]);
                row(&[sub(&lhs, &shape), eq, rows])
            } else {
                let shape = row(&[wide, mo("×"), n]);
                let cols = row(&[
                    mo("["),
                    column(&[a("1"), e("1")]),
                    mo("⋯"),
                    column(&[a("n"), e("n")]),
                    mo("]"),
                ]);
                row(&[sub(&lhs, &shape), eq, cols])
            }
        }
        MatrixName::Pe => {
            let even = row(&[mn("2"), mi("k")]);
            let odd = row(&[mn("2"), mi("k"), mo("+"), mn("1")]);
            let at = |c: &str| {
                if row_conv {
                    sub(&lhs, &pair(&mi("p"), c))
                } else {
                    sub(&lhs, &pair(c, &mi("p")))
                }
            };
            row(&[
                at(&even),
                eq.clone(),
                call(&mi("sin"), &pe_angle()),
                mo(","),
                gap(),
                at(&odd),
                eq,
                call(&mi("cos"), &pe_angle()),
            ])
        }
        MatrixName::WQ | MatrixName::WK | MatrixName::WV => {
            let out = if name == MatrixName::WV { dv } else { dk };
            // One-hot positions: one more row per position.
            let dm = if one_hot {
                paren(&row(&[dm, mo("+"), n]))
            } else {
                dm
            };
            let space = if row_conv {
                real_space(&dm, &out)
            } else {
                real_space(&out, &dm)
            };
            row(&[lhs, is_in, space])
        }
        MatrixName::Q | MatrixName::K | MatrixName::V => {
            let letter = match name {
                MatrixName::Q => 'Q',
                MatrixName::K => 'K',
                _ => 'V',
            };
            let w = weight_symbol(conv, letter);
            let x = match pe {
                Positional::OneHot => symbol_body(MatrixName::Input, conv),
                // The encoding is added before the projections.
                Positional::Sinusoidal => paren(&row(&[mi("X"), mo("+"), mi("PE")])),
                Positional::None => mi("X"),
            };
            let product = if row_conv { row(&[x, w]) } else { row(&[w, x]) };
            row(&[lhs, eq, product])
        }
        MatrixName::Scores => {
            let e = if row_conv {
                entry("S", "i", "j")
            } else {
                entry("S", "j", "i")
            };
            row(&[
                lhs,
                eq.clone(),
                scores_product(conv),
                mo(","),
                gap(),
                e,
                eq,
                alpha_ij(false),
            ])
        }
        MatrixName::Scaled => {
            let rhs = if scale {
                frac(&mi("S"), &sqrt_d_k())
            } else {
                mi("S")
            };
            row(&[lhs, eq, rhs])
        }
        MatrixName::Weights => {
            let inner = match (row_conv, scale) {
                (true, true) => prime(&mi("S")),
                (true, false) => mi("S"),
                (false, _) => scaled_scores(conv, scale),
            };
            let inner = if masked {
                call(&mi("mask"), &inner)
            } else {
                inner
            };
            let e = if row_conv {
                entry("A", "i", "j")
            } else {
                entry("A", "j", "i")
            };
            row(&[
                lhs,
                eq.clone(),
                call(&softmax_along(conv), &inner),
                mo(","),
                gap(),
                e,
                eq,
                alpha_ij(true),
            ])
        }
        MatrixName::HeadOutput => {
            if row_conv {
                row(&[lhs, eq, mi("A"), mi("V")])
            } else {
                let b = |i: &str| sup(&mi("b"), &mi(i));
                let cols = row(&[mo("["), b("1"), mo("⋯"), b("n"), mo("]")]);
                row(&[lhs, eq.clone(), mi("V"), mi("A"), eq, cols])
            }
        }
        MatrixName::Concat => {
            if row_conv {
                let hs = row(&[
                    mo("["),
                    sup(&mi("B"), &mn("1")),
                    mo("⋯"),
                    sup(&mi("B"), &mi("h")),
                    mo("]"),
                ]);
                row(&[lhs, eq, hs])
            } else {
                let bs = column(&[sup(&mi("B"), &mn("1")), mo("⋮"), sup(&mi("B"), &mi("h"))]);
                row(&[lhs, eq, bs])
            }
        }
        MatrixName::WO => {
            let out = sub(&mi("d"), &mtext("out"));
            let space = if row_conv {
                real_space(&h_d_v(), &out)
            } else {
                real_space(&out, &h_d_v())
            };
            row(&[lhs, is_in, space])
        }
        MatrixName::LayerOutput => row(&[lhs, eq, mi("X"), mo("+"), mi("B")]),
        MatrixName::Output => {
            let w_o = weight_symbol(conv, 'O');
            let concat = mi("concat");
            if row_conv {
                if has_w_o {
                    row(&[lhs, eq, concat, mo("·"), w_o])
                } else {
                    row(&[lhs, eq, concat])
                }
            } else {
                let y_i = sup(&mi("b"), &mi("i"));
                let (whole, one) = if has_w_o {
                    (row(&[w_o.clone(), concat]), row(&[w_o, stacked_heads()]))
                } else {
                    (concat, stacked_heads())
                };
                row(&[lhs, eq.clone(), whole, mo(","), gap(), y_i, eq, one])
            }
        }
    }
}

/// Layer `l`'s (1-based) output when layers stack (note 000 §3.2,
/// docs/format.md §1b): `O_l = X_l + B_l` with the residual, else
/// `O_l = B_l`, and what the next layer reads, `X_{l+1} = O_l`.
pub fn layer_output_formula(l: usize, residual: bool, last: bool) -> String {
    let at = |m: &str, k: usize| sub(&mi(m), &mn(&k.to_string()));
    let mut parts = vec![at("O", l), mo("=")];
    if residual {
        parts.extend([at("X", l), mo("+")]);
    }
    parts.push(at("B", l));
    if !last {
        parts.extend([mo(","), gap(), at("X", l + 1), mo("="), at("O", l)]);
    }
    inline(&row(&parts))
}

/// What layer `l` (1-based, ≥ 2) reads: `X_l = O_{l−1}`.
pub fn layer_input_formula(l: usize) -> String {
    let at = |m: &str, k: usize| sub(&mi(m), &mn(&k.to_string()));
    inline(&row(&[at("X", l), mo("="), at("O", l - 1)]))
}

/// The whole layer as one display formula.
///
/// Row: `Attention(Q,K,V) = softmax(QKᵀ/√d_k) V` (softmax along each row).
/// Column: `B = V softmax_col(KᵀQ/√d_k)`. Without `scale`, the √d_k is gone.
pub fn attention_formula(conv: Convention, scale: bool) -> String {
    let body = match conv {
        Convention::Row => row(&[
            call(
                &mi("Attention"),
                &row(&[mi("Q"), mo(","), mi("K"), mo(","), mi("V")]),
            ),
            mo("="),
            call(&mi("softmax"), &scaled_scores(conv, scale)),
            mi("V"),
        ]),
        Convention::Col => row(&[
            mi("B"),
            mo("="),
            mi("V"),
            call(&softmax_along(conv), &scaled_scores(conv, scale)),
        ]),
    };
    block(&body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mathml::check::{plain, well_formed};

    const CONVS: [Convention; 2] = [Convention::Row, Convention::Col];

    #[test]
    fn split_captions_follow_the_convention() {
        for conv in CONVS {
            let c = split_captions(conv, 2);
            for f in [&c.w_all, &c.w_head, &c.q_all, &c.q_head] {
                well_formed(f).unwrap_or_else(|e| panic!("{conv:?}: {e}\n{f}"));
            }
            assert_eq!(plain(&c.q_head), "Q2");
        }
        // Row layout: blocks side by side; column layout: stacked (a table).
        let c = split_captions(Convention::Row, 2);
        assert_eq!(plain(&c.w_all), "WQ=[WQ1⋯WQh]");
        assert_eq!(plain(&c.w_head), "WQ2");
        assert_eq!(plain(&c.q_all), "XWQ=[Q1⋯Qh]");
        assert!(!c.w_all.contains("<mtable>") && c.w_head.contains("<msubsup>"));
        let c = split_captions(Convention::Col, 2);
        assert_eq!(plain(&c.w_all), "Wq=[Wq,1⋮Wq,h]");
        assert_eq!(plain(&c.w_head), "Wq,2");
        assert_eq!(plain(&c.q_all), "WqX=[Q1⋮Qh]");
        assert!(c.w_all.contains("<mtable>") && c.q_all.contains("<mtable>"));
    }

    #[test]
    fn the_checker_catches_mistakes() {
        assert!(well_formed("<math><mi>x</mi></math>").is_ok());
        assert!(well_formed("<math display=\"block\"><mspace width=\"1em\"/></math>").is_ok());
        assert!(well_formed("<math><mi>x</mn></math>").is_err());
        assert!(well_formed("<math><mi>x</mi>").is_err());
        assert!(well_formed("<math><div>x</div></math>").is_err());
        assert!(well_formed("<math><mi>a & b</mi></math>").is_err());
        assert!(well_formed("<math><mi>a &amp; b</mi></math>").is_ok());
        assert!(well_formed("<math></math><math></math>").is_err());
        assert!(well_formed("<mrow></mrow>").is_err());
        // Scripts and fractions with the children MathML gives them.
        assert!(well_formed("<math><msub><mi>d</mi><mi>k</mi></msub></math>").is_ok());
        assert!(well_formed("<math><msub><mi>d</mi></msub></math>").is_err());
        assert!(well_formed("<math><msup><mi>a</mi><mn>1</mn><mn>2</mn></msup></math>").is_err());
        assert!(well_formed("<math><msubsup><mi>W</mi><mi>q</mi></msubsup></math>").is_err());
        assert!(well_formed(
            "<math><mfrac><mrow><mi>a</mi><mi>b</mi></mrow><mn>2</mn></mfrac></math>"
        )
        .is_ok());
    }

    #[test]
    fn every_formula_and_symbol_is_well_formed_mathml() {
        for name in MatrixName::ALL {
            for conv in CONVS {
                for scale in [true, false] {
                    for has_w_o in [true, false] {
                        let f = formula(name, conv, scale, has_w_o);
                        well_formed(&f).unwrap_or_else(|e| panic!("{name:?} {conv:?}: {e}\n{f}"));
                        assert!(f.starts_with("<math>"), "{f}");
                        let b = as_block(&f);
                        assert!(b.starts_with("<math display=\"block\">"));
                        well_formed(&b).unwrap();
                    }
                }
                let s = symbol(name, conv);
                well_formed(&s).unwrap_or_else(|e| panic!("{name:?} {conv:?}: {e}\n{s}"));
            }
        }
        for conv in CONVS {
            for scale in [true, false] {
                let a = attention_formula(conv, scale);
                well_formed(&a).unwrap();
                assert!(a.starts_with("<math display=\"block\">"));
            }
        }
    }

    #[test]
    fn the_one_hot_input_is_x_with_e_after_each_row_or_below_each_column() {
        let p = |conv| plain(&formula(MatrixName::Input, conv, true, false));
        assert_eq!(p(Convention::Row), "[X|E]n×(dmodel+n)=[a1e1⋮anen]");
        assert_eq!(p(Convention::Col), "[XE](dmodel+n)×n=[[a1e1]⋯[anen]]");
        assert_eq!(plain(&symbol(MatrixName::Input, Convention::Row)), "[X|E]");
        let one_hot = |name, conv| {
            plain(&formula_with(
                name,
                FormulaOptions {
                    conv,
                    scale: true,
                    has_w_o: false,
                    masked: true,
                    pe: Positional::OneHot,
                    head: None,
                },
            ))
        };
        assert_eq!(
            one_hot(MatrixName::WQ, Convention::Row),
            "WQ∈ℝ(dmodel+n)×dk"
        );
        assert_eq!(
            one_hot(MatrixName::WV, Convention::Col),
            "Wv∈ℝdv×(dmodel+n)"
        );
        assert_eq!(one_hot(MatrixName::Q, Convention::Row), "Q=[X|E]WQ");
        assert_eq!(one_hot(MatrixName::K, Convention::Col), "K=Wk[XE]");
        // Otherwise the formulas are the plain ones, except that with the
        // sinusoidal encoding the projections multiply X + PE.
        for pe in [Positional::None, Positional::Sinusoidal] {
            for name in MatrixName::ALL {
                let projected = matches!(name, MatrixName::Q | MatrixName::K | MatrixName::V);
                if pe == Positional::Sinusoidal && projected {
                    assert!(plain(&formula_with(
                        name,
                        FormulaOptions {
                            pe,
                            ..FormulaOptions::new(Convention::Row, true, true)
                        }
                    ))
                    .contains("(X+PE)"));
                    continue;
                }
                assert_eq!(
                    formula_with(
                        name,
                        FormulaOptions {
                            pe,
                            ..FormulaOptions::new(Convention::Row, true, true)
                        }
                    ),
                    formula(name, Convention::Row, true, true)
                );
            }
        }
        assert_eq!(
            plain(&formula(MatrixName::WQ, Convention::Row, true, false)),
            "WQ∈ℝdmodel×dk"
        );
    }

    #[test]
    fn row_and_column_conventions_differ_where_they_should() {
        // Every formula but the scaling and a layer's sum O = X + B (a sum
        // of whole matrices) differs between the conventions.
        let differ = MatrixName::ALL
            .into_iter()
            .filter(|m| !matches!(m, MatrixName::Scaled | MatrixName::LayerOutput));
        for name in differ {
            assert_ne!(
                formula(name, Convention::Row, true, true),
                formula(name, Convention::Col, true, true),
                "{name:?}"
            );
        }
        // S′ = S/√d_k reads the same either way.
        assert_eq!(
            formula(MatrixName::Scaled, Convention::Row, true, true),
            formula(MatrixName::Scaled, Convention::Col, true, true)
        );
        assert_ne!(
            attention_formula(Convention::Row, true),
            attention_formula(Convention::Col, true)
        );
    }

    #[test]
    fn formulas_read_as_the_notes_write_them() {
        let p = |name, conv| plain(&formula(name, conv, true, true));
        assert_eq!(p(MatrixName::Q, Convention::Row), "Q=XWQ");
        assert_eq!(p(MatrixName::Q, Convention::Col), "Q=WqX");
        assert!(p(MatrixName::Scores, Convention::Row).starts_with("S=QKT"));
        assert!(p(MatrixName::Scores, Convention::Row).contains("Si,j=αi,j"));
        assert!(p(MatrixName::Scores, Convention::Col).starts_with("S=KTQ"));
        assert!(p(MatrixName::Scores, Convention::Col).contains("Sj,i=αi,j"));
        assert!(p(MatrixName::Weights, Convention::Row).starts_with("A=softmaxrow(mask(S′))"));
        assert!(p(MatrixName::Weights, Convention::Col).starts_with("A=softmaxcol(mask(KTQ"));
        assert_eq!(p(MatrixName::HeadOutput, Convention::Row), "B=AV");
        assert!(p(MatrixName::HeadOutput, Convention::Col).starts_with("B=VA"));
        assert_eq!(p(MatrixName::Output, Convention::Row), "B=concat·WO");
        assert_eq!(
            plain(&formula(MatrixName::Output, Convention::Row, true, false)),
            "B=concat"
        );
        assert!(p(MatrixName::Output, Convention::Col).contains("bi=WO[bi,1⋮bi,h]"));
        assert_eq!(
            plain(&formula(MatrixName::Scaled, Convention::Row, false, true)),
            "S′=S"
        );
        assert_eq!(plain(&symbol(MatrixName::WQ, Convention::Col)), "Wq");
        assert_eq!(plain(&symbol(MatrixName::HeadOutput, Convention::Col)), "B");
        assert_eq!(plain(&symbol(MatrixName::WO, Convention::Row)), "WO");
        assert_eq!(
            plain(&attention_formula(Convention::Row, true)),
            "Attention(Q,K,V)=softmax(QKTdk)V"
        );
        assert_eq!(
            plain(&attention_formula(Convention::Col, true)),
            "B=Vsoftmaxcol(KTQdk)"
        );
    }

    #[test]
    fn projections_under_positions_and_heads_outputs_are_named() {
        let f = |pe| {
            plain(&formula_with(
                MatrixName::Q,
                FormulaOptions {
                    conv: Convention::Row,
                    scale: true,
                    has_w_o: false,
                    masked: false,
                    pe,
                    head: None,
                },
            ))
        };
        assert_eq!(f(Positional::Sinusoidal), "Q=(X+PE)WQ");
        assert_eq!(f(Positional::None), "Q=XWQ");
        let col = plain(&formula_with(
            MatrixName::K,
            FormulaOptions {
                conv: Convention::Col,
                scale: true,
                has_w_o: false,
                masked: false,
                pe: Positional::Sinusoidal,
                head: None,
            },
        ));
        assert_eq!(col, "K=Wk(X+PE)");
        let head = |r| {
            plain(&formula_with(
                MatrixName::HeadOutput,
                FormulaOptions {
                    conv: Convention::Row,
                    scale: true,
                    has_w_o: true,
                    masked: false,
                    pe: Positional::None,
                    head: r,
                },
            ))
        };
        assert_eq!(head(Some(1)), "B2=AV");
        assert_eq!(head(None), "B=AV");
    }

    #[test]
    fn without_scaling_there_is_no_square_root() {
        for conv in CONVS {
            for name in MatrixName::ALL {
                for has_w_o in [true, false] {
                    assert!(!formula(name, conv, false, has_w_o).contains("msqrt"));
                }
            }
            assert!(!attention_formula(conv, false).contains("msqrt"));
            assert!(attention_formula(conv, true).contains("<msqrt>"));
            assert!(formula(MatrixName::Scaled, conv, true, true).contains("<msqrt>"));
        }
    }

    #[test]
    fn numbers_use_a_true_minus_and_powers_of_ten() {
        assert_eq!(crate::mathml::num(16.0), "<mn>16</mn>");
        assert_eq!(plain(&crate::mathml::num(-0.5)), "−0.5");
        assert_eq!(plain(&crate::mathml::factor(-0.5)), "(−0.5)");
        assert_eq!(plain(&crate::mathml::factor(0.5)), "0.5");
        assert_eq!(plain(&crate::mathml::num(6.0337e-6)), "6.03×10−6");
        assert!(crate::mathml::num(6.0337e-6).contains("<msup><mn>10</mn>"));
        assert_eq!(plain(&crate::mathml::num(f64::NAN)), "—");
        well_formed(&crate::mathml::inline(&crate::mathml::num(-6.0337e-6))).unwrap();
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            crate::mathml::escape("a<b & \"c\">"),
            "a&lt;b &amp; &quot;c&quot;&gt;"
        );
        let m = crate::mathml::inline(&crate::mathml::mtext("x < y & z"));
        well_formed(&m).unwrap();
        assert_eq!(plain(&m), "x < y & z");
    }

    #[test]
    fn a_step_formula_names_the_mask_only_when_something_is_hidden() {
        for conv in [Convention::Row, Convention::Col] {
            for scale in [false, true] {
                let with = formula_with(
                    MatrixName::Weights,
                    FormulaOptions {
                        conv,
                        scale,
                        has_w_o: false,
                        masked: true,
                        pe: Positional::None,
                        head: None,
                    },
                );
                let without = formula_with(
                    MatrixName::Weights,
                    FormulaOptions {
                        conv,
                        scale,
                        has_w_o: false,
                        masked: false,
                        pe: Positional::None,
                        head: None,
                    },
                );
                assert!(with.contains(">mask<"), "{with}");
                assert!(!without.contains(">mask<"), "{without}");
                // No scaling: the softmax reads S itself, never S′ or √d_k.
                if !scale {
                    assert!(!without.contains('√'), "{without}");
                    assert!(!without.contains("<mi>S</mi><mo>′</mo>"), "{without}");
                }
                // Every other matrix's formula is the workbench's.
                assert_eq!(
                    formula_with(
                        MatrixName::Scores,
                        FormulaOptions {
                            conv,
                            scale,
                            has_w_o: true,
                            masked: false,
                            pe: Positional::None,
                            head: None
                        }
                    ),
                    formula(MatrixName::Scores, conv, scale, true)
                );
            }
        }
    }
}
