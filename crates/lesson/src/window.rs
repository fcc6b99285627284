//! Windows onto large matrices. A 64 × 512 X or a 512 × 64 W_Q would be
//! tens of thousands of cells; the page shows each long axis through a
//! window of [`SPAN`] positions that the reader (or the keyboard caret)
//! moves. Every shown cell still carries its position in the full matrix.

use std::ops::Range;

/// A column of positions (a matrix's rows as displayed) up to this long is
/// shown whole (today's 64-token matrices).
pub const FULL: usize = 64;
/// A row of positions (the displayed columns) up to this long is shown
/// whole: wider than this, a matrix is more than a screen wide (33 cells of
/// about 56 px at 1,280 px), so it is read through a window like a longer
/// column; and a 64 × 64 matrix writes 1,024 cells after an edit, not 4,096.
pub const FULL_COLS: usize = 32;
/// A longer axis shows this many positions at a time.
pub const SPAN: usize = 16;

/// `(b, a)` when `transpose`, else `(a, b)`: a (row, column) pair of the
/// matrix as the column layout displays it, and back (the swap is its own
/// inverse).
pub fn swap_if<T>(transpose: bool, (a, b): (T, T)) -> (T, T) {
    if transpose {
        (b, a)
    } else {
        (a, b)
    }
}

/// One axis of a matrix as shown: `len` positions, of which
/// `start .. start + size` are on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axis {
    pub start: usize,
    pub size: usize,
    pub len: usize,
}

impl Axis {
    /// The axis of `len` positions wanting to start at `start`: whole when
    /// `len ≤ FULL`, else a window of `SPAN` whose start is clamped so the
    /// window never runs past the end (after the matrix shrinks, say).
    pub fn new(len: usize, start: usize) -> Axis {
        Axis::up_to(FULL, len, start)
    }

    /// The displayed columns: like [`Axis::new`], whole up to
    /// [`FULL_COLS`] positions.
    pub fn columns(len: usize, start: usize) -> Axis {
        Axis::up_to(FULL_COLS, len, start)
    }

    fn up_to(full: usize, len: usize, start: usize) -> Axis {
        let size = if len > full { SPAN } else { len };
        Axis {
            start: start.min(len - size),
            size,
            len,
        }
    }

    /// Whether only part of the axis is shown.
    pub fn windowed(self) -> bool {
        self.size < self.len
    }

    /// The positions shown.
    pub fn range(self) -> Range<usize> {
        self.start..self.start + self.size
    }

    /// The largest start a window may have.
    pub fn last_start(self) -> usize {
        self.len - self.size
    }

    /// The shown part of each block of `block` positions (head r's columns,
    /// say) that the window touches: `(block index, first shown position,
    /// how many shown)`, left to right.
    ///
    /// Panics if `block` is 0.
    pub fn blocks(self, block: usize) -> impl Iterator<Item = (usize, usize, usize)> {
        assert!(block > 0, "Axis::blocks: empty blocks");
        let r = self.range();
        (r.start / block..r.end.div_ceil(block)).map(move |b| {
            let from = r.start.max(b * block);
            (b, from, r.end.min((b + 1) * block) - from)
        })
    }

    /// The window moved as little as possible so that it shows `caret`
    /// (clamped to the last position): unchanged when it already does.
    pub fn follow(self, caret: usize) -> Axis {
        let caret = caret.min(self.len.saturating_sub(1));
        let start = if caret < self.start {
            caret
        } else if caret >= self.start + self.size {
            caret + 1 - self.size
        } else {
            self.start
        };
        Axis {
            start: start.min(self.len - self.size),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_axes_are_whole_and_never_move() {
        for len in [1, 3, 64] {
            let a = Axis::new(len, 40);
            assert_eq!((a.start, a.size, a.windowed()), (0, len, false));
            assert_eq!(a.follow(len - 1), a);
            assert_eq!(a.range(), 0..len);
        }
    }

    #[test]
    fn columns_are_whole_up_to_32() {
        for len in [1, 16, 32] {
            assert!(!Axis::columns(len, 5).windowed());
        }
        let a = Axis::columns(64, 0);
        assert_eq!((a.range(), a.len), (0..16, 64));
        assert_eq!(Axis::columns(64, 60).range(), 48..64);
        assert_eq!(Axis::columns(64, 60).follow(3).range(), 3..19);
        // A 64-long column of positions stays whole.
        assert!(!Axis::new(64, 0).windowed());
    }

    #[test]
    fn long_axes_show_a_clamped_window() {
        let a = Axis::new(512, 0);
        assert!(a.windowed());
        assert_eq!(a.range(), 0..16);
        assert_eq!(Axis::new(512, 16).range(), 16..32);
        // Past the end: the last full window.
        assert_eq!(Axis::new(512, 600).range(), 496..512);
        assert_eq!(Axis::new(65, 60).range(), 49..65);
        assert_eq!(Axis::new(512, 0).last_start(), 496);
    }

    #[test]
    fn swapping_is_its_own_inverse() {
        assert_eq!(swap_if(false, (1, 400)), (1, 400));
        assert_eq!(swap_if(true, (1, 400)), (400, 1));
        assert_eq!(swap_if(true, swap_if(true, (1, 400))), (1, 400));
    }

    #[test]
    fn blocks_are_cut_at_the_window_edges() {
        let blocks = |len, start, block| Axis::new(len, start).blocks(block).collect::<Vec<_>>();
        // Whole: every block in full.
        assert_eq!(blocks(6, 0, 2), vec![(0, 0, 2), (1, 2, 2), (2, 4, 2)]);
        // Columns 60..76 of 8 blocks of 64: the end of block 0, the start of block 1.
        assert_eq!(blocks(512, 60, 64), vec![(0, 60, 4), (1, 64, 12)]);
        // Inside one block.
        assert_eq!(blocks(512, 130, 64), vec![(2, 130, 16)]);
        // Blocks wider than the window, ending exactly at it.
        assert_eq!(blocks(512, 496, 64), vec![(7, 496, 16)]);
    }

    #[test]
    fn the_window_follows_the_caret_by_the_least_move() {
        let a = Axis::new(512, 16); // 16..32
        assert_eq!(a.follow(20), a, "inside: no move");
        assert_eq!(a.follow(32).range(), 17..33, "one right of the window");
        assert_eq!(a.follow(15).range(), 15..31, "one left of the window");
        assert_eq!(a.follow(400).range(), 385..401);
        assert_eq!(a.follow(9999).range(), 496..512, "clamped to the end");
        assert_eq!(a.follow(0).range(), 0..16);
        // Every caret is shown after following, from any start.
        for start in [0, 7, 200, 496] {
            for caret in [0, 15, 16, 255, 511] {
                assert!(Axis::new(512, start).follow(caret).range().contains(&caret));
            }
        }
    }
}
