//! The model file (docs/training.md, "The model file"): a versioned JSON
//! document with the config, the seed, the steps taken, every weight and
//! Adam's moments, so an imported model continues training bit for bit.
//! Written and read with the engine's JSON (`attention::json`, whose writer
//! prints every f64 so it reads back exactly): each problem names its field
//! (`weights.layers[0].w_o: expected 16×16, got 3 rows`). The seed and the
//! steps are whole numbers written and read digit for digit (a seed may be
//! any u64, beyond what an f64 holds exactly).

use crate::{Config, Model, Params, Positions, Task};
use attention::json::read::{check, Reader, Stop};
use attention::json::{object, Json};
use std::fmt;

/// The version tag every model file carries.
pub const FORMAT: &str = "attention-lab-model/1";

/// Largest magnitude of a number in a model file. Far beyond what training
/// reaches (Adam moves a weight by about lr a step), and small enough that
/// no product of two layers at the largest shapes overflows f64, so a file
/// the reader accepts never fails to compute.
pub const MAX_WEIGHT: f64 = 1e6;

/// Why a model (or a config, or a prompt) was refused: the field and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    pub field: String,
    pub reason: String,
}

impl ModelError {
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> ModelError {
        ModelError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
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
        .ok_or_else(|| ModelError::new(field, "expected an object of matrices"))?;
    let names: Vec<String> = p.named().into_iter().map(|(n, _)| n).collect();
    for (name, m) in names.iter().zip(p.matrices_mut()) {
        let at = format!("{field}.{name}");
        let rows = v
            .get(name)
            .ok_or_else(|| ModelError::new(&at, "missing"))?
            .as_array()
            .ok_or_else(|| ModelError::new(&at, "expected an array of rows"))?;
        let want = format!("expected {}×{}", m.nrows(), m.ncols());
        if rows.len() != m.nrows() {
            return Err(ModelError::new(
                &at,
                format!("{want}, got {} rows", rows.len()),
            ));
        }
        for (r, row) in rows.iter().enumerate() {
            let row = row
                .as_array()
                .filter(|row| row.len() == m.ncols())
                .ok_or_else(|| {
                    ModelError::new(
                        format!("{at}[{r}]"),
                        format!("{want}: a row of {} numbers", m.ncols()),
                    )
                })?;
            for (c, x) in row.iter().enumerate() {
                m[(r, c)] = x
                    .as_f64()
                    .filter(|x| (lo..=MAX_WEIGHT).contains(x))
                    .ok_or_else(|| {
                        ModelError::new(
                            format!("{at}[{r}][{c}]"),
                            format!("expected a number from {lo} to {MAX_WEIGHT}"),
                        )
                    })?;
            }
        }
    }
    Ok(())
}

/// The file as a [`Json`], whole numbers (the seed, the steps, the sizes)
/// as [`Json::Whole`], exactly.
fn read_doc(text: &str) -> Result<Json, Stop> {
    check(text)?;
    Reader::with_wholes(text).value(&mut Vec::new())
}

/// A field of `obj` at `path`, named in the error when missing.
fn get<'a>(obj: &'a Json, path: &str, key: &str) -> Result<&'a Json, ModelError> {
    obj.get(key)
        .ok_or_else(|| ModelError::new(format!("{path}{key}"), "missing"))
}

fn uint(obj: &Json, path: &str, key: &str) -> Result<u64, ModelError> {
    get(obj, path, key)?
        .as_u64()
        .ok_or_else(|| ModelError::new(format!("{path}{key}"), "expected a whole number ≥ 0"))
}

fn size(obj: &Json, path: &str, key: &str) -> Result<usize, ModelError> {
    let v = uint(obj, path, key)?;
    usize::try_from(v).map_err(|_| ModelError::new(format!("{path}{key}"), "too large"))
}

fn text<'a>(obj: &'a Json, path: &str, key: &str) -> Result<&'a str, ModelError> {
    get(obj, path, key)?
        .as_str()
        .ok_or_else(|| ModelError::new(format!("{path}{key}"), "expected a string"))
}

impl Model {
    /// The model file: format, seed, steps, config, weights and Adam's
    /// moments (`adam.m`, `adam.v`, named as the weights), every f64
    /// written so it reads back exactly.
    pub fn to_json(&self) -> String {
        let c = &self.config;
        let whole = |n: usize| Json::Whole(n as u64);
        object(vec![
            ("format", FORMAT.into()),
            ("seed", Json::Whole(c.seed)),
            ("steps", Json::Whole(self.steps)),
            (
                "config",
                object(vec![
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
                ]),
            ),
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
    pub fn from_json(text_in: &str) -> Result<Model, ModelError> {
        let doc = read_doc(text_in).map_err(|stop| {
            let why = match stop {
                Stop::Fault(f) => {
                    let (line, column) = f.line_column(text_in);
                    format!("line {line}, column {column}: {}", f.problem)
                }
                Stop::OutOfRange { .. } => "a number beyond f64".into(),
            };
            ModelError::new("", format!("not JSON: {why}"))
        })?;
        if doc.as_object().is_none() {
            return Err(ModelError::new("", "expected a JSON object"));
        }
        let format = text(&doc, "", "format")?;
        if format != FORMAT {
            return Err(ModelError::new(
                "format",
                format!("expected \"{FORMAT}\", got \"{format}\""),
            ));
        }
        let cfg = get(&doc, "", "config")?;
        let p = "config.";
        let task = text(cfg, p, "task")?;
        let positions = text(cfg, p, "positions")?;
        let config = Config {
            task: Task::from_code(task).ok_or_else(|| {
                ModelError::new("config.task", format!("unknown task \"{task}\""))
            })?,
            vocab: size(cfg, p, "vocab")?,
            n: size(cfg, p, "n")?,
            d_model: size(cfg, p, "d_model")?,
            layers: size(cfg, p, "layers")?,
            heads: size(cfg, p, "heads")?,
            d_head: size(cfg, p, "d_head")?,
            positions: Positions::from_code(positions).ok_or_else(|| {
                ModelError::new(
                    "config.positions",
                    format!("unknown positions \"{positions}\""),
                )
            })?,
            batch: size(cfg, p, "batch")?,
            lr: get(cfg, p, "lr")?
                .as_f64()
                .ok_or_else(|| ModelError::new("config.lr", "expected a number"))?,
            seed: uint(&doc, "", "seed")?,
        };
        let mut model = Model::new(config)?;
        model.steps = uint(&doc, "", "steps")?;
        read_weights(
            get(&doc, "", "weights")?,
            "weights",
            &mut model.params,
            false,
        )?;
        let adam = get(&doc, "", "adam")?;
        read_weights(get(adam, "adam.", "m")?, "adam.m", &mut model.m, false)?;
        read_weights(get(adam, "adam.", "v")?, "adam.v", &mut model.v, true)?;
        Ok(model)
    }
}
