//! The tokens lab's state and its one reducer: pure, so its rules are
//! tested natively (what the query becomes when the patch side or the
//! duration changes n, what a drawn pixel may be).

use crate::lesson::labs::tokens::{self, SIDE};
use std::rc::Rc;
use yew::Reducible;

/// What becomes the sequence (`data-control="kind"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Image,
    Audio,
    Graph,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Image, Kind::Audio, Kind::Graph];

    /// Its `data-kind` and address word.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Image => "image",
            Kind::Audio => "audio",
            Kind::Graph => "graph",
        }
    }

    pub fn from_code(code: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// The patch sides offered (each divides the image's side).
pub const PATCHES: [usize; 3] = [1, 2, 4];
/// The durations a reader may type, in seconds.
pub const DURATION: std::ops::RangeInclusive<f64> = 0.1..=tokens::MAX_SECONDS;

/// Everything the lab shows is computed from this.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub kind: Kind,
    /// Patch side p, one of [`PATCHES`].
    pub patch: usize,
    /// The image, `SIDE × SIDE` greyscale values in 0 … 1, row-major.
    pub image: Rc<Vec<f64>>,
    /// The recording's length in seconds, in [`DURATION`].
    pub seconds: f64,
    /// Attention restricted to friends (the adjacency as the mask).
    pub friends_only: bool,
    /// The query token of each kind (image, audio, graph).
    pub query: [usize; 3],
}

/// A change the reader makes.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    Kind(Kind),
    Patch(usize),
    /// Pixel `i` painted with a value (clamped to 0 … 1).
    Paint(usize, f64),
    Image(Vec<f64>),
    Seconds(f64),
    FriendsOnly(bool),
    /// The query of the kind shown.
    Query(usize),
}

impl Default for State {
    fn default() -> State {
        State {
            kind: Kind::Image,
            patch: 2,
            image: Rc::new(tokens::DIGITS[0].to_vec()),
            seconds: 1.0,
            friends_only: true,
            query: [5, 20, 0],
        }
    }
}

impl State {
    /// Tokens in the kind shown.
    pub fn n(&self) -> usize {
        match self.kind {
            Kind::Image => image_n(self.patch),
            Kind::Audio => audio_n(self.seconds),
            Kind::Graph => tokens::PEOPLE.len(),
        }
    }

    /// The query of the kind shown, always `< n`.
    pub fn query(&self) -> usize {
        self.query[self.kind as usize].min(self.n() - 1)
    }

    /// The state after `msg`: a value out of range leaves it as it was.
    pub fn apply(&self, msg: Msg) -> State {
        let mut s = self.clone();
        match msg {
            Msg::Kind(k) => s.kind = k,
            Msg::Patch(p) if PATCHES.contains(&p) => {
                // The new query patch holds the old one's first pixel.
                let (r, c) = pixel_of(self.query[0].min(image_n(self.patch) - 1), self.patch);
                s.patch = p;
                s.query[0] = (r / p) * (SIDE / p) + c / p;
            }
            Msg::Paint(i, v) if i < SIDE * SIDE && v.is_finite() => {
                Rc::make_mut(&mut s.image)[i] = v.clamp(0.0, 1.0);
            }
            Msg::Image(img) if img.len() == SIDE * SIDE && img.iter().all(|v| v.is_finite()) => {
                s.image = Rc::new(img.into_iter().map(|v| v.clamp(0.0, 1.0)).collect());
            }
            Msg::Seconds(t) if DURATION.contains(&t) => {
                // The query frame stays at the same time, if there is still
                // a frame there.
                let at = self.query[1] as f64 / audio_n(self.seconds) as f64 * self.seconds;
                s.seconds = t;
                s.query[1] = ((at / t * audio_n(t) as f64) as usize).min(audio_n(t) - 1);
            }
            Msg::FriendsOnly(on) => s.friends_only = on,
            Msg::Query(q) if q < self.n() => s.query[self.kind as usize] = q,
            _ => {}
        }
        s
    }
}

impl Reducible for State {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let next = self.apply(msg);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

/// Patches of side `p` in the image.
pub fn image_n(p: usize) -> usize {
    (SIDE / p) * (SIDE / p)
}

/// Frames in `seconds` of sound.
pub fn audio_n(seconds: f64) -> usize {
    tokens::frame_count(samples(seconds)).max(1)
}

/// Samples in `seconds` of sound. Not `tokens::sample_count`, which stops
/// at what the lab synthesises (`MAX_SECONDS`): the question and the cost
/// line count frames of longer recordings (twice the duration, a minute).
pub fn samples(seconds: f64) -> usize {
    (seconds * tokens::SAMPLE_RATE as f64).round() as usize
}

/// The first pixel (row, column) of patch `i` of side `p`.
pub fn pixel_of(i: usize, p: usize) -> (usize, usize) {
    let per_row = SIDE / p;
    ((i / per_row) * p, (i % per_row) * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_follows_the_patch_side_and_the_duration() {
        let s = State::default();
        assert_eq!(s.apply(Msg::Patch(1)).n(), 64);
        assert_eq!(s.apply(Msg::Patch(2)).n(), 16);
        assert_eq!(s.apply(Msg::Patch(4)).n(), 4);
        let a = s.apply(Msg::Kind(Kind::Audio));
        assert_eq!(a.apply(Msg::Seconds(1.0)).n(), 100);
        assert_eq!(a.apply(Msg::Seconds(0.5)).n(), 50);
    }

    #[test]
    fn the_query_patch_keeps_its_pixels_when_p_changes() {
        // Patch 5 of side 2 is rows 2–3, columns 2–3; with side 4 that is
        // patch 0, with side 1 pixel (2, 2) = token 18.
        let s = State::default().apply(Msg::Query(5));
        assert_eq!(s.apply(Msg::Patch(4)).query(), 0);
        assert_eq!(s.apply(Msg::Patch(1)).query(), 18);
        assert!(
            s.apply(Msg::Patch(3)) == s,
            "a side that does not divide 8 is refused"
        );
    }

    #[test]
    fn the_query_frame_keeps_its_time_and_stays_in_range() {
        let s = State::default()
            .apply(Msg::Kind(Kind::Audio))
            .apply(Msg::Query(40));
        assert_eq!(s.apply(Msg::Seconds(2.0)).query(), 40);
        assert_eq!(s.apply(Msg::Seconds(0.2)).query(), 19);
        assert!(s.apply(Msg::Seconds(3.0)) == s);
        assert!(s.apply(Msg::Seconds(f64::NAN)) == s);
        assert!(s.apply(Msg::Query(100)) == s, "no frame 100 in 1 s");
    }

    #[test]
    fn painting_clamps_and_refuses_what_is_not_a_pixel() {
        let s = State::default();
        assert_eq!(s.apply(Msg::Paint(0, 7.0)).image[0], 1.0);
        assert!(s.apply(Msg::Paint(64, 1.0)) == s);
        assert!(s.apply(Msg::Image(vec![0.0; 3])) == s);
        assert!(s.apply(Msg::Image(vec![f64::INFINITY; 64])) == s);
    }
}
