//! The model file (docs/training.md, "The model file"): a versioned JSON
//! document with the config, the seed, the steps taken, every weight and
//! Adam's moments, so an imported model continues training bit for bit.
//!
//! Written with the engine's JSON writer (`attention::json`, which prints
//! every f64 so it reads back exactly, and the seed and steps digit for
//! digit: a seed may be any u64, beyond what an f64 holds). Read with serde
//! derive and serde_json, serde_path_to_error naming the field of the
//! first problem (`config.heads`); the weights' shapes follow from the
//! config, so they are checked against the model the config builds
//! (`weights.layers[0].w_o: expected 16×16, got 3 rows`). Every refusal is
//! a typed [`ModelReason`]: data the page words in the reader's language
//! (`src/app/train_lab/words.rs`); its `Display` is the English (`wording.rs`).

use crate::{Config, Model, Params, Positions, Readout, Task, DEFAULT_PATCH};
use attention::json::{self, object, Json, JsonProblem};
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_path_to_error::Segment;
use std::fmt;
use std::marker::PhantomData;

/// The version tag every model file carries.
pub const FORMAT: &str = "attention-lab-model/1";

/// Largest magnitude of a number in a model file. Far beyond what training
/// reaches (Adam moves a weight by about lr a step), and small enough that
/// no product of two layers at the largest shapes overflows f64, so a file
/// the reader accepts never fails to compute.
pub const MAX_WEIGHT: f64 = 1e6;

/// Why a model (or a config, or a prompt) was refused: the field as the
/// file writes it (`weights.layers[0].w_o[2][1]`, empty for the whole
/// file) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelError {
    pub field: String,
    pub reason: ModelReason,
}

/// Why, as data: the page words it in the reader's language from its
/// string tables; `Display` is the English (`wording.rs`).
#[derive(Clone, Debug, PartialEq)]
pub enum ModelReason {
    /// The text is not JSON: where and what.
    NotJson {
        line: usize,
        column: usize,
        problem: JsonProblem,
    },
    /// The file is not a JSON object.
    NotObject,
    /// A number beyond what an f64 holds (`1e400`).
    NumberBeyondF64,
    Missing,
    ExpectedText,
    ExpectedNumber,
    /// Expected a whole number ≥ 0 (the seed, the steps, a size).
    ExpectedWhole,
    /// A size beyond what this machine's `usize` holds.
    TooLarge,
    /// Another format tag than [`FORMAT`].
    Format(String),
    UnknownTask(String),
    UnknownPositions(String),
    UnknownReadout(String),
    ExpectedMatrices,
    ExpectedRows,
    /// A matrix with another number of rows than the config gives it.
    RowCount {
        rows: usize,
        cols: usize,
        got: usize,
    },
    /// A row that is not `cols` numbers.
    RowLength {
        rows: usize,
        cols: usize,
    },
    /// A weight outside `lo ..= hi` (or not a number).
    WeightRange {
        lo: f64,
        hi: f64,
    },
    /// A config size outside `lo ..= hi`.
    Range {
        lo: usize,
        hi: usize,
        got: usize,
    },
    /// The learning rate is not a positive number.
    PositiveLr(f64),
    /// The task needs a longer sequence.
    TaskNeedsN {
        task: Task,
        need: usize,
        got: usize,
    },
    /// Induction needs a vocabulary of at least n/2.
    InductionVocab {
        need: usize,
        got: usize,
    },
    /// Seq2seq needs (n − 2)/2 distinct tokens besides `<SEP>` and `<EOS>`.
    SequenceVocab {
        need: usize,
        got: usize,
    },
    /// A prompt or input of another length than 1 … `max` (with `steps`
    /// generated tokens counted when `with_steps`).
    TokenCount {
        max: usize,
        with_steps: bool,
        got: usize,
    },
    /// A token outside the vocabulary.
    NotAToken {
        token: usize,
        vocab: usize,
    },
    /// A `digits` model before the data is installed
    /// ([`crate::digits::install`]).
    NoDigits,
    /// A patch side that does not tile the 8×8 image (not 2 or 4).
    Patch(usize),
    /// `digits` with another vocabulary than its 10 classes.
    DigitsClasses(usize),
    /// `digits` with another n than its class token and patches,
    /// (8/p)² + 1.
    PatchPositions {
        patch: usize,
        need: usize,
        got: usize,
    },
    /// Tokens given to `digits`, whose input is an image
    /// (`Model::predict_sample`).
    ImageInput,
}

/// Text that is not JSON: where and what.
impl From<json::Fault> for ModelReason {
    fn from(f: json::Fault) -> Self {
        ModelReason::NotJson {
            line: f.line,
            column: f.column,
            problem: f.problem,
        }
    }
}

impl ModelError {
    pub fn new(field: impl Into<String>, reason: ModelReason) -> ModelError {
        ModelError {
            field: field.into(),
            reason,
        }
    }
}

impl std::error::Error for ModelError {}

/// `{name: rows}` for every matrix of `p`.
fn weights_json(p: &Params) -> Json {
    Json::Object(
        p.named()
            .into_iter()
            .map(|(name, m)| {
                let rows = attention::json::matrix_rows(
                    (0..m.nrows())
                        .map(|r| m.row(r).iter().copied().collect::<Vec<_>>().into_iter()),
                );
                (name, rows)
            })
            .collect(),
    )
}

/// Reads every matrix of `p` (already shaped) from the object at `field`:
/// numbers within ±[`MAX_WEIGHT`], and not negative when `nonnegative`
/// (Adam's second moments, whose square root is taken).
fn read_weights(
    v: &Json,
    field: &str,
    p: &mut Params,
    nonnegative: bool,
) -> Result<(), ModelError> {
    let lo = if nonnegative { 0.0 } else { -MAX_WEIGHT };
    v.as_object()
        .ok_or_else(|| ModelError::new(field, ModelReason::ExpectedMatrices))?;
    let names: Vec<String> = p.named().into_iter().map(|(n, _)| n).collect();
    for (name, m) in names.iter().zip(p.matrices_mut()) {
        let at = format!("{field}.{name}");
        let rows = v
            .get(name)
            .ok_or_else(|| ModelError::new(&at, ModelReason::Missing))?
            .as_array()
            .ok_or_else(|| ModelError::new(&at, ModelReason::ExpectedRows))?;
        let (nrows, ncols) = m.shape();
        if rows.len() != nrows {
            return Err(ModelError::new(
                &at,
                ModelReason::RowCount {
                    rows: nrows,
                    cols: ncols,
                    got: rows.len(),
                },
            ));
        }
        for (r, row) in rows.iter().enumerate() {
            let row = row
                .as_array()
                .filter(|row| row.len() == m.ncols())
                .ok_or_else(|| {
                    ModelError::new(
                        format!("{at}[{r}]"),
                        ModelReason::RowLength {
                            rows: nrows,
                            cols: ncols,
                        },
                    )
                })?;
            for (c, x) in row.iter().enumerate() {
                m[(r, c)] = x
                    .as_f64()
                    .filter(|x| (lo..=MAX_WEIGHT).contains(x))
                    .ok_or_else(|| {
                        ModelError::new(
                            format!("{at}[{r}][{c}]"),
                            ModelReason::WeightRange { lo, hi: MAX_WEIGHT },
                        )
                    })?;
            }
        }
    }
    Ok(())
}

/// The model file as written (docs/training.md, "The model file"). Fields
/// it does not know are passed over. The weights stay JSON
/// values here: their shapes follow from the config, and are checked
/// against the model it builds ([`read_weights`]).
#[derive(serde::Deserialize)]
struct FileDoc {
    seed: u64,
    steps: u64,
    config: Object<ConfigDoc>,
    weights: Json,
    adam: Object<AdamDoc>,
}

#[derive(serde::Deserialize)]
struct ConfigDoc {
    task: String,
    vocab: usize,
    n: usize,
    d_model: usize,
    layers: usize,
    heads: usize,
    d_head: usize,
    positions: String,
    batch: usize,
    lr: f64,
    /// Files written before the multi-label task have none: sigmoid.
    #[serde(default)]
    readout: Option<String>,
    /// Written for `digits` only; absent, [`DEFAULT_PATCH`].
    #[serde(default)]
    patch: Option<usize>,
}

#[derive(serde::Deserialize)]
struct AdamDoc {
    m: Json,
    v: Json,
}

/// `T` read from a JSON object only: serde derive alone would also take an
/// array of the fields' values in order.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(a))
            }
        }
        d.deserialize_map(Fields(PhantomData)).map(Object)
    }
}

/// The path serde_path_to_error kept, as the file writes its fields: keys
/// joined by `.` (a weight's name, `layers[0].w_o`, as it is), indices in
/// brackets.
fn field_of(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => out.push_str("[?]"),
        }
    }
    out
}

/// serde's refusal at `field`, as a typed reason. serde_json gives a
/// category and an English message; the field says what was expected.
fn refusal(text: &str, field: String, e: &serde_json::Error) -> ModelError {
    let message = e.to_string();
    // serde_json calls a number beyond f64 a syntax error; inside a field
    // it is that field's number.
    if message.starts_with("number out of range") && !field.is_empty() {
        return ModelError::new(field, ModelReason::NumberBeyondF64);
    }
    if e.classify() != serde_json::error::Category::Data {
        return ModelError::new("", json::de::fault(text, e).into());
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        // Byte searches: the names and the separators are ASCII.
        let name = &rest[..rest.bytes().position(|b| b == b'`').unwrap_or(rest.len())];
        let field = if field.is_empty() {
            name.to_owned()
        } else {
            format!("{field}.{name}")
        };
        return ModelError::new(field, ModelReason::Missing);
    }
    let last = &field[field
        .bytes()
        .rposition(|b| b == b'.')
        .map_or(0, |dot| dot + 1)..];
    let reason = match last {
        "" | "config" | "adam" => ModelReason::NotObject,
        "task" | "positions" | "format" | "readout" => ModelReason::ExpectedText,
        "lr" => ModelReason::ExpectedNumber,
        _ if message.starts_with("invalid value: integer") && !message.contains("`-") => {
            ModelReason::TooLarge
        }
        _ => ModelReason::ExpectedWhole,
    };
    ModelError::new(field, reason)
}

/// Reads `text` as `T` through serde_path_to_error.
fn read<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, ModelError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| refusal(text, field_of(e.path()), e.inner()))
}

impl Model {
    /// The model file: format, seed, steps, config (with `patch` for
    /// `digits` only), weights and Adam's moments (`adam.m`, `adam.v`,
    /// named as the weights), every f64 written so it reads back exactly.
    pub fn to_json(&self) -> String {
        let c = &self.config;
        let whole = |n: usize| Json::Whole(n as u64);
        let mut config = vec![
            ("task", c.task.code().into()),
            ("vocab", whole(c.vocab)),
            ("n", whole(c.n)),
            ("d_model", whole(c.d_model)),
            ("layers", whole(c.layers)),
            ("heads", whole(c.heads)),
            ("d_head", whole(c.d_head)),
            ("positions", c.positions.code().into()),
            ("batch", whole(c.batch)),
            ("lr", c.lr.into()),
            ("readout", c.readout.code().into()),
        ];
        if c.task == Task::Digits {
            config.push(("patch", whole(c.patch)));
        }
        object(vec![
            ("format", FORMAT.into()),
            ("seed", Json::Whole(c.seed)),
            ("steps", Json::Whole(self.steps)),
            ("config", object(config)),
            ("weights", weights_json(&self.params)),
            (
                "adam",
                object(vec![
                    ("m", weights_json(&self.m)),
                    ("v", weights_json(&self.v)),
                ]),
            ),
        ])
        .to_compact()
    }

    /// Reads a model file; the first problem names its field. The model
    /// continues training exactly as the one written would have.
    pub fn from_json(text: &str) -> Result<Model, ModelError> {
        let text = json::de::without_bom(text);
        json::check(text).map_err(|f| ModelError::new("", f.into()))?;
        // The tag first, so that another kind of file (a scenario) is called
        // what it is rather than missing a model's fields.
        let root = read::<Json>(text)?;
        if root.as_object().is_none() {
            return Err(ModelError::new("", ModelReason::NotObject));
        }
        match root.get("format") {
            None => return Err(ModelError::new("format", ModelReason::Missing)),
            Some(Json::String(tag)) if tag == FORMAT => {}
            Some(Json::String(tag)) => {
                return Err(ModelError::new("format", ModelReason::Format(tag.clone())))
            }
            Some(_) => return Err(ModelError::new("format", ModelReason::ExpectedText)),
        }
        drop(root);
        let Object(doc) = read::<Object<FileDoc>>(text)?;
        let c = doc.config.0;
        let config = Config {
            task: Task::from_code(&c.task).ok_or_else(|| {
                ModelError::new("config.task", ModelReason::UnknownTask(c.task.clone()))
            })?,
            vocab: c.vocab,
            n: c.n,
            d_model: c.d_model,
            layers: c.layers,
            heads: c.heads,
            d_head: c.d_head,
            positions: Positions::from_code(&c.positions).ok_or_else(|| {
                ModelError::new(
                    "config.positions",
                    ModelReason::UnknownPositions(c.positions.clone()),
                )
            })?,
            batch: c.batch,
            lr: c.lr,
            seed: doc.seed,
            readout: match c.readout.as_deref() {
                None => Readout::Sigmoid,
                Some(r) => Readout::from_code(r).ok_or_else(|| {
                    ModelError::new("config.readout", ModelReason::UnknownReadout(r.to_string()))
                })?,
            },
            patch: c.patch.unwrap_or(DEFAULT_PATCH),
        };
        let mut model = Model::new(config)?;
        model.steps = doc.steps;
        read_weights(&doc.weights, "weights", &mut model.params, false)?;
        let adam = doc.adam.0;
        read_weights(&adam.m, "adam.m", &mut model.m, false)?;
        read_weights(&adam.v, "adam.v", &mut model.v, true)?;
        Ok(model)
    }
}
