//! A caret on a grid of cells, and what a pasted block becomes: the logic
//! the matrices, the heatmaps and the mask editor share, kept apart from
//! their components so it is tested natively.

/// A move of the caret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    Left,
    Right,
    /// To the row's first cell.
    Home,
    /// To the row's last cell.
    End,
}

impl Move {
    /// The move an arrow, Home or End key asks for.
    pub fn of_key(key: &str) -> Option<Move> {
        Some(match key {
            "ArrowUp" => Move::Up,
            "ArrowDown" => Move::Down,
            "ArrowLeft" => Move::Left,
            "ArrowRight" => Move::Right,
            "Home" => Move::Home,
            "End" => Move::End,
            _ => return None,
        })
    }
}

/// Where `m` takes the caret at `(r, c)` in a `rows × cols` grid, or `None`
/// when it would leave the grid (or the grid is empty).
pub fn step((r, c): (usize, usize), m: Move, rows: usize, cols: usize) -> Option<(usize, usize)> {
    if rows == 0 || cols == 0 {
        return None;
    }
    let to = match m {
        Move::Up => (r.checked_sub(1)?, c),
        Move::Down => (r + 1, c),
        Move::Left => (r, c.checked_sub(1)?),
        Move::Right => (r, c + 1),
        Move::Home => (r, 0),
        Move::End => (r, cols - 1),
    };
    (to.0 < rows && to.1 < cols).then_some(to)
}

/// Like [`step`], but the caret stays put at an edge.
pub fn step_clamped(at: (usize, usize), m: Move, rows: usize, cols: usize) -> (usize, usize) {
    step(at, m, rows, cols).unwrap_or(at)
}

/// A pasted block (rows as shown on screen) in the row-vector orientation
/// of a `rows × cols` matrix: transposed first when the screen shows the
/// matrix transposed. `Err((pasted rows, pasted columns))` when the shape
/// does not fit (ragged blocks never fit).
pub fn pasted(
    block: Vec<Vec<f64>>,
    transposed: bool,
    rows: usize,
    cols: usize,
) -> Result<Vec<Vec<f64>>, (usize, usize)> {
    let (pr, pc) = (block.len(), block.first().map_or(0, Vec::len));
    let ragged = block.iter().any(|r| r.len() != pc);
    let oriented: Vec<Vec<f64>> = if transposed && !ragged {
        (0..pc)
            .map(|c| (0..pr).map(|r| block[r][c]).collect())
            .collect()
    } else {
        block
    };
    let fits = !ragged && oriented.len() == rows && oriented.iter().all(|r| r.len() == cols);
    if fits {
        Ok(oriented)
    } else {
        Err((pr, pc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_moves() {
        assert_eq!(Move::of_key("ArrowUp"), Some(Move::Up));
        assert_eq!(Move::of_key("End"), Some(Move::End));
        assert_eq!(Move::of_key("Enter"), None);
        assert_eq!(Move::of_key("a"), None);
    }

    #[test]
    fn steps_stay_inside_the_grid() {
        // A 2 × 3 grid.
        assert_eq!(step((0, 0), Move::Up, 2, 3), None);
        assert_eq!(step((0, 0), Move::Left, 2, 3), None);
        assert_eq!(step((0, 0), Move::Down, 2, 3), Some((1, 0)));
        assert_eq!(step((1, 0), Move::Down, 2, 3), None);
        assert_eq!(step((1, 1), Move::Right, 2, 3), Some((1, 2)));
        assert_eq!(step((1, 2), Move::Right, 2, 3), None);
        assert_eq!(step((1, 1), Move::Home, 2, 3), Some((1, 0)));
        assert_eq!(step((0, 1), Move::End, 2, 3), Some((0, 2)));
        assert_eq!(step((0, 0), Move::End, 0, 3), None);
        assert_eq!(step_clamped((1, 2), Move::Right, 2, 3), (1, 2));
        assert_eq!(step_clamped((0, 0), Move::Up, 2, 3), (0, 0));
        assert_eq!(step_clamped((0, 0), Move::Down, 2, 3), (1, 0));
        // Every move from every cell lands inside or nowhere.
        for r in 0..4 {
            for c in 0..5 {
                for m in [
                    Move::Up,
                    Move::Down,
                    Move::Left,
                    Move::Right,
                    Move::Home,
                    Move::End,
                ] {
                    if let Some((a, b)) = step((r, c), m, 4, 5) {
                        assert!(a < 4 && b < 5);
                        assert!(a.abs_diff(r) + b.abs_diff(c) <= 4);
                    }
                }
            }
        }
    }

    #[test]
    fn pastes_are_oriented_and_checked() {
        let block = vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]];
        // As shown, a 2 × 3 matrix.
        assert_eq!(pasted(block.clone(), false, 2, 3), Ok(block.clone()));
        // Shown transposed (the column layout): the matrix is 3 × 2.
        assert_eq!(
            pasted(block.clone(), true, 3, 2),
            Ok(vec![vec![1.0, 4.0], vec![2.0, 5.0], vec![3.0, 6.0]])
        );
        assert_eq!(pasted(block.clone(), false, 3, 2), Err((2, 3)));
        assert_eq!(pasted(block, true, 2, 3), Err((2, 3)));
        // Ragged blocks never fit, in either orientation.
        let ragged = vec![vec![1.0, 2.0], vec![3.0]];
        assert_eq!(pasted(ragged.clone(), false, 2, 2), Err((2, 2)));
        assert_eq!(pasted(ragged, true, 2, 2), Err((2, 2)));
    }
}
