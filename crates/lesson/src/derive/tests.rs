//! Tests of `derive`, beside it so that the module itself reads as one job.

use super::*;
use crate::mathml::check::{plain, well_formed};
use crate::names::MatrixName;
use crate::presets::{notes_004, random, Dims};
use crate::random::Rng;
use attention::{compute, Mask};

const CONVS: [Convention; 2] = [Convention::Row, Convention::Col];

/// Every cell of every kind of the trace.
fn all_cells(trace: &Trace) -> Vec<CellRef> {
    let n = trace.n();
    let mut cells = Vec::new();
    for head in 0..trace.heads.len() {
        for i in 0..n {
            for j in 0..n {
                cells.push(CellRef::Scores { head, i, j });
                cells.push(CellRef::Scaled { head, i, j });
                cells.push(CellRef::Weights { head, i, j });
            }
            for c in 0..trace.heads[head].output.ncols() {
                cells.push(CellRef::HeadOutput { head, i, c });
            }
        }
    }
    for i in 0..trace.n() {
        for c in 0..trace.output.ncols() {
            cells.push(CellRef::Output { i, c });
        }
    }
    cells
}

fn trace_value(trace: &Trace, cell: CellRef) -> f64 {
    match cell {
        CellRef::Scores { head, i, j } => trace.heads[head].scores[(i, j)],
        CellRef::Scaled { head, i, j } => trace.heads[head].scaled[(i, j)],
        CellRef::Weights { head, i, j } => trace.heads[head].weights[(i, j)],
        CellRef::HeadOutput { head, i, c } => trace.heads[head].output[(i, c)],
        CellRef::Output { i, c } => trace.output[(i, c)],
    }
}

fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Checks every property of one derivation against the trace.
fn check_cell(s: &Scenario, t: &Trace, cell: CellRef, conv: Convention) {
    let steps = build(s, t, cell, conv).expect("in range");
    let expected = trace_value(t, cell);
    let last = steps.last().unwrap();
    assert!(
        same_bits(last.step.value, expected),
        "{cell:?}: last step {} vs trace {expected}",
        last.step.value
    );
    for b in &steps {
        well_formed(&b.step.math).unwrap_or_else(|e| panic!("{cell:?}: {e}"));
        assert!(b.step.math.starts_with("<math display=\"block\">"));
        if !b.terms.is_empty() {
            // Re-adding the exact terms, in the order shown, gives the
            // step's value bit for bit.
            let sum = left_to_right(&b.terms);
            assert!(
                same_bits(sum, b.step.value),
                "{cell:?} {:?}: terms add to {sum}, step says {}",
                b.step.kind,
                b.step.value
            );
            let text = plain(&b.step.math);
            assert_eq!(text.contains('⋯'), b.terms.len() > 8, "{cell:?}: {text}");
        }
    }
    let kinds: Vec<StepKind> = steps.iter().map(|b| b.step.kind).collect();
    if expected.is_nan() {
        assert_eq!(kinds, [StepKind::Undefined], "{cell:?}");
        return;
    }
    match cell {
        CellRef::Scores { .. } => assert_eq!(kinds, [StepKind::DotProduct]),
        CellRef::Scaled { head, i, j } => {
            assert_eq!(kinds, [StepKind::DotProduct, StepKind::Scale]);
            let h = &t.heads[head];
            let want = if s.scale {
                h.scores[(i, j)] / t.divisor
            } else {
                h.scores[(i, j)]
            };
            assert!(same_bits(steps[1].step.value, want));
        }
        CellRef::Weights { head, i, j } => {
            let h = &t.heads[head];
            assert!(same_bits(steps[0].step.value, h.scores[(i, j)]));
            assert!(same_bits(steps[1].step.value, h.scaled[(i, j)]));
            if t.allowed[(i, j)] {
                assert_eq!(
                    kinds,
                    [
                        StepKind::DotProduct,
                        StepKind::Scale,
                        StepKind::Exp,
                        StepKind::Normaliser,
                        StepKind::Weight
                    ]
                );
                let e = steps[2].step.value;
                let z = steps[3].step.value;
                assert!(same_bits(z, left_to_right(&steps[3].terms)));
                // The stable, shown form reproduces the weight.
                let w = h.weights[(i, j)];
                assert!((e / z - w).abs() <= 1e-15 * w.abs(), "{cell:?}");
                // So does the textbook form exp(s′)/Σ exp(s′) (scores here
                // are small, so nothing overflows).
                let naive_z: f64 = (0..t.n())
                    .filter(|&m| t.allowed[(i, m)])
                    .map(|m| h.scaled[(i, m)].exp())
                    .sum();
                let naive = h.scaled[(i, j)].exp() / naive_z;
                assert!((naive - w).abs() <= 1e-12 * w.abs(), "{cell:?}");
            } else {
                assert_eq!(
                    kinds,
                    [StepKind::DotProduct, StepKind::Scale, StepKind::Mask]
                );
                assert_eq!(steps[2].step.value.to_bits(), 0.0f64.to_bits());
            }
        }
        CellRef::HeadOutput { .. } => assert_eq!(kinds, [StepKind::WeightedSum]),
        CellRef::Output { i, c } => {
            let want = if s.w_o.is_some() {
                StepKind::Projection
            } else {
                StepKind::Copy
            };
            assert_eq!(kinds, [want], "no W_O step without a W_O");
            if s.w_o.is_none() {
                let d_v = t.heads[0].v.ncols();
                let src = t.heads[c / d_v].output[(i, c % d_v)];
                assert!(same_bits(steps[0].step.value, src));
            } else {
                assert_eq!(steps[0].terms.len(), t.concat.ncols());
            }
        }
    }
}

/// A random mask for `n` positions, sometimes hiding every key of a row.
fn some_mask(rng: &mut Rng, n: usize) -> Mask {
    match rng.next_u64() % 6 {
        0 => Mask::None,
        1 => Mask::Causal,
        2 => Mask::Window((rng.next_u64() % 3) as usize),
        3 => Mask::Padding((rng.next_u64() % (n as u64 + 1)) as usize),
        _ => Mask::Custom(
            (0..n)
                .map(|_| (0..n).map(|_| rng.next_u64() % 3 != 0).collect())
                .collect(),
        ),
    }
}

#[test]
fn every_cell_adds_up_exactly_on_random_scenarios() {
    let mut rng = Rng::new(2024);
    let mut undefined_seen = false;
    let mut masked_seen = false;
    for seed in 0..60u64 {
        let dims = Dims {
            n: 1 + (rng.next_u64() % 7) as usize,
            d_model: 1 + (rng.next_u64() % 12) as usize,
            d_k: 1 + (rng.next_u64() % 12) as usize,
            d_v: 1 + (rng.next_u64() % 5) as usize,
            heads: 1 + (rng.next_u64() % 3) as usize,
        };
        let mut s = random(seed, dims, seed % 3 != 0);
        s.scale = seed % 4 != 1;
        s.mask = some_mask(&mut rng, dims.n);
        let t = compute(&s).unwrap();
        undefined_seen |= !t.undefined_rows.is_empty();
        masked_seen |= t.masked;
        for cell in all_cells(&t) {
            for conv in CONVS {
                check_cell(&s, &t, cell, conv);
            }
        }
    }
    assert!(undefined_seen && masked_seen, "the sample covers masks");
}

#[test]
fn long_sums_add_up_exactly_and_are_elided() {
    // n = 64 keys, d_k = 128 products, 4·32 = 128 concat columns.
    let dims = Dims {
        n: 64,
        d_model: 20,
        d_k: 128,
        d_v: 32,
        heads: 4,
    };
    for (seed, w_o) in [(7u64, true), (8, false)] {
        let mut s = random(seed, dims, w_o);
        s.mask = Mask::Window(20);
        let t = compute(&s).unwrap();
        let mut rng = Rng::new(seed);
        let mut pick = |k: usize| (rng.next_u64() % k as u64) as usize;
        for _ in 0..40 {
            let (head, i, j, c) = (pick(4), pick(64), pick(64), pick(32));
            let oc = pick(t.output.ncols());
            for cell in [
                CellRef::Scores { head, i, j },
                CellRef::Scaled { head, i, j },
                CellRef::Weights { head, i, j },
                CellRef::HeadOutput { head, i, c },
                CellRef::Output { i, c: oc },
            ] {
                for conv in CONVS {
                    check_cell(&s, &t, cell, conv);
                }
            }
        }
        let d = derive(
            &s,
            &t,
            CellRef::Scores {
                head: 0,
                i: 0,
                j: 0,
            },
            Convention::Row,
        )
        .unwrap();
        let text = plain(&d.steps[0].math);
        // The Σ bound says how many terms; 6 shown, ⋯, 2 more.
        assert!(text.contains("∑c=1128"), "{text}");
        assert_eq!(text.matches('·').count(), 8, "{text}");
    }
}

#[test]
fn notes_004_first_query_against_second_key() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    let d = derive(
        &s,
        &t,
        CellRef::Scores {
            head: 0,
            i: 0,
            j: 1,
        },
        Convention::Row,
    )
    .unwrap();
    assert_eq!(d.steps.len(), 1);
    assert_eq!(d.steps[0].kind, StepKind::DotProduct);
    assert_eq!(d.value(), 4.0);
    let text = plain(&d.steps[0].math);
    for part in ["1·4", "0·4", "2·0", "α1,2", "1·4+0·4+2·0=4"] {
        assert!(text.contains(part), "{part} missing from {text}");
    }
    assert!(text.ends_with("=4"), "{text}");
    assert!(text.starts_with("S1,2=α1,2=q1(k2)T"), "{text}");

    // The column convention writes (k^j)ᵀ q^i and S_{j,i}.
    let col = derive(
        &s,
        &t,
        CellRef::Scores {
            head: 0,
            i: 0,
            j: 1,
        },
        Convention::Col,
    )
    .unwrap();
    let text = plain(&col.steps[0].math);
    assert!(text.starts_with("S2,1=α1,2=(k2)Tq1"), "{text}");
    assert!(text.contains("4·1+4·0+0·2=4"), "{text}");
}

#[test]
fn notes_004_exact_softmax_and_weighted_sum() {
    // docs/figures.md F5: exact softmax gives 1.9366, not the note's rounded 2.
    let s = notes_004();
    let t = compute(&s).unwrap();
    let w = derive(
        &s,
        &t,
        CellRef::Weights {
            head: 0,
            i: 0,
            j: 1,
        },
        Convention::Row,
    )
    .unwrap();
    let kinds: Vec<StepKind> = w.steps.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            StepKind::DotProduct,
            StepKind::Scale,
            StepKind::Exp,
            StepKind::Normaliser,
            StepKind::Weight
        ]
    );
    // No scaling in note 004: s′ = α.
    assert_eq!(plain(&w.steps[1].math), "S′1,2=s1,2′=α1,2=4");
    assert_eq!(
        plain(&w.steps[2].math),
        "μ1=maxms1,m′=4,exp(s1,2′−μ1)=exp(4−4)=1"
    );
    assert!(plain(&w.steps[3].math).ends_with("=0.1353+1+1=2.1353"));
    assert!(plain(&w.steps[4].math).ends_with("=12.1353=0.4683"));
    let h = derive(
        &s,
        &t,
        CellRef::HeadOutput {
            head: 0,
            i: 0,
            c: 0,
        },
        Convention::Row,
    )
    .unwrap();
    let text = plain(&h.steps[0].math);
    assert!(
        text.ends_with("=0.0634·1+0.4683·2+0.4683·2=1.9366"),
        "{text}"
    );
    let col = derive(
        &s,
        &t,
        CellRef::HeadOutput {
            head: 0,
            i: 0,
            c: 0,
        },
        Convention::Col,
    )
    .unwrap();
    let text = plain(&col.steps[0].math);
    assert!(text.starts_with("b1=∑j=13α1,j′vj,B1,1=b11"), "{text}");
    // Without W_O the output copies the head's column.
    let o = derive(&s, &t, CellRef::Output { i: 0, c: 2 }, Convention::Row).unwrap();
    assert_eq!(plain(&o.steps[0].math), "B1,3=concat1,3=b31=1.5951");
}

#[test]
fn scaling_shows_the_square_root_and_its_value() {
    let mut s = notes_004();
    s.scale = true;
    let t = compute(&s).unwrap();
    let d = derive(
        &s,
        &t,
        CellRef::Scaled {
            head: 0,
            i: 0,
            j: 1,
        },
        Convention::Row,
    )
    .unwrap();
    assert_eq!(
        plain(&d.steps[1].math),
        "S′1,2=s1,2′=α1,2dk=43=41.7321=2.3094"
    );
    assert!(d.steps[1].math.contains("<msqrt><mn>3</mn></msqrt>"));
}

#[test]
fn masked_keys_and_undefined_rows() {
    let mut s = notes_004();
    s.mask = Mask::Custom(vec![
        vec![false, false, false],
        vec![true, false, true],
        vec![true, true, true],
    ]);
    let t = compute(&s).unwrap();
    assert_eq!(t.undefined_rows, [0]);
    for conv in CONVS {
        for cell in [
            CellRef::Weights {
                head: 0,
                i: 0,
                j: 2,
            },
            CellRef::HeadOutput {
                head: 0,
                i: 0,
                c: 1,
            },
            CellRef::Output { i: 0, c: 0 },
        ] {
            let d = derive(&s, &t, cell, conv).unwrap();
            assert_eq!(d.steps.len(), 1, "{cell:?}");
            assert_eq!(d.steps[0].kind, StepKind::Undefined);
            assert!(d.value().is_nan());
            assert!(plain(&d.steps[0].math).contains("=—"));
            assert!(!plain(&d.steps[0].math).contains("NaN"));
        }
        // Scores of an undefined row still exist.
        let sc = derive(
            &s,
            &t,
            CellRef::Scores {
                head: 0,
                i: 0,
                j: 2,
            },
            conv,
        )
        .unwrap();
        assert_eq!(sc.value(), 4.0);
        // A masked key: weight exactly 0, shown as s′ ↦ −∞.
        let m = derive(
            &s,
            &t,
            CellRef::Weights {
                head: 0,
                i: 1,
                j: 1,
            },
            conv,
        )
        .unwrap();
        assert_eq!(m.steps.last().unwrap().kind, StepKind::Mask);
        assert_eq!(m.value(), 0.0);
        assert!(plain(&m.steps[2].math).contains("↦−∞"));
        // The visible keys' normaliser shows the masked one as 0.
        let v = derive(
            &s,
            &t,
            CellRef::Weights {
                head: 0,
                i: 1,
                j: 0,
            },
            conv,
        )
        .unwrap();
        assert!(
            plain(&v.steps[3].math).contains("+0+"),
            "{}",
            v.steps[3].math
        );
    }
}

#[test]
fn several_heads_are_marked_in_the_notation() {
    let dims = Dims {
        n: 3,
        d_model: 4,
        d_k: 2,
        d_v: 2,
        heads: 2,
    };
    let s = random(5, dims, true);
    let t = compute(&s).unwrap();
    let d = derive(
        &s,
        &t,
        CellRef::Scores {
            head: 1,
            i: 0,
            j: 1,
        },
        Convention::Row,
    )
    .unwrap();
    assert!(plain(&d.steps[0].math).contains("=α1,2(2)=q1,2(k2,2)T"));
    let o = derive(&s, &t, CellRef::Output { i: 2, c: 3 }, Convention::Col).unwrap();
    assert!(plain(&o.steps[0].math).starts_with("B4,3=b43=∑m=14W4,mOconcatm,3"));
}

#[test]
fn out_of_range_is_none() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    let conv = Convention::Row;
    for cell in [
        CellRef::Scores {
            head: 1,
            i: 0,
            j: 0,
        },
        CellRef::Scores {
            head: 0,
            i: 3,
            j: 0,
        },
        CellRef::Scaled {
            head: 0,
            i: 0,
            j: 3,
        },
        CellRef::Weights {
            head: 0,
            i: 0,
            j: 9,
        },
        CellRef::HeadOutput {
            head: 0,
            i: 0,
            c: 3,
        },
        CellRef::HeadOutput {
            head: 0,
            i: 3,
            c: 0,
        },
        CellRef::Output { i: 0, c: 3 },
        CellRef::Output { i: 3, c: 0 },
    ] {
        assert_eq!(derive(&s, &t, cell, conv), None, "{cell:?}");
    }
    // A trace that does not belong to the scenario (W_O of the wrong shape).
    let mut other = s.clone();
    other.w_o = Some(attention::Matrix::zeros(2, 2));
    assert_eq!(
        derive(&other, &t, CellRef::Output { i: 0, c: 0 }, conv),
        None
    );
}

#[test]
fn cell_refs_name_their_matrix_and_place() {
    let expected = [
        (MatrixName::Scores, (1, 2)),
        (MatrixName::Scaled, (0, 0)),
        (MatrixName::Weights, (3, 4)),
        (MatrixName::HeadOutput, (5, 6)),
        (MatrixName::Output, (7, 8)),
    ];
    for (cell, (name, place)) in [
        CellRef::Scores {
            head: 0,
            i: 1,
            j: 2,
        },
        CellRef::Scaled {
            head: 1,
            i: 0,
            j: 0,
        },
        CellRef::Weights {
            head: 2,
            i: 3,
            j: 4,
        },
        CellRef::HeadOutput {
            head: 0,
            i: 5,
            c: 6,
        },
        CellRef::Output { i: 7, c: 8 },
    ]
    .into_iter()
    .zip(expected)
    {
        assert_eq!(cell.matrix(), name);
        assert_eq!(cell.row_col(), place);
    }
    assert_eq!(
        CellRef::Weights {
            head: 2,
            i: 3,
            j: 4
        }
        .matrix(),
        crate::names::MatrixName::Weights
    );
    assert_eq!(CellRef::Output { i: 7, c: 8 }.head(), None);
    assert_eq!(
        CellRef::HeadOutput {
            head: 0,
            i: 5,
            c: 6
        }
        .row_col(),
        (5, 6)
    );
}
