//! Shared by the engine's golden and property tests.

use attention::{Matrix, Scenario};
use proptest::test_runner::Config as ProptestConfig;

/// Modest case counts, and no regression files written into the repository.
#[allow(dead_code)] // each test binary uses its own part of this module
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Every number of `a` and `b` has the same bits (so -0 stays -0).
#[allow(dead_code)] // each test binary uses its own part of this module
pub fn same_bits(a: &Scenario, b: &Scenario) -> bool {
    let m = |x: &Matrix, y: &Matrix| {
        x.shape() == y.shape()
            && x.iter()
                .zip(y.iter())
                .all(|(p, q)| p.to_bits() == q.to_bits())
    };
    let heads = |p: &[attention::HeadWeights], q: &[attention::HeadWeights]| {
        p.len() == q.len()
            && p.iter()
                .zip(q)
                .all(|(p, q)| m(&p.w_q, &q.w_q) && m(&p.w_k, &q.w_k) && m(&p.w_v, &q.w_v))
    };
    let w_o = |p: &Option<Matrix>, q: &Option<Matrix>| match (p, q) {
        (Some(p), Some(q)) => m(p, q),
        (None, None) => true,
        _ => false,
    };
    a == b
        && m(&a.x, &b.x)
        && heads(&a.heads, &b.heads)
        && w_o(&a.w_o, &b.w_o)
        && a.stack
            .iter()
            .zip(&b.stack)
            .all(|(p, q)| heads(&p.heads, &q.heads) && w_o(&p.w_o, &q.w_o))
}

/// The worked example of note 004 (three inputs of width 4, one head with
/// W_Q, W_K, W_V of 4 × 3, no scaling), written here from the note's
/// numbers so the engine's tests need nothing of the teaching crate.
#[allow(dead_code)] // each test binary uses its own part of this module
pub fn notes_004() -> Scenario {
    let m = |rows: &[[f64; 3]]| Matrix::from_fn(rows.len(), 3, |r, c| rows[r][c]);
    Scenario {
        format: attention::FORMAT.to_string(),
        tokens: vec!["input 1".into(), "input 2".into(), "input 3".into()],
        x: Matrix::from_row_slice(3, 4, &[1., 0., 1., 0., 0., 2., 0., 2., 1., 1., 1., 1.]),
        heads: vec![attention::HeadWeights {
            w_q: m(&[[1., 0., 1.], [1., 0., 0.], [0., 0., 1.], [0., 1., 1.]]),
            w_k: m(&[[0., 0., 1.], [1., 1., 0.], [0., 1., 0.], [1., 1., 0.]]),
            w_v: m(&[[0., 2., 0.], [0., 3., 0.], [1., 0., 3.], [1., 1., 0.]]),
        }],
        w_o: None,
        scale: false,
        mask: attention::Mask::None,
        positional: attention::Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}
