//! Native benchmark: the full trace at n = 64, d_model = 64, 8 heads (with
//! W_O). Prints the median time per trace. The same work is timed in
//! Chromium by `tests/bench_web.rs` (scripts/bench.sh runs both).

/// In WebAssembly the twin is tests/bench_web.rs.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use attention_lab::attention::compute;
    use attention_lab::lesson::presets::{random, BENCH_DIMS};
    use std::hint::black_box;
    use std::time::Instant;

    let scenario = random(2024, BENCH_DIMS, true);
    // Warm up, then time batches so that each sample is well above the
    // clock's resolution.
    for _ in 0..20 {
        black_box(compute(black_box(&scenario)).unwrap());
    }
    let batch = 20;
    let mut samples: Vec<f64> = (0..30)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                black_box(compute(black_box(&scenario)).unwrap());
            }
            t.elapsed().as_secs_f64() * 1000.0 / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    println!(
        "native full trace (n=64, d_model=64, h=8, d_k=d_v=8, W_O): median {median:.3} ms per trace (min {:.3}, max {:.3}, {} samples of {batch})",
        samples[0],
        samples[samples.len() - 1],
        samples.len()
    );
}
