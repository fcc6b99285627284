//! The `digits` task's data (docs/training.md, "Digits"): real handwritten
//! digits, 8×8 images of pixels 0 … 16, each with its label 0 … 9
//! (data/digits/README.md says where they come from).
//!
//! The crate does not hold the images: the page fetches
//! `data/digits/digits.txt` at run time, reads it with [`Digits::parse`]
//! and hands it over once with [`install`]; a digits model is refused until
//! then (`ModelReason::NoDigits`). The file is one image a line: the label,
//! a space, then the 64 pixels row by row, each one character of
//! `0123456789abcdefg` (its value 0 … 16).
//!
//! The split is fixed, whatever the seed: image i is held out when
//! `i % 6 == 5` ([`held_out`]), the others train. Batches draw only from
//! the training images; a digits model's evaluation set is every held-out
//! image, in order.

use crate::{Image, Sample};
use std::sync::OnceLock;

/// An image's side in pixels.
pub const SIDE: usize = 8;
/// Pixels per image.
pub const PIXELS: usize = SIDE * SIDE;
/// The largest pixel value (the number of pixels set in a 4×4 block of the
/// original 32×32 bitmap).
pub const MAX_PIXEL: u8 = 16;
/// Classes: the digits 0 … 9.
pub const CLASSES: usize = 10;
/// One image in every `HELD_OUT_EVERY` is held out ([`held_out`]).
pub const HELD_OUT_EVERY: usize = 6;
/// A file must hold at least this many images, so that both parts of the
/// split have one.
pub const MIN_IMAGES: usize = HELD_OUT_EVERY;

/// The pixel characters, value 0 … 16 in order.
const PIXEL_CHARS: &str = "0123456789abcdefg";

/// Whether image `i` is held out: `i % 6 == 5` (299 of the 1,797 images).
pub fn held_out(i: usize) -> bool {
    i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
}

/// The images and their labels, in the file's order. Made only by
/// [`Digits::parse`], so every pixel is 0 … 16, every label 0 … 9, and
/// there are at least [`MIN_IMAGES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digits {
    images: Vec<[u8; PIXELS]>,
    labels: Vec<u8>,
}

/// Why a digits file was refused: its line (1-based; 0 for the whole
/// file) and what is wrong there; `Display` is the English (`wording.rs`).
/// The page does not word it: the digits it fetches are the build's own,
/// and a file that fails to parse is a failed fetch to the reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigitsError {
    pub line: usize,
    pub problem: DigitsProblem,
}

/// What is wrong with a line of a digits file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DigitsProblem {
    /// An empty line (the file's final newline does not start one).
    EmptyLine,
    /// The line does not start with a label `0` … `9`.
    Label(char),
    /// No single space after the label (`None`: the line ends there).
    Space(Option<char>),
    /// A pixel that is not one of `0123456789abcdefg`, at `column`
    /// (1-based, in characters).
    Pixel { column: usize, got: char },
    /// Another number of pixels than 64.
    PixelCount(usize),
    /// Fewer images than [`MIN_IMAGES`] (line 0: the whole file).
    TooFew(usize),
}

impl Digits {
    /// Reads a digits file (see the module's documentation): one image a
    /// line, a final newline optional, `\r\n` line ends accepted. The first
    /// problem is refused with its line; no input panics.
    pub fn parse(text: &str) -> Result<Digits, DigitsError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut d = Digits {
            images: Vec::new(),
            labels: Vec::new(),
        };
        for (k, line) in text.lines().enumerate() {
            let fail = |problem| DigitsError {
                line: k + 1,
                problem,
            };
            let mut chars = line.chars();
            let label = match chars.next() {
                None => return Err(fail(DigitsProblem::EmptyLine)),
                Some(c) => match c.to_digit(10) {
                    Some(l) => l as u8,
                    None => return Err(fail(DigitsProblem::Label(c))),
                },
            };
            match chars.next() {
                Some(' ') => {}
                other => return Err(fail(DigitsProblem::Space(other))),
            }
            let mut image = [0u8; PIXELS];
            let mut count = 0;
            for (j, c) in chars.enumerate() {
                let Some(v) = PIXEL_CHARS.chars().position(|p| p == c) else {
                    return Err(fail(DigitsProblem::Pixel {
                        column: j + 3,
                        got: c,
                    }));
                };
                if let Some(p) = image.get_mut(j) {
                    *p = v as u8;
                }
                count += 1;
            }
            if count != PIXELS {
                return Err(fail(DigitsProblem::PixelCount(count)));
            }
            d.images.push(image);
            d.labels.push(label);
        }
        if d.len() < MIN_IMAGES {
            return Err(DigitsError {
                line: 0,
                problem: DigitsProblem::TooFew(d.len()),
            });
        }
        Ok(d)
    }

    /// How many images.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Never: a parsed file has at least [`MIN_IMAGES`].
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Every image, 64 pixels 0 … 16 row by row, in the file's order.
    pub fn images(&self) -> &[[u8; PIXELS]] {
        &self.images
    }

    /// Every label 0 … 9, in the file's order.
    pub fn labels(&self) -> &[u8] {
        &self.labels
    }

    /// The indices of the held-out images, in order ([`held_out`]).
    pub fn held_out(&self) -> impl Iterator<Item = usize> {
        (HELD_OUT_EVERY - 1..self.len()).step_by(HELD_OUT_EVERY)
    }

    /// How many images train (the others are held out).
    pub fn training_len(&self) -> usize {
        self.len() - self.len() / HELD_OUT_EVERY
    }

    /// The index of the `k`-th training image (k < [`Digits::training_len`]).
    pub fn training_index(k: usize) -> usize {
        let per = HELD_OUT_EVERY - 1;
        k / per * HELD_OUT_EVERY + k % per
    }

    /// Image `index` as a `digits` sample of length n (`Config::n`): tokens
    /// `0 … n − 1`, the positions (0 is `[CLS]`, i the i-th patch), the
    /// label as `[CLS]`'s target, nothing to predict elsewhere, and the
    /// image. `None` when there is no such image.
    pub fn sample(&self, index: usize, n: usize) -> Option<Sample> {
        let (pixels, label) = (*self.images.get(index)?, self.labels[index]);
        let mut targets = vec![None; n];
        if let Some(t) = targets.first_mut() {
            *t = Some(usize::from(label));
        }
        Some(Sample {
            tokens: (0..n).collect(),
            targets,
            labels: None,
            image: Some(Image { index, pixels }),
        })
    }
}

static INSTALLED: OnceLock<Digits> = OnceLock::new();

/// Hands the data to every digits model of this process. The data is one
/// fixed file, so only the first install counts: a later one is ignored.
pub fn install(d: Digits) {
    let _ = INSTALLED.set(d);
}

/// The installed data, if any ([`install`]).
pub fn installed() -> Option<&'static Digits> {
    INSTALLED.get()
}

impl std::error::Error for DigitsError {}
