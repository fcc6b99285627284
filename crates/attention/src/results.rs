//! "Export results" (docs/format.md §2): every computed matrix under the same names
//! the page uses, rows in the row-vector orientation. JSON has no NaN, so the
//! entries of an undefined softmax row are written as `null` and the row is
//! listed in `undefined_rows`.

use super::json::{self, Json};
use super::scenario::rows;
use super::{StackTrace, Trace};

/// The results document, format `attention-lab-results/1`.
#[derive(Clone, Debug)]
pub struct Results(Json);

impl Results {
    /// Collects the results of `trace`.
    pub fn from_trace(trace: &Trace) -> Results {
        Results(json::object(Self::fields(trace)))
    }

    /// The results of every layer (docs/format.md §1b): layer 1 as
    /// [`Results::from_trace`] writes it, `output` the last layer's output,
    /// and, when layers stack, `layer_output` (layer 1's output) and `stack`
    /// (each further layer's heads, `concat`, its attention output
    /// `attention_output` and its output `layer_output`). One layer without
    /// a residual writes exactly what [`Results::from_trace`] writes.
    pub fn from_stack(stack: &StackTrace) -> Results {
        let first = &stack.layers[0];
        let mut fields = Self::fields(first);
        if stack.layers.len() == 1 && stack.outputs[0] == first.output {
            return Results(json::object(fields));
        }
        for f in &mut fields {
            if f.0 == "output" {
                f.1 = rows::to_json(stack.output());
            }
        }
        fields.push(("layer_output", rows::to_json(&stack.outputs[0])));
        let layers = stack.layers[1..]
            .iter()
            .zip(&stack.outputs[1..])
            .map(|(t, o)| {
                json::object(vec![
                    ("heads", Self::heads(t)),
                    ("concat", rows::to_json(&t.concat)),
                    ("attention_output", rows::to_json(&t.output)),
                    ("layer_output", rows::to_json(o)),
                ])
            })
            .collect::<Vec<_>>();
        fields.push(("stack", Json::from(layers)));
        Results(json::object(fields))
    }

    fn heads(trace: &Trace) -> Json {
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
        Json::from(heads)
    }

    fn fields(trace: &Trace) -> Vec<(&'static str, Json)> {
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
        fields.push(("heads", Self::heads(trace)));
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
        fields
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        self.0.to_pretty()
    }
}
