//! "Export results" (docs/format.md §2): every computed matrix under the same names
//! the page uses, rows in the row-vector orientation. JSON has no NaN, so the
//! entries of an undefined softmax row are written as `null` and the row is
//! listed in `undefined_rows`.

use super::json::{self, Json};
use super::scenario::rows;
use super::Trace;

/// The results document, format `attention-lab-results/1`.
#[derive(Clone, Debug)]
pub struct Results(Json);

impl Results {
    /// Collects the results of `trace`.
    pub fn from_trace(trace: &Trace) -> Results {
        let heads = trace
            .heads
            .iter()
            .map(|h| {
                json::object(vec![
                    ("q", rows::to_json(&h.q)),
                    ("k", rows::to_json(&h.k)),
                    ("v", rows::to_json(&h.v)),
                    ("scores", rows::to_json(&h.scores)),
                    ("scaled", rows::to_json(&h.scaled)),
                    ("weights", rows::to_json(&h.weights)),
                    ("head_output", rows::to_json(&h.output)),
                ])
            })
            .collect::<Vec<_>>();
        let mut fields = vec![
            ("format", Json::from("attention-lab-results/1")),
            (
                "tokens",
                Json::from(
                    trace
                        .tokens
                        .iter()
                        .map(|t| Json::from(t.as_str()))
                        .collect::<Vec<_>>(),
                ),
            ),
        ];
        if let Some(pe) = &trace.pe {
            fields.push(("pe", rows::to_json(pe)));
        }
        fields.push(("heads", Json::from(heads)));
        fields.push(("concat", rows::to_json(&trace.concat)));
        fields.push(("output", rows::to_json(&trace.output)));
        fields.push((
            "undefined_rows",
            Json::from(
                trace
                    .undefined_rows
                    .iter()
                    .map(|&r| Json::from(r as f64))
                    .collect::<Vec<_>>(),
            ),
        ));
        Results(json::object(fields))
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        self.0.to_pretty()
    }
}
