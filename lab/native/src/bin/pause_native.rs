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
//! JSON line of arrays in the pauses' order: each pause's ratios (back to back over paused, a
//! rate), one a rotation; how long its pauses lasted on the clock; and how many of its own batches
//! ran after each (means per turn, ms and batches).

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

/// A pause as `sleep10`, `spin10` or `sleep50+8` spells it: how the thread stops, for how long,
/// and how long its own batches then run untimed (ms).
struct Pause {
    sleeps: bool,
    stop: Duration,
    own_ms: f64,
}

impl Pause {
    fn parse(spelled: &str) -> Self {
        fn bad<T>(spelled: &str) -> T {
            panic!("a pause is sleepMS or spinMS, with +MS or not, not {spelled}")
        }
        let (stop, own) = spelled.split_once('+').unwrap_or((spelled, "0"));
        let (sleeps, ms) = match (stop.strip_prefix("sleep"), stop.strip_prefix("spin")) {
            (Some(ms), _) => (true, ms),
            (_, Some(ms)) => (false, ms),
            _ => bad(spelled),
        };
        let ms: f64 = ms.parse().unwrap_or_else(|_| bad(spelled));
        Self {
            sleeps,
            stop: Duration::from_secs_f64(ms / 1e3),
            own_ms: own.parse().unwrap_or_else(|_| bad(spelled)),
        }
    }

    fn stop(&self) {
        if self.sleeps {
            std::thread::sleep(self.stop);
        } else {
            let t = Instant::now();
            while t.elapsed() < self.stop {
                std::hint::spin_loop();
            }
        }
    }
}

/// `[a,b,…]` with `digits` decimals.
fn json(xs: &[f64], digits: usize) -> String {
    let xs: Vec<String> = xs.iter().map(|x| format!("{x:.digits$}")).collect();
    format!("[{}]", xs.join(","))
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
    let pauses: Vec<Pause> = args[4..].iter().map(|p| Pause::parse(p)).collect();
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
    // Summed over every stretch of each pause: the time its pauses lasted, and its own batches after them.
    let mut paused_ms = vec![0.0; pauses.len()];
    let mut own_batches = vec![0.0; pauses.len()];
    let mut stretch = |walk: &mut Walk, pause: Option<usize>| -> f64 {
        (0..turns)
            .map(|_| {
                if let Some(i) = pause {
                    let t = Instant::now();
                    pauses[i].stop();
                    paused_ms[i] += t.elapsed().as_secs_f64() * 1e3;
                    // Its own batches, untimed, as the engine's turn of its own.
                    let t = Instant::now();
                    while t.elapsed().as_secs_f64() * 1e3 < pauses[i].own_ms {
                        timed(walk, n);
                        own_batches[i] += 1.0;
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
    let per_turn = |xs: &[f64]| xs.iter().map(|x| x / each).collect::<Vec<_>>();
    let ratios: Vec<String> = ratios.iter().map(|rs| json(rs, 4)).collect();
    println!(
        r#"{{"ratios":[{}],"pausedMs":{},"ownBatches":{}}}"#,
        ratios.join(","),
        json(&per_turn(&paused_ms), 3),
        json(&per_turn(&own_batches), 2)
    );
}
