//! The mask editor's grid and graph (docs/figures.md F9; note `000` §6.1–6.3, note
//! `001`): a CNN is attention inside a window, an RNN-like decoder reads in
//! order (causal), a GNN attends along a graph's edges. A grid is `n × n`
//! booleans, `grid[i][j]` true when query `i` may see key `j` (the
//! scenario's `{"custom": …}` mask). Every function returns a new grid.

use attention::{allowed_matrix, Mask};

pub type Grid = Vec<Vec<bool>>;

/// The `n × n` grid of any mask.
pub fn grid(mask: &Mask, n: usize) -> Grid {
    let a = allowed_matrix(mask, n);
    (0..n)
        .map(|i| (0..n).map(|j| a[(i, j)]).collect())
        .collect()
}

/// `g` with the cells `cells` set to `on` (a click is one cell, a drag many).
pub fn painted(g: &Grid, cells: &[(usize, usize)], on: bool) -> Grid {
    let mut out = g.clone();
    for &(i, j) in cells {
        if let Some(c) = out.get_mut(i).and_then(|r| r.get_mut(j)) {
            *c = on;
        }
    }
    out
}

/// The mask of an undirected graph on `n` nodes: a query sees the keys it
/// shares an edge with (both directions), and itself when `self_loops`.
pub fn graph(n: usize, edges: &[(usize, usize)], self_loops: bool) -> Grid {
    let mut g = vec![vec![false; n]; n];
    for (i, row) in g.iter_mut().enumerate() {
        row[i] = self_loops;
    }
    for &(a, b) in edges {
        if a < n && b < n {
            g[a][b] = true;
            g[b][a] = true;
        }
    }
    g
}

/// The edges `(a, b)`, `a < b`, that `g` holds in both directions.
pub fn edges(g: &Grid) -> Vec<(usize, usize)> {
    let n = g.len();
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| g[a][b] && g[b][a])
        .collect()
}

/// `g` with the edge `a – b` removed when it is there (in both
/// directions), added otherwise; `a == b` toggles that node's self-loop.
pub fn toggle_edge(g: &Grid, a: usize, b: usize) -> Grid {
    let on = !(g[a][b] && g[b][a]);
    painted(g, &[(a, b), (b, a)], on)
}

/// Whether every node sees itself.
pub fn self_loops(g: &Grid) -> bool {
    g.iter().enumerate().all(|(i, r)| r[i])
}

/// `g` with every self-loop set to `on`.
pub fn with_self_loops(g: &Grid, on: bool) -> Grid {
    let diagonal: Vec<(usize, usize)> = (0..g.len()).map(|i| (i, i)).collect();
    painted(g, &diagonal, on)
}

/// Queries left with no visible key (their softmax is undefined).
pub fn blind_rows(g: &Grid) -> Vec<usize> {
    (0..g.len()).filter(|&i| !g[i].iter().any(|&a| a)).collect()
}

/// The named mask `g` is, if any (so the editor can say "this is the
/// causal mask"), trying full, causal, then windows and paddings.
pub fn named(g: &Grid) -> Option<Mask> {
    let n = g.len();
    let candidates = [Mask::None, Mask::Causal]
        .into_iter()
        .chain((1..n).map(Mask::Window))
        .chain((1..n).map(Mask::Padding));
    candidates.into_iter().find(|m| grid(m, n) == *g)
}

/// The star graph of the editor's "graph" preset: node 0 is a hub joined
/// to every other node, with self-loops.
pub fn star(n: usize) -> Grid {
    let spokes: Vec<(usize, usize)> = (1..n).map(|b| (0, b)).collect();
    graph(n, &spokes, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(rows: &[&str]) -> Grid {
        rows.iter()
            .map(|r| r.chars().map(|c| c == '1').collect())
            .collect()
    }

    #[test]
    fn graph_masks_are_symmetric_with_optional_self_loops() {
        // A path 0 – 1 – 2 and an isolated node 3.
        assert_eq!(
            graph(4, &[(0, 1), (2, 1)], false),
            t(&["0100", "1010", "0100", "0000"])
        );
        assert_eq!(
            graph(4, &[(0, 1), (2, 1)], true),
            t(&["1100", "1110", "0110", "0001"])
        );
        // Out-of-range edges are ignored, a repeated edge is one edge.
        assert_eq!(graph(2, &[(0, 1), (1, 0), (0, 5)], false), t(&["01", "10"]));
        for g in [graph(5, &[(0, 4), (1, 3), (2, 2)], true), star(6)] {
            for (i, row) in g.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    assert_eq!(v, g[j][i]);
                }
            }
        }
    }

    #[test]
    fn edges_round_trip_and_toggle() {
        let g = graph(4, &[(0, 1), (1, 2)], true);
        assert_eq!(edges(&g), vec![(0, 1), (1, 2)]);
        assert_eq!(graph(4, &edges(&g), self_loops(&g)), g);
        // Adding the edge 0 – 3 lets query 0 see key 3 and query 3 see key 0.
        let h = toggle_edge(&g, 3, 0);
        assert!(h[0][3] && h[3][0]);
        assert_eq!(edges(&h), vec![(0, 1), (0, 3), (1, 2)]);
        assert_eq!(toggle_edge(&h, 0, 3), g);
        // A one-way cell is not an edge; toggling makes it two-way.
        let one_way = painted(&g, &[(0, 2)], true);
        assert_eq!(edges(&one_way), edges(&g));
        let both = toggle_edge(&one_way, 0, 2);
        assert!(both[0][2] && both[2][0]);
        // A self-loop.
        assert!(!toggle_edge(&g, 2, 2)[2][2]);
        assert!(!self_loops(&with_self_loops(&g, false)));
        assert_eq!(with_self_loops(&with_self_loops(&g, false), true), g);
    }

    #[test]
    fn named_masks_blind_rows_and_painting() {
        assert_eq!(named(&grid(&Mask::Causal, 4)), Some(Mask::Causal));
        assert_eq!(
            named(&t(&["1111", "1111", "1111", "1111"])),
            Some(Mask::None)
        );
        assert_eq!(named(&t(&["110", "111", "011"])), Some(Mask::Window(1)));
        assert_eq!(named(&t(&["110", "110", "110"])), Some(Mask::Padding(2)));
        assert_eq!(named(&t(&["01", "10"])), None);
        let g = painted(
            &grid(&Mask::Causal, 3),
            &[(0, 0), (2, 0), (2, 1), (2, 2)],
            false,
        );
        assert_eq!(g, t(&["000", "110", "000"]));
        assert_eq!(blind_rows(&g), vec![0, 2]);
        assert_eq!(blind_rows(&star(3)), Vec::<usize>::new());
        // Cells outside the grid are ignored.
        assert_eq!(painted(&g, &[(7, 0), (0, 9)], true), g);
    }
}
