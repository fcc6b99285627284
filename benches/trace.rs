//! Native benchmark: the full trace (with W_O) at three sizes, then at note
//! 000's 8 heads × 64 = 512 with 64 tokens. Prints the median time per trace,
//! one line per size. The three sizes of [`SIZES`] are timed in Chromium by
//! `tests/bench_web.rs` too, with the same labels (scripts/bench.sh runs both
//! and prints the ratio for each).
//!
//! `cargo bench --bench trace -- TEXT` times only the sizes whose label
//! contains TEXT (for profiling one size).

/// In WebAssembly the twin is tests/bench_web.rs.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use attention_lab::lesson::presets::{random, Dims, WIDE_DIMS};

    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |label: &str| only.is_empty() || only.iter().any(|o| label.contains(o.as_str()));
    for (label, dims, batch) in SIZES {
        if wanted(label) {
            time(label, &random(2024, dims, true), batch);
        }
    }
    let label = "n=64, d_model=512, h=8, d_k=d_v=64, W_O 512×512";
    if wanted(label) {
        time(label, &random(2024, Dims { n: 64, ..WIDE_DIMS }, true), 1);
    }
    // Stacked layers (docs/format.md §1b): four layers like the main size,
    // each with the residual; the cost per layer should stay the one
    // layer's.
    let label = "4 layers × (n=64, d_model=64, h=8, d_k=d_v=8, W_O), residual";
    if wanted(label) {
        use attention_lab::lesson::edit::{apply, Edit};
        use attention_lab::lesson::presets::BENCH_DIMS;
        let mut s = random(2024, BENCH_DIMS, true);
        s.residual = true;
        for l in 1..4 {
            s = apply(&s, &Edit::AddLayer, 2024).unwrap();
            s = apply(&s, &Edit::Residual { layer: l, on: true }, 2024).unwrap();
        }
        let per_trace = time(label, &s, 5);
        println!(
            "native stacked trace: {:.4} ms per layer ({} layers)",
            per_trace / s.layers() as f64,
            s.layers()
        );
    }
}

/// The sizes timed natively and in Chromium: label, shape, traces per sample.
/// The second (n = 64, d_model = 64, 8 heads of 8) is the main one.
#[cfg(not(target_arch = "wasm32"))]
const SIZES: [(&str, attention_lab::lesson::presets::Dims, usize); 3] = {
    use attention_lab::lesson::presets::{Dims, BENCH_DIMS};
    [
        ("n=64, d_model=64, h=8, d_k=d_v=8, W_O", BENCH_DIMS, 20),
        (
            "n=8, d_model=8, h=2, d_k=d_v=4, W_O",
            Dims {
                n: 8,
                d_model: 8,
                d_k: 4,
                d_v: 4,
                heads: 2,
            },
            2000,
        ),
        (
            "n=64, d_model=128, h=8, d_k=d_v=16, W_O",
            Dims {
                n: 64,
                d_model: 128,
                d_k: 16,
                d_v: 16,
                heads: 8,
            },
            10,
        ),
    ]
};

/// Prints (and returns) the median time of `compute_stack(scenario)` (every
/// layer; one layer's is `compute`'s) over 30 samples of `batch` traces
/// each (batches keep a sample well above the clock's resolution).
#[cfg(not(target_arch = "wasm32"))]
fn time(label: &str, scenario: &attention_lab::attention::Scenario, batch: usize) -> f64 {
    use attention_lab::attention::compute_stack as compute;
    use std::hint::black_box;
    use std::time::Instant;

    for _ in 0..batch.max(3) {
        black_box(compute(black_box(scenario)).unwrap());
    }
    let mut samples: Vec<f64> = (0..30)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                black_box(compute(black_box(scenario)).unwrap());
            }
            t.elapsed().as_secs_f64() * 1000.0 / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    println!(
        "native full trace ({label}): median {median:.4} ms per trace (min {:.4}, max {:.4}, {} samples of {batch})",
        samples[0],
        samples[samples.len() - 1],
        samples.len()
    );
    median
}
