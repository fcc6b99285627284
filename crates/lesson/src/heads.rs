//! Many heads: how they differ and how they are put together.
//!
//! - Each head r has its own `W_Q^r` (d_model × d_k). Stacking them side by
//!   side gives one d_model × (h·d_k) matrix `W_Q`, and `X·W_Q` is exactly
//!   `[X·W_Q^1 | … | X·W_Q^h]`: cutting the big product into h column blocks
//!   gives each head's `Q^r`. The "one big projection" of libraries and the
//!   "h small projections" of the notes are the same numbers.
//! - A head is summarised by how spread its rows are (entropy in bits: 0 when
//!   a query looks at one key, log2(m) when it spreads evenly over m keys)
//!   and which key each query looks at most.
//! - Two heads are compared cell by cell: `weights_A − weights_B`.

use attention::Matrix;
use nalgebra::DMatrix;

/// `[m_1 | m_2 | … ]`: matrices with the same number of rows side by side.
///
/// Panics if the row counts differ (callers pass one scenario's heads).
pub fn side_by_side(ms: &[&Matrix]) -> Matrix {
    let rows = ms.first().map_or(0, |m| m.nrows());
    assert!(
        ms.iter().all(|m| m.nrows() == rows),
        "side_by_side: rows differ"
    );
    let cols = ms.iter().map(|m| m.ncols()).sum();
    let mut out = Matrix::zeros(rows, cols);
    let mut at = 0;
    for m in ms {
        out.view_mut((0, at), (rows, m.ncols())).copy_from(*m);
        at += m.ncols();
    }
    out
}

/// `m` cut into column blocks of `width` columns, left to right.
///
/// Panics if `width` is 0 or does not divide the column count.
pub fn column_blocks(m: &Matrix, width: usize) -> Vec<Matrix> {
    assert!(
        width > 0 && m.ncols() % width == 0,
        "column_blocks: {} columns do not split into blocks of {width}",
        m.ncols()
    );
    (0..m.ncols() / width)
        .map(|b| m.columns(b * width, width).into_owned())
        .collect()
}

/// The "one big projection" form of a scenario's queries.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// `[W_Q^1 | … | W_Q^h]`, d_model × (h·d_k).
    pub w_q_all: Matrix,
    /// `X_in · W_Q`, n × (h·d_k).
    pub q_all: Matrix,
    /// Whether the one big product `X·W_Q`, cut into blocks of d_k
    /// columns, is every head's own `Q^r` (computed head by head by the
    /// engine) bit for bit. It always should be; shown, not assumed.
    pub identical: bool,
}

/// The big-matrix form of `s`'s query projections and of the queries in
/// `t` (its trace).
pub fn split(s: &attention::Scenario, t: &attention::Trace) -> Split {
    let w_q_all = side_by_side(&s.heads.iter().map(|h| &h.w_q).collect::<Vec<_>>());
    let q_all = attention::matmul(&t.input, &w_q_all);
    let d_k = s.heads.first().map_or(1, |h| h.w_q.ncols());
    let blocks = column_blocks(&q_all, d_k);
    let identical = blocks.len() == t.heads.len()
        && blocks.iter().zip(&t.heads).all(|(b, h)| same_bits(b, &h.q));
    Split {
        w_q_all,
        q_all,
        identical,
    }
}

/// Whether `a` and `b` have the same shape and the same numbers bit for bit.
pub fn same_bits(a: &Matrix, b: &Matrix) -> bool {
    a.shape() == b.shape()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The per-head matrix `W^{q,r}` of the notes' form (note 000 §5.1,
/// `q^{i,r} = W^{q,r} q^i`, column vectors) that turns one shared projection
/// into the library's blocks: it picks head `r`'s `d_k` entries (0-based
/// `r`) out of the shared `h·d_k`. As the notes write it, `d_k × h·d_k`: an
/// identity block at columns `r·d_k ..`, zeros elsewhere. (In the row-vector
/// orientation of the engine it multiplies transposed: `q^{i,r} = q^i·W^{q,r}ᵀ`.)
///
/// Panics if `r ≥ h`.
pub fn selection(h: usize, d_k: usize, r: usize) -> Matrix {
    assert!(r < h, "selection: head {r} of {h}");
    Matrix::from_fn(d_k, h * d_k, |c, m| f64::from(u8::from(m == r * d_k + c)))
}

/// Multi-head attention as the notes write it, for one token and one head,
/// computed from a scenario and its trace.
#[derive(Clone, Debug, PartialEq)]
pub struct NotesForm {
    /// The shared query `q^i = x_i·[W_Q^1 … W_Q^h]`, `1 × h·d_k`.
    pub shared: Matrix,
    /// Head `r`'s [`selection`] `W^{q,r}`, `d_k × h·d_k`.
    pub select: Matrix,
    /// `q^{i,r} = q^i · W^{q,r}ᵀ` (the notes' `W^{q,r} q^i`), `1 × d_k`.
    pub q_r: Matrix,
    /// Row `i` of head `r`'s `Q` as the engine computed it, `1 × d_k`.
    pub head_row: Matrix,
    /// Whether `q_r` is `head_row` bit for bit (shown, not assumed).
    pub equal: bool,
}

/// The notes' form for token `i` and head `r` (0-based, clamped to the
/// scenario, so a choice left from a larger scenario still shows something).
///
/// Panics if the scenario has no heads or no tokens (a validated one has both).
pub fn notes_form(s: &attention::Scenario, t: &attention::Trace, i: usize, r: usize) -> NotesForm {
    use attention::{matmul, matmul_t};
    let h = s.heads.len();
    let (i, r) = (i.min(t.input.nrows() - 1), r.min(h - 1));
    let w_q_all = side_by_side(&s.heads.iter().map(|w| &w.w_q).collect::<Vec<_>>());
    let shared = matmul(&t.input.rows(i, 1).into_owned(), &w_q_all);
    let select = selection(h, s.d_k(), r);
    let q_r = matmul_t(&shared, &select);
    let head_row = t.heads[r].q.rows(i, 1).into_owned();
    let equal = same_bits(&q_r, &head_row);
    NotesForm {
        shared,
        select,
        q_r,
        head_row,
        equal,
    }
}

/// A one-line description of one head's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Mean entropy of the defined rows, in bits; `None` when no row is
    /// defined (every key of every query masked).
    pub entropy: Option<f64>,
    /// What the mean entropy would be if every query spread evenly over the
    /// keys it may see (the most spread a head can be under this mask).
    pub uniform_entropy: Option<f64>,
    /// For each query, the keys with the largest weight: one key, or all
    /// those tied within [`TIE`]; empty for a row whose softmax is
    /// undefined.
    pub strongest: Vec<Vec<usize>>,
    /// For each query, how many keys it may see (to tell "tied between
    /// two" from "spread evenly over all").
    pub visible: Vec<usize>,
}

/// Weights closer than this to the largest of their row count as tied
/// (weights lie in [0, 1]; equal scores give weights equal to the last bit
/// or within a few ulps).
pub const TIE: f64 = 1e-12;

/// Entropy in bits of one row of weights, `−Σ w·log2(w)` over `w > 0`.
pub fn entropy_bits(row: impl IntoIterator<Item = f64>) -> f64 {
    let h: f64 = row
        .into_iter()
        .filter(|w| *w > 0.0)
        .map(|w| -w * w.log2())
        .sum();
    // −0.0 for a one-hot row reads badly.
    h.max(0.0)
}

/// The summary of a head's `weights` (n × n) under the mask `allowed`.
/// Rows listed in `undefined` are skipped.
pub fn summary(weights: &Matrix, allowed: &DMatrix<bool>, undefined: &[usize]) -> Summary {
    let n = weights.nrows();
    let defined: Vec<usize> = (0..n).filter(|i| !undefined.contains(i)).collect();
    let mean = |f: &dyn Fn(usize) -> f64| {
        (!defined.is_empty())
            .then(|| defined.iter().map(|&i| f(i)).sum::<f64>() / defined.len() as f64)
    };
    let entropy = mean(&|i| entropy_bits(weights.row(i).iter().copied()));
    let uniform_entropy = mean(&|i| {
        let m = (0..allowed.ncols()).filter(|&j| allowed[(i, j)]).count();
        (m.max(1) as f64).log2()
    });
    let visible: Vec<usize> = (0..n)
        .map(|i| (0..allowed.ncols()).filter(|&j| allowed[(i, j)]).count())
        .collect();
    let strongest = (0..n)
        .map(|i| {
            if undefined.contains(&i) {
                return Vec::new();
            }
            let keys = (0..weights.ncols()).filter(|&j| allowed[(i, j)]);
            let top = keys
                .clone()
                .map(|j| weights[(i, j)])
                .fold(f64::NEG_INFINITY, f64::max);
            keys.filter(|&j| weights[(i, j)] >= top - TIE).collect()
        })
        .collect();
    Summary {
        entropy,
        uniform_entropy,
        strongest,
        visible,
    }
}

/// `a − b` cell by cell (two heads' weights, both n × n). Undefined rows
/// stay NaN.
pub fn difference(a: &Matrix, b: &Matrix) -> Matrix {
    a - b
}

/// Display cell `(r, c)` as a (query, key) pair: the row convention shows
/// queries down, the column convention keys down.
pub fn query_key(r: usize, c: usize, transposed: bool) -> (usize, usize) {
    if transposed {
        (c, r)
    } else {
        (r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::Preset;
    use attention::{compute, matmul, matmul_t};

    #[test]
    fn one_big_projection_is_the_heads_side_by_side() {
        // For every preset with its heads: X·[W^1|…|W^h] cut into blocks is
        // each head's Q (and K, V), bit for bit.
        for seed in 0..20 {
            let s = Preset::Random(seed).build();
            let t = compute(&s).unwrap();
            let dk = s.heads[0].w_q.ncols();
            let dv = s.heads[0].w_v.ncols();
            let all = |pick: fn(&attention::HeadWeights) -> &Matrix| {
                side_by_side(&s.heads.iter().map(pick).collect::<Vec<_>>())
            };
            let w_q = all(|w| &w.w_q);
            assert_eq!(w_q.shape(), (s.d_model(), s.heads.len() * dk));
            // Splitting gives the heads' matrices back.
            for (r, block) in column_blocks(&w_q, dk).iter().enumerate() {
                assert_eq!(block, &s.heads[r].w_q);
            }
            for (w, width, pick) in [
                (w_q, dk, 0),
                (all(|w| &w.w_k), dk, 1),
                (all(|w| &w.w_v), dv, 2),
            ] {
                let big = matmul(&t.input, &w);
                for (r, block) in column_blocks(&big, width).iter().enumerate() {
                    let h = &t.heads[r];
                    let want = [&h.q, &h.k, &h.v][pick];
                    assert!(
                        block
                            .iter()
                            .zip(want.iter())
                            .all(|(a, b)| a.to_bits() == b.to_bits()),
                        "seed {seed} head {r} projection {pick}"
                    );
                }
            }
            // The concatenation is the head outputs side by side too.
            let outs: Vec<&Matrix> = t.heads.iter().map(|h| &h.output).collect();
            assert_eq!(side_by_side(&outs), t.concat);
        }
    }

    #[test]
    fn split_view_of_a_two_head_scenario() {
        let s = Preset::Random(3).build();
        let t = compute(&s).unwrap();
        let sp = split(&s, &t);
        assert!(sp.identical);
        let dk = s.heads[0].w_q.ncols();
        assert_eq!(sp.w_q_all.shape(), (s.d_model(), s.heads.len() * dk));
        assert_eq!(sp.q_all.shape(), (s.n(), s.heads.len() * dk));
        // The second head's first query column sits right after the first head's block.
        assert_eq!(sp.q_all[(0, dk)], t.heads[1].q[(0, 0)]);
    }

    #[test]
    fn the_split_check_can_fail() {
        let s = Preset::TwoHeads.build();
        let mut t = compute(&s).unwrap();
        assert!(split(&s, &t).identical);
        // One ulp off in one head's queries, or a head missing: not identical.
        let q = t.heads[1].q[(2, 1)];
        t.heads[1].q[(2, 1)] = f64::from_bits(q.to_bits() + 1);
        assert!(!split(&s, &t).identical);
        let mut t = compute(&s).unwrap();
        t.heads.pop();
        assert!(!split(&s, &t).identical);
    }

    #[test]
    fn selection_picks_each_heads_block_bit_for_bit() {
        for seed in 1..=20u64 {
            let k = seed as usize;
            let dims = crate::presets::Dims {
                n: 1 + k % 5,
                d_model: 2 + k % 7,
                d_k: 1 + k % 4,
                d_v: 2,
                heads: 1 + k % 4,
            };
            let s = crate::presets::random(seed, dims, seed % 2 == 0);
            let t = compute(&s).unwrap();
            let w_q_all = side_by_side(&s.heads.iter().map(|w| &w.w_q).collect::<Vec<_>>());
            for r in 0..dims.heads {
                // W^{q,r}·W^q (row form: W_Q_all · W^{q,r}ᵀ) is one block: head r's.
                let sel = selection(dims.heads, dims.d_k, r);
                assert!(same_bits(&matmul_t(&w_q_all, &sel), &s.heads[r].w_q));
                for i in 0..dims.n {
                    let f = notes_form(&s, &t, i, r);
                    assert!(f.equal, "seed {seed}, token {i}, head {r}");
                    assert!(same_bits(&f.q_r, &t.heads[r].q.rows(i, 1).into_owned()));
                    assert_eq!(f.shared.shape(), (1, dims.heads * dims.d_k));
                }
            }
        }
    }

    #[test]
    fn selection_is_one_identity_block_and_a_wrong_row_is_told() {
        let sel = selection(3, 2, 1);
        assert_eq!(sel.shape(), (2, 6));
        assert_eq!(sel.sum(), 2.0);
        assert_eq!((sel[(0, 2)], sel[(1, 3)], sel[(1, 2)]), (1.0, 1.0, 0.0));
        let s = Preset::TwoHeads.build();
        let t = compute(&s).unwrap();
        let f = notes_form(&s, &t, 1, 0);
        assert!(f.equal);
        // Another head's row is not head 0's: the check can say no.
        assert!(!same_bits(&f.q_r, &t.heads[1].q.rows(1, 1).into_owned()));
        // Out-of-range choices are clamped to the last token and head.
        assert_eq!(notes_form(&s, &t, 99, 9), notes_form(&s, &t, s.n() - 1, 1));
    }

    #[test]
    #[should_panic(expected = "do not split")]
    fn blocks_must_divide() {
        column_blocks(&Matrix::zeros(2, 5), 2);
    }

    #[test]
    fn entropy_of_known_rows() {
        assert_eq!(entropy_bits([1.0, 0.0, 0.0]), 0.0);
        assert_eq!(entropy_bits([0.5, 0.5]), 1.0);
        assert!((entropy_bits([0.25; 4]) - 2.0).abs() < 1e-15);
        // −(0.9·log2 0.9 + 0.1·log2 0.1) = 0.4689955935892812
        assert!((entropy_bits([0.9, 0.1]) - 0.468_995_593_589_281_2).abs() < 1e-15);
    }

    #[test]
    fn summary_of_note_004_and_of_a_causal_head() {
        let s = Preset::Notes004.build();
        let t = compute(&s).unwrap();
        let sm = summary(&t.heads[0].weights, &t.allowed, &t.undefined_rows);
        // Note 004: query 1's scores for keys 2 and 3 are both 4, so their
        // weights tie (e⁴/(e²+2e⁴) each); queries 2 and 3 look most at key 2
        // (scores 16 and 12 against 12 and 10).
        assert_eq!(sm.strongest, vec![vec![1, 2], vec![1], vec![1]]);
        assert_eq!(sm.visible, vec![3, 3, 3]);
        let (e, u) = (sm.entropy.unwrap(), sm.uniform_entropy.unwrap());
        assert_eq!(u, 3f64.log2());
        assert!(e > 0.0 && e < u);

        // Causal uniform head: row i spreads over i+1 keys evenly, so its
        // entropy is exactly the uniform one.
        let s = Preset::Uniform.build();
        let mut s2 = s.clone();
        s2.mask = attention::Mask::Causal;
        let t = compute(&s2).unwrap();
        let sm = summary(&t.heads[0].weights, &t.allowed, &t.undefined_rows);
        let n = s2.n();
        let want = (1..=n).map(|m| (m as f64).log2()).sum::<f64>() / n as f64;
        assert!((sm.uniform_entropy.unwrap() - want).abs() < 1e-12);
        assert!((sm.entropy.unwrap() - want).abs() < 1e-12);
        // Every visible key ties: row i spreads evenly over keys 0..=i.
        for (i, keys) in sm.strongest.iter().enumerate() {
            assert_eq!(keys, &(0..=i).collect::<Vec<_>>());
            assert_eq!(sm.visible[i], i + 1);
        }
    }

    #[test]
    fn the_two_heads_preset_attends_visibly_differently() {
        let s = Preset::TwoHeads.build();
        let t = compute(&s).unwrap();
        let s1 = summary(&t.heads[0].weights, &t.allowed, &t.undefined_rows);
        let s2 = summary(&t.heads[1].weights, &t.allowed, &t.undefined_rows);
        // Head 1: the previous token (the first token can only see itself).
        assert_eq!(s1.strongest, vec![vec![0], vec![0], vec![1], vec![2]]);
        // Head 2: the first token, from every query.
        assert_eq!(s2.strongest, vec![vec![0]; 4]);
        // Both are sharp: e^(9/√2) against 1 gives over 0.99 on the strongest key.
        for (h, sm) in [(0, &s1), (1, &s2)] {
            for (q, k) in sm.strongest.iter().enumerate() {
                assert!(t.heads[h].weights[(q, k[0])] > 0.99, "head {h} query {q}");
            }
        }
        // So they differ by almost 1 where one looks and the other does not.
        let d = difference(&t.heads[0].weights, &t.heads[1].weights);
        assert!(d[(3, 2)] > 0.99 && d[(3, 0)] < -0.99);
    }

    #[test]
    fn undefined_rows_are_skipped() {
        let mut s = Preset::Notes004.build();
        s.mask = attention::Mask::Padding(0);
        let t = compute(&s).unwrap();
        let sm = summary(&t.heads[0].weights, &t.allowed, &t.undefined_rows);
        assert_eq!(sm.strongest, vec![Vec::<usize>::new(); 3]);
        assert_eq!((sm.entropy, sm.uniform_entropy), (None, None));
    }

    #[test]
    fn difference_and_orientation() {
        let a = Matrix::from_row_slice(1, 2, &[0.75, 0.25]);
        let b = Matrix::from_row_slice(1, 2, &[0.5, 0.5]);
        assert_eq!(
            difference(&a, &b),
            Matrix::from_row_slice(1, 2, &[0.25, -0.25])
        );
        assert_eq!(query_key(1, 2, false), (1, 2));
        assert_eq!(query_key(1, 2, true), (2, 1));
    }
}
