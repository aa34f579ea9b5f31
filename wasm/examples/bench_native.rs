//! Native counterpart of the in-WASM bench loops, for `npm run bench:cores`: the same
//! `Bench` code compiled for the host, with the backends RUSTFLAGS selected.
//!
//! `bench_native SAMPLE_MS SAMPLES ALG/OP/SIZE...` prints one JSON line per case with the
//! nanoseconds per operation of each sample.
//!
//! `bench_native --messages N ALG/OP/SIZE` runs the case's loop once over N messages, untimed,
//! inside `measured`, for `npm run bench:counts` to count its instructions under callgrind
//! (`--toggle-collect=*measured*`: the setup is left out).

use std::time::Instant;

use aeadbench_cores::Algorithm;
use aeadbench_cores::bench::{Bench, Operation};

/// The loop over `messages` messages, and nothing else: what callgrind counts.
#[inline(never)]
fn measured(bench: &mut Bench, messages: u32) {
    bench.run(messages).unwrap();
}

/// The bench of one case, `ALG/OP/SIZE` (no AAD).
fn bench_of(case: &str) -> Bench {
    let mut parts = case.split('/');
    let (alg, op, size) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let algorithm = Algorithm::from_id(alg).unwrap();
    let operation = Operation::from_id(op).unwrap();
    Bench::new(algorithm, operation, size.parse().unwrap(), 0).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "--messages" {
        let messages: u32 = args[1].parse().expect("N");
        measured(&mut bench_of(&args[2]), messages);
        return;
    }
    let sample_ms: f64 = args[0].parse().expect("SAMPLE_MS");
    let samples: usize = args[1].parse().expect("SAMPLES");
    println!("{}", aeadbench_cores::build_info());
    for case in &args[2..] {
        let mut bench = bench_of(case);
        // Calibrate (doubles as warm-up): grow the batch until it lasts a quarter sample.
        let mut iterations: u32 = 1;
        loop {
            let t = Instant::now();
            bench.run(iterations).unwrap();
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if ms >= sample_ms / 4.0 {
                iterations = ((iterations as f64) * sample_ms / ms).ceil().max(1.0) as u32;
                break;
            }
            iterations = iterations.saturating_mul(2);
        }
        let ns: Vec<String> = (0..samples)
            .map(|_| {
                let t = Instant::now();
                bench.run(iterations).unwrap();
                format!("{:.3}", t.elapsed().as_secs_f64() * 1e9 / iterations as f64)
            })
            .collect();
        println!(r#"{{"case":"{case}","nsPerOp":[{}]}}"#, ns.join(","));
    }
}
