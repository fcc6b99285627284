//! Benchmark in Chromium (not part of the test run): the full trace (with
//! W_O) in WebAssembly at the three sizes benches/trace.rs times natively,
//! with the same labels, the main one (n = 64, d_model = 64, 8 heads) first.
//! Run by scripts/bench.sh as
//! `cargo test --release --target wasm32-unknown-unknown --test bench_web`.
#![cfg(target_arch = "wasm32")]

use attention_lab::attention::compute;
use attention_lab::lesson::presets::{random, Dims, BENCH_DIMS};
use std::hint::black_box;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

/// Label, shape, traces per sample (as in benches/trace.rs).
const SIZES: [(&str, Dims, usize); 3] = [
    ("n=64, d_model=64, h=8, d_k=d_v=8, W_O", BENCH_DIMS, 10),
    (
        "n=8, d_model=8, h=2, d_k=d_v=4, W_O",
        Dims {
            n: 8,
            d_model: 8,
            d_k: 4,
            d_v: 4,
            heads: 2,
        },
        1000,
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
        5,
    ),
];

#[wasm_bindgen_test]
fn full_trace_in_wasm() {
    for (label, dims, batch) in SIZES {
        let scenario = random(2024, dims, true);
        // Warm-up: V8 first runs wasm from its baseline compiler (Liftoff)
        // and moves hot functions to its optimizing one (TurboFan) in the
        // background; samples taken before that are slower (after 10 traces
        // of warm-up the first samples were, by up to 2×). Run for 200 ms.
        let start = now_ms();
        while now_ms() - start < 200.0 {
            for _ in 0..batch {
                black_box(compute(black_box(&scenario)).unwrap());
            }
        }
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
            "BENCH wasm full trace ({label}): median {median:.4} ms per trace (min {:.4}, max {:.4})",
            samples[0],
            samples[samples.len() - 1]
        );
        assert!(median.is_finite() && median > 0.0);
    }
}
