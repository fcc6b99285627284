//! The walkthrough of a stack of layers (note 000 §3.2, docs/format.md
//! §1b): layer 1's steps, then the hand-over (with the residual, its own
//! beat `O_l = X_l + B_l`; then `O_l` becomes the next layer's input
//! `X_{l+1}`), then layer 2's steps on that input, and so on. One number
//! counts every stop, so the step counter, the scrubber and `?step=` see
//! one sequence. Pure, so the player's moves are tested natively.

use crate::edit::layer_weights;
use attention::{Matrix, Positional, Scenario};

/// Layer `l` (0-based) of `s` as a scenario of one layer over its input
/// `input` (X_l, from the stack's trace): its heads and W_O, the
/// scenario's mask and scaling, no positions (they were added once, to
/// `x`). The engine computes layer l of a stack bit for bit as this
/// scenario's one layer, so the stage draws it as it draws any scenario.
/// Layer 0 is `s` itself without the layers after it.
pub fn layer_scenario(s: &Scenario, input: &Matrix, l: usize) -> Scenario {
    let (heads, w_o, _) = layer_weights(s, l).expect("a layer of the scenario");
    let first = l == 0;
    Scenario {
        format: s.format.clone(),
        tokens: s.tokens.clone(),
        x: if first { s.x.clone() } else { input.clone() },
        heads: heads.to_vec(),
        w_o: w_o.cloned(),
        scale: s.scale,
        mask: s.mask.clone(),
        positional: if first {
            s.positional
        } else {
            Positional::None
        },
        residual: false,
        stack: Vec::new(),
    }
}

/// A beat of the hand-over between layer `from` and `from + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Beat {
    /// `O_l = X_l + B_l`: the layer adds its input back (residual on).
    Residual,
    /// `O_l` becomes `X_{l+1}`, what the next layer reads.
    Becomes,
}

/// Where the walkthrough is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// Step `step` (0-based) of layer `layer`'s own timeline.
    Layer { layer: usize, step: usize },
    /// A beat of the hand-over after layer `from` (0-based).
    HandOver { from: usize, beat: Beat },
}

/// The shape of the walk: how many steps each layer's timeline has, and
/// whether each layer adds its input back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    pub steps: Vec<usize>,
    pub residual: Vec<bool>,
}

impl Tour {
    /// The beats after layer `l` (none after the last).
    pub fn beats(&self, l: usize) -> Vec<Beat> {
        if l + 1 >= self.steps.len() {
            return Vec::new();
        }
        if self.residual[l] {
            vec![Beat::Residual, Beat::Becomes]
        } else {
            vec![Beat::Becomes]
        }
    }

    /// Every stop, in order.
    fn stops(&self) -> impl Iterator<Item = Stop> + '_ {
        (0..self.steps.len()).flat_map(move |l| {
            (0..self.steps[l])
                .map(move |step| Stop::Layer { layer: l, step })
                .chain(
                    self.beats(l)
                        .into_iter()
                        .map(move |beat| Stop::HandOver { from: l, beat }),
                )
        })
    }

    /// How many stops in all.
    pub fn total(&self) -> usize {
        self.stops().count()
    }

    /// The stop at `k` (0-based, clamped to the last).
    pub fn stop(&self, k: usize) -> Stop {
        let last = self.total().saturating_sub(1);
        self.stops()
            .nth(k.min(last))
            .unwrap_or(Stop::Layer { layer: 0, step: 0 })
    }

    /// The number of `stop` (its layer's step clamped to that layer).
    pub fn index(&self, stop: Stop) -> usize {
        let stop = match stop {
            Stop::Layer { layer, step } => {
                let layer = layer.min(self.steps.len().saturating_sub(1));
                Stop::Layer {
                    layer,
                    step: step.min(self.steps[layer].saturating_sub(1)),
                }
            }
            other => other,
        };
        self.stops().position(|s| s == stop).unwrap_or(0)
    }

    /// The layer a stop belongs to for the step counter (a hand-over is
    /// counted with the layer it leaves).
    pub fn layer_of(stop: Stop) -> usize {
        match stop {
            Stop::Layer { layer, .. } => layer,
            Stop::HandOver { from, .. } => from,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_of_a_stack_is_the_one_layer_of_its_scenario() {
        let s = crate::presets::induction();
        let stack = attention::compute_stack(&s).unwrap();
        for l in 0..s.layers() {
            let one = layer_scenario(&s, &stack.layers[l].input, l);
            assert_eq!(one.layers(), 1);
            let t = attention::compute(&one).unwrap();
            assert_eq!(t.heads, stack.layers[l].heads, "layer {l}");
            assert_eq!(t.output, stack.layers[l].output, "layer {l}");
        }
    }

    #[test]
    fn one_layer_is_its_own_steps() {
        let t = Tour {
            steps: vec![5],
            residual: vec![true],
        };
        assert_eq!(t.total(), 5);
        assert_eq!(t.stop(3), Stop::Layer { layer: 0, step: 3 });
        assert_eq!(t.stop(99), Stop::Layer { layer: 0, step: 4 });
        assert!(t.beats(0).is_empty(), "no hand-over after the last layer");
    }

    #[test]
    fn layers_are_joined_by_their_hand_over() {
        let t = Tour {
            steps: vec![3, 2, 2],
            residual: vec![true, false, true],
        };
        let all: Vec<Stop> = (0..t.total()).map(|k| t.stop(k)).collect();
        use Stop::*;
        assert_eq!(
            all,
            [
                Layer { layer: 0, step: 0 },
                Layer { layer: 0, step: 1 },
                Layer { layer: 0, step: 2 },
                HandOver {
                    from: 0,
                    beat: Beat::Residual
                },
                HandOver {
                    from: 0,
                    beat: Beat::Becomes
                },
                Layer { layer: 1, step: 0 },
                Layer { layer: 1, step: 1 },
                HandOver {
                    from: 1,
                    beat: Beat::Becomes
                },
                Layer { layer: 2, step: 0 },
                Layer { layer: 2, step: 1 },
            ]
        );
        for (k, s) in all.iter().enumerate() {
            assert_eq!(t.index(*s), k);
        }
        // A step past a layer's end is its last step.
        assert_eq!(t.index(Layer { layer: 1, step: 9 }), 6);
        assert_eq!(Tour::layer_of(all[4]), 0);
    }
}
