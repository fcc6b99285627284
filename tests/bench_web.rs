//! Benchmark in Chromium (not part of the test run): the full trace at
//! n = 64, d_model = 64, 8 heads, in WebAssembly. Run by scripts/bench.sh as
//! `cargo test --release --target wasm32-unknown-unknown --test bench_web`.
#![cfg(target_arch = "wasm32")]

use attention_lab::attention::compute;
use attention_lab::lesson::presets::{random, BENCH_DIMS};
use std::hint::black_box;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

#[wasm_bindgen_test]
fn full_trace_in_wasm() {
    let scenario = random(2024, BENCH_DIMS, true);
    for _ in 0..10 {
        black_box(compute(black_box(&scenario)).unwrap());
    }
    let batch = 10;
    let mut samples: Vec<f64> = (0..20)
        .map(|_| {
            let t = now_ms();
            for _ in 0..batch {
                black_box(compute(black_box(&scenario)).unwrap());
            }
            (now_ms() - t) / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    console_log!(
        "BENCH wasm full trace (n=64, d_model=64, h=8, d_k=d_v=8, W_O): median {median:.3} ms per trace (min {:.3}, max {:.3})",
        samples[0],
        samples[samples.len() - 1]
    );
    assert!(median.is_finite() && median > 0.0);
}
