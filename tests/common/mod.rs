//! Shared by the native tests: proptest settings and scenario checks for the
//! property and fixture tests, NumPy for the ones that compare with it
//! (`python`).

#[allow(dead_code)] // each test binary uses its own part of this module
pub mod python;

use attention_lab::attention::{Matrix, Scenario};
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
    let m = |x: &Matrix, y: &Matrix| attention_lab::lesson::heads::same_bits(x, y);
    a == b
        && m(&a.x, &b.x)
        && a.heads
            .iter()
            .zip(&b.heads)
            .all(|(p, q)| m(&p.w_q, &q.w_q) && m(&p.w_k, &q.w_k) && m(&p.w_v, &q.w_v))
        && match (&a.w_o, &b.w_o) {
            (Some(p), Some(q)) => m(p, q),
            (None, None) => true,
            _ => false,
        }
}
