//! Native benchmark: the full trace at n = 64, d_model = 64, 8 heads (with
//! W_O), and at note 000's 8 heads × 64 = 512 with 64 tokens. Prints the
//! median time per trace. The first is timed in Chromium by
//! `tests/bench_web.rs` too (scripts/bench.sh runs both).

/// In WebAssembly the twin is tests/bench_web.rs.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use attention_lab::lesson::presets::{random, Dims, BENCH_DIMS, WIDE_DIMS};

    time(
        "n=64, d_model=64, h=8, d_k=d_v=8, W_O",
        &random(2024, BENCH_DIMS, true),
        20,
    );
    time(
        "n=64, d_model=512, h=8, d_k=d_v=64, W_O 512×512",
        &random(2024, Dims { n: 64, ..WIDE_DIMS }, true),
        1,
    );
}

/// Prints the median time of `compute(scenario)` over 30 samples of `batch`
/// traces each (batches keep a sample well above the clock's resolution).
#[cfg(not(target_arch = "wasm32"))]
fn time(label: &str, scenario: &attention_lab::attention::Scenario, batch: usize) {
    use attention_lab::attention::compute;
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
        "native full trace ({label}): median {median:.3} ms per trace (min {:.3}, max {:.3}, {} samples of {batch})",
        samples[0],
        samples[samples.len() - 1],
        samples.len()
    );
}
