//! What a pause of its own thread costs the code after it, in native code: no V8, no other thread
//! of ours. Batches of about `BATCH_MS` of dependent reads at random over a working set of `KIB`,
//! timed back to back and each after a pause (sleeping, or spinning on the clock, for some
//! milliseconds), in stretches of `TURNS` batches; each pause's stretch is held against the
//! stretches back to back on either side of it, `ROTATIONS` times in a rotated order.
//!
//! With `+MS` after a pause (`sleep10+8`), its own batches then run untimed for that long before the
//! timed one, as the engine's turn of its own does (measure.ts SETTLE_MS).
//!
//! `pause_native KIB TURNS ROTATIONS BATCH_MS PAUSE...` (a pause: `sleep10`, `spin10`) prints one
//! JSON line: for each pause, the ratio (back to back over paused, a rate) of every rotation, and
//! how long its pauses lasted on the clock (mean, ms).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// A working set of `words` u32 (a power of two), each the index of another at random.
struct Walk {
    set: Vec<u32>,
    at: u32,
}

impl Walk {
    fn new(words: usize) -> Self {
        // xorshift: any fixed sequence will do, it only has to defeat the prefetchers.
        let mut x: u32 = 0x9e37_79b9;
        let set = (0..words)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            })
            .collect();
        Self { set, at: 0 }
    }

    /// `n` dependent reads: each index comes from the read before it.
    fn reads(&mut self, n: u64) {
        let mask = self.set.len() as u32 - 1;
        let mut at = self.at;
        for i in 0..n {
            at = self.set[((at ^ i as u32) & mask) as usize];
        }
        self.at = black_box(at);
    }
}

/// A pause and, after `+`, how long its own batches then run untimed (ms): `sleep10+8`.
fn parse(kind: &str) -> (&str, f64) {
    match kind.split_once('+') {
        Some((p, settle)) => (p, settle.parse().expect("a settle after + is in ms")),
        None => (kind, 0.0),
    }
}

fn pause(kind: &str) {
    let (how, ms) = kind.split_at(if kind.starts_with("sleep") { 5 } else { 4 });
    let ms: f64 = ms.parse().expect("a pause is sleepMS or spinMS");
    let d = Duration::from_secs_f64(ms / 1e3);
    match how {
        "sleep" => std::thread::sleep(d),
        "spin" => {
            let t = Instant::now();
            while t.elapsed() < d {
                std::hint::spin_loop();
            }
        }
        _ => panic!("a pause is sleepMS or spinMS, not {kind}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, what: &str| -> f64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{what}"))
    };
    let kib = num(0, "KIB") as usize;
    let turns = num(1, "TURNS") as usize;
    let rotations = num(2, "ROTATIONS") as usize;
    let batch_ms = num(3, "BATCH_MS");
    let pauses = &args[4..];
    let mut walk = Walk::new((kib * 1024 / 4).next_power_of_two());
    // Warm up for 300 ms, then size the batch by the fastest of three timings.
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(300) {
        walk.reads(10_000);
    }
    let timed = |walk: &mut Walk, n: u64| {
        let t = Instant::now();
        walk.reads(n);
        t.elapsed().as_secs_f64() * 1e3
    };
    let best = (0..3)
        .map(|_| timed(&mut walk, 100_000))
        .fold(f64::INFINITY, f64::min);
    let n = ((100_000.0 * batch_ms / best) as u64).max(1);
    // The time its pauses lasted, summed over every stretch of each pause.
    let mut paused_ms = vec![0.0; pauses.len()];
    let mut stretch = |walk: &mut Walk, kind: Option<usize>| -> f64 {
        (0..turns)
            .map(|_| {
                if let Some(i) = kind {
                    let (p, settle_ms) = parse(&pauses[i]);
                    let t = Instant::now();
                    pause(p);
                    paused_ms[i] += t.elapsed().as_secs_f64() * 1e3;
                    // Its own batches, untimed, as the engine's turn of its own.
                    let t = Instant::now();
                    while t.elapsed().as_secs_f64() * 1e3 < settle_ms {
                        timed(walk, n);
                    }
                }
                timed(walk, n)
            })
            .sum()
    };
    let mut ratios = vec![Vec::new(); pauses.len()];
    for r in 0..rotations {
        for j in 0..pauses.len() {
            let i = (j + r) % pauses.len();
            let before = stretch(&mut walk, None);
            let paused = stretch(&mut walk, Some(i));
            let after = stretch(&mut walk, None);
            ratios[i].push((before + after) / 2.0 / paused);
        }
    }
    let each = (turns * rotations).max(1) as f64;
    let fields: Vec<String> = pauses
        .iter()
        .zip(&ratios)
        .map(|(p, rs)| {
            format!(
                r#""{p}":[{}]"#,
                rs.iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    let lasted: Vec<String> = pauses
        .iter()
        .zip(&paused_ms)
        .map(|(p, ms)| format!(r#""{p}":{:.3}"#, ms / each))
        .collect();
    println!(
        r#"{{"ratios":{{{}}},"pausedMs":{{{}}}}}"#,
        fields.join(","),
        lasted.join(",")
    );
}
