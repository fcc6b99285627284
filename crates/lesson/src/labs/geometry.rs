//! # The dot product as lengths and an angle (docs/figures.md F6, note 004 §8)
//!
//! `q·k = q_x k_x + q_y k_y = |q| |k| cos θ`, θ the angle between them. A key
//! scores high when it points the way the query points (cos θ near 1) *and*
//! when either is long: a long key at an angle can beat a short key that
//! points exactly the same way. Softmax over the scores then turns them into
//! weights. The lab draws 2-D vectors on a plane; this module is its math
//! and its layout (plane ↔ pixels), free of the browser.

use attention::softmax_masked;

/// A 2-D vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl V2 {
    pub const fn new(x: f64, y: f64) -> V2 {
        V2 { x, y }
    }

    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    pub fn norm(self) -> f64 {
        self.x.hypot(self.y)
    }

    /// cos θ between `self` and `o` (0 when either is the zero vector).
    pub fn cos(self, o: V2) -> f64 {
        let n = self.norm() * o.norm();
        if n == 0.0 {
            0.0
        } else {
            (self.dot(o) / n).clamp(-1.0, 1.0)
        }
    }

    /// The angle between `self` and `o` in degrees, 0…180 (from the cross
    /// and dot products, accurate near 0° and 180° too).
    pub fn angle_deg(self, o: V2) -> f64 {
        let cross = self.x * o.y - self.y * o.x;
        cross.abs().atan2(self.dot(o)).to_degrees()
    }
}

/// The lab's opening picture: q, a short key pointing the same way (k¹), a
/// longer key at an angle (k², which wins) and a key pointing away (k³).
pub fn start() -> (V2, [V2; 3]) {
    (
        V2::new(2.0, 1.0),
        [V2::new(1.0, 0.5), V2::new(0.5, 3.0), V2::new(-2.0, -1.0)],
    )
}

/// Softmax weights of `q` over `keys` (scores `q·kʲ`, no scaling).
pub fn weights(q: V2, keys: &[V2]) -> Vec<f64> {
    let scores: Vec<f64> = keys.iter().map(|k| q.dot(*k)).collect();
    softmax_masked(&scores, &vec![true; keys.len()]).unwrap_or_default()
}

/// The plane drawn in a square of `size` px, `extent` units from the
/// centre to each edge; y points up on the plane, down on the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub size: f64,
    pub extent: f64,
}

impl Plane {
    /// Pixels per unit.
    pub fn scale(&self) -> f64 {
        self.size / (2.0 * self.extent)
    }

    /// Where `v` is drawn.
    pub fn to_px(&self, v: V2) -> (f64, f64) {
        let c = self.size / 2.0;
        (c + v.x * self.scale(), c - v.y * self.scale())
    }

    /// The point under pixel `(px, py)`, on a 0.1 grid, inside the plane.
    pub fn from_px(&self, px: f64, py: f64) -> V2 {
        let c = self.size / 2.0;
        let snap = |v: f64| ((v * 10.0).round() / 10.0).clamp(-self.extent, self.extent);
        V2::new(snap((px - c) / self.scale()), snap((c - py) / self.scale()))
    }
}

/// `v` moved by one keyboard step (0.1, or 0.5 with `big`) in direction
/// (`dx`, `dy`), kept inside `extent` and on the 0.1 grid.
pub fn nudge(v: V2, dx: i32, dy: i32, big: bool, extent: f64) -> V2 {
    let step = if big { 0.5 } else { 0.1 };
    let snap = |v: f64| ((v * 10.0).round() / 10.0).clamp(-extent, extent);
    V2::new(snap(v.x + dx as f64 * step), snap(v.y + dy as f64 * step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn the_dot_product_is_length_times_length_times_cos() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let q = V2::new(rng.normal() * 3.0, rng.normal() * 3.0);
            let k = V2::new(rng.normal() * 3.0, rng.normal() * 3.0);
            let lhs = q.dot(k);
            let rhs = q.norm() * k.norm() * q.angle_deg(k).to_radians().cos();
            assert!(
                (lhs - rhs).abs() <= 1e-9 * (1.0 + q.norm() * k.norm()),
                "{lhs} vs {rhs}"
            );
        }
        // Same direction: θ = 0; opposite: 180; perpendicular: 90.
        let q = V2::new(2.0, 1.0);
        assert!(q.angle_deg(V2::new(4.0, 2.0)).abs() < 1e-6);
        assert!((q.angle_deg(V2::new(-2.0, -1.0)) - 180.0).abs() < 1e-6);
        assert!((q.angle_deg(V2::new(-1.0, 2.0)) - 90.0).abs() < 1e-9);
        assert_eq!(q.cos(V2::new(0.0, 0.0)), 0.0);
    }

    #[test]
    fn at_the_start_the_long_key_at_an_angle_wins() {
        let (q, keys) = start();
        assert_eq!(q.dot(keys[0]), 2.5);
        assert_eq!(q.dot(keys[1]), 4.0);
        assert_eq!(q.dot(keys[2]), -5.0);
        assert!(q.cos(keys[0]) > q.cos(keys[1]), "k¹ points the same way");
        let w = weights(q, &keys);
        assert!(w[1] > w[0] && w[0] > w[2]);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn pixels_and_the_plane_agree() {
        let p = Plane {
            size: 300.0,
            extent: 3.5,
        };
        for v in [V2::new(0.0, 0.0), V2::new(1.5, -2.0), V2::new(-3.5, 3.5)] {
            let (x, y) = p.to_px(v);
            assert_eq!(p.from_px(x, y), v);
        }
        assert_eq!(p.to_px(V2::new(0.0, 1.0)).1, 150.0 - p.scale());
        // Outside the square: kept on its edge.
        assert_eq!(p.from_px(-50.0, 400.0), V2::new(-3.5, -3.5));
        assert_eq!(
            nudge(V2::new(3.45, 0.0), 1, 0, true, 3.5),
            V2::new(3.5, 0.0)
        );
        assert_eq!(
            nudge(V2::new(1.0, 1.0), 0, -1, false, 3.5),
            V2::new(1.0, 0.9)
        );
    }
}
