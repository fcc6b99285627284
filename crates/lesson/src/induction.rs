//! What a stack of layers predicts, read off its output (note 000 §3.2):
//! when every input is a token's one-hot vector (column k for the k-th
//! distinct token, in order of first appearance), the first columns of a
//! position's output are a vote for each token. The induction preset
//! ([`crate::presets::induction`]) is built that way: its last `A` votes
//! for `B` only when layer 1 has written each position's previous token.

use crate::edit::{apply, Edit};
use attention::{compute_stack, Matrix, Scenario};

/// The distinct tokens of `s` in order of first appearance, when row i of
/// `x` is exactly the one-hot vector of token i's place in that list
/// (zeros elsewhere); `None` for any other input.
pub fn one_hot_tokens(s: &Scenario) -> Option<Vec<String>> {
    let mut vocab: Vec<String> = Vec::new();
    for (i, t) in s.tokens.iter().enumerate() {
        let k = match vocab.iter().position(|v| v == t) {
            Some(k) => k,
            None => {
                vocab.push(t.clone());
                vocab.len() - 1
            }
        };
        let row = s.x.row(i);
        let one_hot = k < row.len() && row.iter().enumerate().all(|(c, &v)| v == f64::from(c == k));
        if !one_hot {
            return None;
        }
    }
    Some(vocab)
}

/// The last position's vote: each distinct token with its output value,
/// and the index of the largest (the first of equal ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Vote {
    pub votes: Vec<(String, f64)>,
    pub best: usize,
}

impl Vote {
    /// The token voted for.
    pub fn token(&self) -> &str {
        &self.votes[self.best].0
    }
}

/// The last position's vote in `output` (the scenario's output), for a
/// scenario of one-hot tokens whose output is at least as wide as its
/// vocabulary.
pub fn vote(s: &Scenario, output: &Matrix) -> Option<Vote> {
    let vocab = one_hot_tokens(s)?;
    let last = output.nrows().checked_sub(1)?;
    if output.ncols() < vocab.len() || vocab.is_empty() {
        return None;
    }
    let votes: Vec<(String, f64)> = vocab
        .into_iter()
        .enumerate()
        .map(|(k, t)| (t, output[(last, k)]))
        .collect();
    let best = (0..votes.len()).fold(0, |b, k| if votes[k].1 > votes[b].1 { k } else { b });
    Some(Vote { votes, best })
}

/// The vote of `s` with layer 1 removed (layer 2 then reads `x`), when `s`
/// has more than one layer and the rest still computes.
pub fn vote_without_first_layer(s: &Scenario) -> Option<Vote> {
    if s.layers() < 2 {
        return None;
    }
    let without = apply(s, &Edit::RemoveLayer(0), 1).ok()?;
    let out = compute_stack(&without).ok()?;
    vote(&without, out.output())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{induction, notes_004};

    #[test]
    fn the_induction_preset_votes_b_and_not_without_layer_1() {
        let s = induction();
        assert_eq!(one_hot_tokens(&s).unwrap(), ["A", "B", "C", "D"]);
        let out = compute_stack(&s).unwrap();
        let v = vote(&s, out.output()).unwrap();
        assert_eq!(v.token(), "B");
        assert!(v.votes[1].1 > 0.9, "{v:?}");
        let without = vote_without_first_layer(&s).unwrap();
        assert_ne!(without.token(), "B", "{without:?}");
        assert!(without.votes[1].1 < 0.5);
        // The vote is the output's last row, column by token.
        for (k, (_, value)) in v.votes.iter().enumerate() {
            assert_eq!(*value, out.output()[(4, k)]);
        }
    }

    #[test]
    fn inputs_that_are_not_one_hot_tokens_have_no_vote() {
        let s = notes_004();
        assert!(one_hot_tokens(&s).is_none());
        let out = compute_stack(&s).unwrap();
        assert!(vote(&s, out.output()).is_none());
        assert!(vote_without_first_layer(&s).is_none());
    }
}
