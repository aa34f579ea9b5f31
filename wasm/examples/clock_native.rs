//! The clock estimate's dependency chain (`bench::clock_chain`) compiled for the host, so a test
//! can hold the WASM estimate against the same chain run natively on the same core at the same
//! moment, instead of against a clock the host merely reports (a VM reports its nominal clock;
//! a busy core runs at boost, anywhere up to 1.6× that).
//!
//! `clock_native SAMPLE_MS SAMPLES` prints one JSON line: the GHz of each sample.

use std::hint::black_box;
use std::time::Instant;

use aeadbench_cores::bench::{CLOCK_CHAIN_OPS, clock_chain};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sample_ms: f64 = args.first().map_or(20.0, |a| a.parse().expect("SAMPLE_MS"));
    let samples: usize = args.get(1).map_or(7, |a| a.parse().expect("SAMPLES"));
    // Calibrate (doubles as warm-up): grow the batch until it lasts a quarter sample.
    let mut iterations: u32 = 1 << 10;
    loop {
        let t = Instant::now();
        black_box(clock_chain(iterations, 3));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if ms >= sample_ms / 4.0 {
            iterations = ((iterations as f64) * sample_ms / ms).ceil().max(1.0) as u32;
            break;
        }
        iterations = iterations.saturating_mul(2);
    }
    let ghz: Vec<String> = (0..samples)
        .map(|i| {
            let t = Instant::now();
            black_box(clock_chain(iterations, 5 + i as u32));
            let ns = t.elapsed().as_secs_f64() * 1e9;
            format!(
                "{:.4}",
                f64::from(iterations) * f64::from(CLOCK_CHAIN_OPS) / ns
            )
        })
        .collect();
    println!(r#"{{"ghz":[{}]}}"#, ghz.join(","));
}
