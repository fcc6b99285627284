//! "Export results" (CONTRACT §2): every computed matrix under the same names
//! the page uses, rows in the row-vector orientation. JSON has no NaN, so the
//! entries of an undefined softmax row are written as `null` and the row is
//! listed in `undefined_rows`.

use super::scenario::rows::to_rows;
use super::{Matrix, Trace};
use serde::Serialize;

/// The results document, format `attention-lab-results/1`.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    pub format: &'static str,
    pub tokens: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pe: Option<Rows>,
    pub heads: Vec<HeadResults>,
    pub concat: Rows,
    pub output: Rows,
    /// Query rows whose keys are all masked (0-based): no softmax exists there.
    pub undefined_rows: Vec<usize>,
}

/// One head's matrices.
#[derive(Clone, Debug, Serialize)]
pub struct HeadResults {
    pub q: Rows,
    pub k: Rows,
    pub v: Rows,
    pub scores: Rows,
    pub scaled: Rows,
    pub weights: Rows,
    pub head_output: Rows,
}

/// A matrix as rows; non-finite entries become `null`.
pub type Rows = Vec<Vec<Option<f64>>>;

fn rows(m: &Matrix) -> Rows {
    to_rows(m)
        .into_iter()
        .map(|r| r.into_iter().map(|v| v.is_finite().then_some(v)).collect())
        .collect()
}

impl Results {
    /// Collects the results of `trace`.
    pub fn from_trace(trace: &Trace) -> Results {
        Results {
            format: "attention-lab-results/1",
            tokens: trace.tokens.clone(),
            pe: trace.pe.as_ref().map(rows),
            heads: trace
                .heads
                .iter()
                .map(|h| HeadResults {
                    q: rows(&h.q),
                    k: rows(&h.k),
                    v: rows(&h.v),
                    scores: rows(&h.scores),
                    scaled: rows(&h.scaled),
                    weights: rows(&h.weights),
                    head_output: rows(&h.output),
                })
                .collect(),
            concat: rows(&trace.concat),
            output: rows(&trace.output),
            undefined_rows: trace.undefined_rows.clone(),
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("results always serialise")
    }
}
