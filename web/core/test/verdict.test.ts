// The verdict's rules on synthetic documents of known answer: a device with hardware AES, one
// without, a noisy run, and a run without Web Crypto.
import { describe, expect, it } from 'vitest';
import { KiB, MiB } from '../tables/algorithms.ts';
import { toCaseResult } from '../run/document.ts';
import type { CaseResult } from '../schema.ts';
import { CYCLES_PER_ROUND, pairedRatio, workerAwareRatio } from '../stats.ts';
import { VERDICT_MARGIN } from '../report/ratio.ts';
import { ABOUT_THE_SAME, noteShown, verdict } from '../report/verdict.ts';
import { type Model, syntheticRun as run } from './fixtures.ts';

const wasmGcm: Model = { impl: 'rustcrypto-wasm', variant: 'simd128', alg: 'aes-128-gcm', fixedNs: 600, perByteNs: 10 };
const wasmChacha: Model = { impl: 'rustcrypto-wasm', variant: 'simd128', alg: 'chacha20-poly1305', fixedNs: 300, perByteNs: 2.3 };

describe('verdict', () => {
  it('in Node, answers the AES-instructions question from node:crypto’s AES-GCM where Web Crypto was not measured', () => {
    const node: Model = { impl: 'node-crypto', variant: 'default', alg: 'aes-128-gcm', fixedNs: 2_000, perByteNs: 0.5 };
    const v = verdict(run([wasmGcm, wasmChacha, node], { workers: 4 }));
    expect(v.crossover).toMatchObject({ platform: 'node-crypto', algorithm: 'aes-128-gcm' });
    expect(v.hardwareAes.likely).toBe(true);
    expect(v.hardwareAes.why).toMatch(/^node:crypto \(OpenSSL\)’s AES-GCM is \d+\.\d× WASM’s/);
    expect(v.sentences.join(' ')).not.toContain('Web Crypto');
  });

  it('on a device too busy for its A/A check, says so in words and leaves undecided what is narrower than its spread', () => {
    const slower: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 330, perByteNs: 2.53 }; // 10 % behind
    const doc = run([wasmChacha, slower], { jitter: 0.002, workers: 4 });
    const aaCheck = { implementation: 'rustcrypto-wasm', variant: 'simd128', algorithm: 'chacha20-poly1305', operation: 'encrypt', sizeBytes: KiB } as const;
    const quiet = verdict({ ...doc, aaCheck: { ...aaCheck, ratio: 1.0, low: 0.99, high: 1.01, decision: 'same' } });
    const busy = verdict({ ...doc, aaCheck: { ...aaCheck, ratio: 1.02, low: 0.85, high: 1.22, decision: 'unknown' } });
    expect(quiet.fastest.map((f) => f.certainty)).toEqual(['sure', 'sure', 'sure']);
    expect(quiet.sentences.join(' ')).not.toContain('too busy');
    // 10 % apart is inside the A/A's ±22 %: no winner is claimed, and the sentence says why.
    expect(busy.fastest.map((f) => f.certainty)).toEqual(['busy', 'busy', 'busy']);
    expect(busy.claims.filter((c) => c.id.startsWith('fastest/')).every((c) => c.decision === 'unknown' && c.busy! > 0.2)).toBe(true);
    expect(busy.sentences.find((t) => t.startsWith('This device was too busy'))).toMatch(
      /smaller than ±2\d %: ChaCha20-Poly1305 .* at 1 KiB, measured twice side by side, read 1\.020×/,
    );
  });

  it('calls an undecided class too close, not too busy, when the A/A check missed SAME by less than the verdict’s margin', () => {
    // Two contenders 5 % apart: too close to call at ±5 % on any device.
    const near: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 315, perByteNs: 2.415 };
    const doc = run([wasmChacha, near], { jitter: 0.01, workers: 4 });
    const aaCheck = { implementation: 'rustcrypto-wasm', variant: 'simd128', algorithm: 'chacha20-poly1305', operation: 'encrypt', sizeBytes: KiB } as const;
    const slightly = verdict({ ...doc, aaCheck: { ...aaCheck, ratio: 1.01, low: 0.975, high: 1.04, decision: 'unknown' } });
    expect(slightly.fastest.map((f) => f.certainty)).toEqual(['too-close', 'too-close', 'too-close']);
    const very = verdict({ ...doc, aaCheck: { ...aaCheck, ratio: 1.02, low: 0.85, high: 1.22, decision: 'unknown' } });
    expect(very.fastest.map((f) => f.certainty)).toEqual(['busy', 'busy', 'busy']);
  });

  it('a device with hardware AES: Web Crypto wins large messages, overtakes WASM at a stated size, and AES instructions are likely', () => {
    const web: Model = { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm', fixedNs: 25_000, perByteNs: 0.6 };
    // Four workers, as a quick run's claims get: one worker alone decides only large differences.
    const v = verdict(run([wasmGcm, wasmChacha, web], { workers: 4 }));
    expect(v.fastest.map((f) => [f.sizeClass, `${f.winner.implementation}/${f.winner.algorithm}`])).toEqual([
      ['small', 'rustcrypto-wasm/chacha20-poly1305'],
      // 16 KiB: ChaCha 38.0 µs against Web Crypto's 34.8 µs.
      ['medium', 'webcrypto/aes-128-gcm'],
      ['large', 'webcrypto/aes-128-gcm'],
    ]);
    expect(v.fastest.every((f) => f.certainty === 'sure')).toBe(true);
    expect(v.fastest[2]!.margin!.paired).toBe(true);
    // 1 MiB: WASM GCM 10.5 ms vs Web Crypto 0.65 ms; 16 KiB: 164 µs vs 35 µs; 1 KiB: 10.8 µs vs 25.6 µs.
    expect(v.crossover).toMatchObject({ algorithm: 'aes-128-gcm', kind: 'overtakes', atBytes: 16 * KiB, certainty: 'sure' });
    expect(v.hardwareAes.likely).toBe(true);
    expect(v.hardwareAes.why).toContain('AES instructions');
    // The cost model of the large-message winner recovers its fixed and per-byte cost, within
    // the machine's swing (every sample is slowed 0–30 %).
    expect(v.cost!.contender.implementation).toBe('webcrypto');
    expect(v.cost!.fixedUs).toBeGreaterThan(25 * 0.97);
    expect(v.cost!.fixedUs).toBeLessThan(25 * 1.32);
    expect(v.cost!.perByteNs).toBeGreaterThan(0.6 * 0.97);
    expect(v.cost!.perByteNs).toBeLessThan(0.6 * 1.32);
    expect(v.sentences.join(' ')).toContain('Web Crypto overtakes WASM for AES-128-GCM from 16 KiB on');
  });

  it('a device without hardware AES: Web Crypto is barely faster than software, ChaCha wins, and the verdict says no AES instructions', () => {
    const web: Model = { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm', fixedNs: 25_000, perByteNs: 9 };
    const v = verdict(run([wasmGcm, wasmChacha, web]));
    expect(v.fastest.find((f) => f.sizeClass === 'large')!.winner.algorithm).toBe('chacha20-poly1305');
    expect(v.hardwareAes.likely).toBe(false);
    expect(v.hardwareAes.why).toContain('ChaCha20-Poly1305 is the safer choice');
    expect(v.hardwareAes.ratio!.value).toBeCloseTo(10.5 / 9.4, 1);
  });

  it('a noisy run does not name a winner it cannot tell apart', () => {
    const twin: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 310 };
    const v = verdict(run([wasmChacha, twin], { jitter: 0.4, independent: true }));
    for (const f of v.fastest) expect(f.certainty).not.toBe('sure');
    expect(v.fastest.some((f) => f.certainty === 'noisy')).toBe(true);
    expect(v.sentences[0]).toMatch(/too noisy to be sure|too close to call/);
  });

  it(`calls two contenders within ±${VERDICT_MARGIN * 100} % a tie, not a winner, once enough workers agree`, () => {
    // The same ChaCha twice under two names, 1 % apart, sampled side by side with little noise.
    const twin: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 303, perByteNs: 2.323 };
    const v = verdict(run([wasmChacha, twin], { jitter: 0.002, workers: 4 }));
    expect(v.fastest.map((f) => f.certainty)).toEqual(['tie', 'tie', 'tie']);
    expect(v.sentences[0]).toMatch(/^Tie for small messages \(≤ 1 KiB\): /);
  });

  it('a tie for the fastest names everyone tied with the winner, in an order no ranking moves; one still undecided against it leaves the claim undecided', () => {
    // Three contenders within 1 % of one another: whichever ranks first, the claim is the same three.
    const x: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 303, perByteNs: 2.323 };
    const ascon: Model = { ...wasmChacha, alg: 'ascon-aead128', fixedNs: 301, perByteNs: 2.312 };
    const claimOf = (v: ReturnType<typeof verdict>) => v.claims.find((c) => c.id === 'fastest/large')!;
    const a = verdict(run([wasmChacha, x, ascon], { jitter: 0.002, workers: 4 }));
    const b = verdict(run([{ ...wasmChacha, fixedNs: 306, perByteNs: 2.34 }, x, ascon], { jitter: 0.002, workers: 4 }));
    expect(a.fastest.find((f) => f.sizeClass === 'large')!.winner.algorithm).not.toBe(b.fastest.find((f) => f.sizeClass === 'large')!.winner.algorithm);
    for (const v of [a, b]) {
      expect(claimOf(v).decision).toBe('same');
      expect(claimOf(v).answer.split(' = ')).toHaveLength(3);
      expect(v.sentences.find((t) => t.startsWith('Tie for large'))).toMatch(/: [^,]+, [^,]+ and [^,]+, within ±5 %/);
    }
    expect(claimOf(a).answer).toBe(claimOf(b).answer);
    // The sentence lists them in the claim's order, and the cost names the same member, whichever ranked first.
    const members = (v: ReturnType<typeof verdict>) => /: (.+), within ±5 % of one another/.exec(v.sentences.find((t) => t.startsWith('Tie for large'))!)![1];
    expect(members(a)).toBe(members(b));
    expect(members(a)!.replace(' and ', ', ').split(', ')).toEqual(claimOf(a).answer.split(' = '));
    expect(a.cost!.contender.label).toBe(b.cost!.contender.label);
    expect(a.cost!.contender.label).toBe(claimOf(a).answer.split(' = ')[0]);
    // The third 5 % behind, on the margin's edge: not shown slower, not shown equal.
    const edge = verdict(run([wasmChacha, x, { ...ascon, fixedNs: 315, perByteNs: 2.415 }], { jitter: 0.002, workers: 4 }));
    const f = edge.fastest.find((g) => g.sizeClass === 'large')!;
    expect(f.alsoLeading.map((g) => g.algorithm)).toEqual(['ascon-aead128']);
    expect(claimOf(edge)).toMatchObject({ decision: 'unknown', answer: 'undecided' });
    // A visitor reads the same group as for the tie (headline.ts): nothing resolved, none far apart.
    expect(claimOf(edge).leading).toEqual(claimOf(a).answer.split(' = '));
    expect(claimOf(a).leading).toEqual(claimOf(a).answer.split(' = '));
    // The stop rule is pointed at the undecided pair.
    expect(claimOf(edge).cases.some((k) => k.includes('ascon-aead128'))).toBe(true);
    // Its interval excludes 1 but reaches inside the margin: it is behind, and the sentence says why that is no difference.
    expect(edge.sentences.find((t) => t.startsWith('Fastest for large'))).toMatch(/is behind, but perhaps by less than the ±5 % that counts as a difference/);
  });

  it(`gives a visitor no group to pick from when an undecided pair may lie more than ${ABOUT_THE_SAME * 100} % apart`, () => {
    // Independent noise of ±120 %: 4 % apart, not told apart, and the interval far wider than the band.
    const twin: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 312, perByteNs: 2.39 };
    const v = verdict(run([wasmChacha, twin], { jitter: 0.4, independent: true, workers: 4 }));
    const large = v.claims.find((c) => c.id === 'fastest/large')!;
    expect(large.decision).toBe('unknown');
    const f = v.fastest.find((g) => g.sizeClass === 'large')!;
    expect(f.margin!.high - f.margin!.low).toBeGreaterThan(2 * ABOUT_THE_SAME);
    expect(large.leading).toBeUndefined();
    // A decided one names its winner alone.
    const sure = verdict(run([wasmGcm, wasmChacha])).claims.find((c) => c.id === 'fastest/large')!;
    expect(sure).toMatchObject({ decision: 'different', leading: [sure.answer] });
  });

  it(`reads to a visitor every contender within ${ABOUT_THE_SAME * 100} % of the winner as about the same, shown slower or not, and none further`, () => {
    // 10 % behind (resolved slower by the ±5 % rule) and 25 % behind, sampled side by side with little noise.
    const near: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 330, perByteNs: 2.53 };
    const far: Model = { ...wasmChacha, alg: 'ascon-aead128', fixedNs: 375, perByteNs: 2.875 };
    const v = verdict(run([wasmChacha, near, far], { jitter: 0.002, workers: 4 }));
    const large = v.claims.find((c) => c.id === 'fastest/large')!;
    expect(large.decision).toBe('different');
    expect(large.leading).toEqual(['ChaCha20-Poly1305 in RustCrypto → WASM (simd128)', 'XChaCha20-Poly1305 in RustCrypto → WASM (simd128)']);
  });

  it('one worker decides a large difference but never a small one or a tie: its own level may be a few per cent off', () => {
    const twin: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 303, perByteNs: 2.323 };
    const close = verdict(run([wasmChacha, twin], { jitter: 0.002 }));
    const undecided = (c: string) => c === 'too-close' || c === 'noisy';
    expect(close.fastest.map((f) => f.certainty).every(undecided)).toBe(true);
    // 10 % apart: decided with four workers, not with one.
    const slower: Model = { ...wasmChacha, alg: 'xchacha20-poly1305', fixedNs: 330, perByteNs: 2.53 };
    expect(
      verdict(run([wasmChacha, slower], { jitter: 0.002 }))
        .fastest.map((f) => f.certainty)
        .every(undecided),
    ).toBe(true);
    expect(verdict(run([wasmChacha, slower], { jitter: 0.002, workers: 4 })).fastest.map((f) => f.certainty)).toEqual(['sure', 'sure', 'sure']);
    // 4× apart (GCM against ChaCha in WASM): one worker is enough.
    expect(verdict(run([wasmGcm, wasmChacha])).fastest.map((f) => f.certainty)).toEqual(['sure', 'sure', 'sure']);
  });

  it('workers that disagree widen the interval beyond what one worker would show', () => {
    // Two cases 8 % apart in every worker but the last two, where the order flips.
    const a = { samples: [] as number[], cycles: [] as number[] };
    const b = { samples: [] as number[], cycles: [] as number[] };
    for (let w = 0; w < 6; w++)
      for (let i = 0; i < 12; i++) {
        a.cycles.push(w * CYCLES_PER_ROUND + i);
        b.cycles.push(w * CYCLES_PER_ROUND + i);
        a.samples.push(100 * (1 + 0.001 * (i % 3)));
        b.samples.push((w < 4 ? 108 : 92) * (1 + 0.001 * (i % 2)));
      }
    const r = workerAwareRatio(b, a)!;
    expect(r.workers).toBe(6);
    expect(r.ciLow).toBeLessThan(1);
    expect(r.ciHigh).toBeGreaterThan(1.05);
    expect(pairedRatio(b, a)!.ciLow).toBeGreaterThan(1.05); // pooled, every sample as if independent
  });

  it("names the statistic and size of the winner's figure, a figure of the table's own row", () => {
    const v = verdict(run([wasmGcm, wasmChacha]));
    const small = v.fastest.find((f) => f.sizeClass === 'small')!;
    const row = run([wasmGcm, wasmChacha]).cases.find((c) => c.algorithm === 'chacha20-poly1305' && c.sizeBytes === 64)!;
    expect(small.winner.mbps).toBeCloseTo(row.bytesPerSecond / 1e6, 9);
    expect(v.sentences[0]).toContain(`${small.winner.mbps.toFixed(0)} MB/s (median) at 64 B`);
  });

  it('makes no hardware-AES call from small messages only', () => {
    const web: Model = { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm', fixedNs: 4000, perByteNs: 0.6 };
    const small = run([wasmGcm, web]);
    const v = verdict({ cases: small.cases.filter((c) => c.sizeBytes <= KiB) });
    expect(v.hardwareAes.likely).toBeNull();
    expect(v.hardwareAes.why).toContain('Not enough evidence about AES instructions: the largest size measured is 1 KiB');
    // A claim that decides nothing, and that no more samples of these cases would settle.
    expect(v.claims.find((c) => c.id === 'hardware-aes')).toEqual({ id: 'hardware-aes', decision: 'unknown', answer: 'not enough evidence', cases: [] });
  });

  it('live, it makes no statement that rests on a size not measured yet: "measuring…" until that size is in', () => {
    const web: Model = { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm', fixedNs: 25_000, perByteNs: 0.6 };
    const full = run([wasmGcm, wasmChacha, web], { workers: 4 });
    // The first groups are in, 1 MiB is not: from 64 B–16 KiB alone the hardware-AES call would
    // say "not enough evidence", and the large class would have no winner yet.
    const sofar = { cases: full.cases.filter((c) => c.sizeBytes < MiB), awaiting: [MiB] };
    const live = verdict(sofar, { live: true });
    expect(live.sentences).toContain('Fastest for large messages (≥ 1 MiB): measuring…');
    expect(live.sentences).toContain('Where Web Crypto overtakes WASM for AES-128-GCM: measuring…');
    expect(live.sentences).toContain('AES instructions: measuring…');
    expect(live.sentences.some((x) => x.startsWith('Fastest for small messages (≤ 1 KiB): ChaCha20-Poly1305'))).toBe(true);
    expect(live.sentences.join(' ')).not.toContain('Not enough evidence');
    expect(Object.fromEntries(live.claims.map((c) => [c.id, c.answer]))).toMatchObject({
      'fastest/large': 'measuring',
      crossover: 'measuring',
      'hardware-aes': 'measuring',
    });
    expect(live.claims.find((c) => c.id === 'fastest/small')!.decision).toBe('different');
    // Once every size is in, the same live view decides them, as the final verdict does.
    const done = verdict({ cases: full.cases, awaiting: [] }, { live: true });
    expect(done.claims).toEqual(verdict(full).claims);
    // The finished document's verdict never reads `awaiting`.
    expect(verdict(sofar).sentences.join(' ')).toContain('Not enough evidence about AES instructions');
  });

  it('records each claim as first shown resolved, and a later other answer as its reversal', () => {
    const claim = (id: string, decision: 'same' | 'different' | 'unknown', answer: string) => ({ id, decision, answer, cases: [] });
    let shown = noteShown([], [claim('fastest/small', 'unknown', 'measuring'), claim('crossover', 'different', 'aes-128-gcm overtakes at 16 KiB')]);
    // Undecided claims are not shown resolved, so nothing of them is recorded yet.
    expect(shown).toEqual([{ id: 'crossover', answer: 'aes-128-gcm overtakes at 16 KiB', reversedTo: null }]);
    shown = noteShown(shown, [claim('fastest/small', 'different', 'ChaCha20-Poly1305'), claim('crossover', 'different', 'aes-128-gcm overtakes at 16 KiB')]);
    expect(shown.every((c) => c.reversedTo === null)).toBe(true);
    shown = noteShown(shown, [claim('fastest/small', 'unknown', 'undecided'), claim('crossover', 'different', 'aes-128-gcm overtakes at 1 KiB')]);
    expect(shown).toEqual([
      { id: 'crossover', answer: 'aes-128-gcm overtakes at 16 KiB', reversedTo: 'aes-128-gcm overtakes at 1 KiB' },
      { id: 'fastest/small', answer: 'ChaCha20-Poly1305', reversedTo: 'undecided' },
    ]);
    // The first reversal is what is kept.
    expect(noteShown(shown, [claim('fastest/small', 'different', 'AES-128-GCM')]).find((c) => c.id === 'fastest/small')!.reversedTo).toBe('undecided');
    // When a claim was first shown (ms after Start) is kept too, and not moved by later views.
    let timed = noteShown([], [claim('crossover', 'different', 'x')], 2400.4);
    timed = noteShown(timed, [claim('crossover', 'different', 'x'), claim('fastest/small', 'same', 'a tie')], 7100);
    expect(timed.map((c) => [c.id, c.atMs])).toEqual([
      ['crossover', 2400],
      ['fastest/small', 7100],
    ]);
  });

  it('a run without Web Crypto says it cannot tell about AES instructions, and names no crossover', () => {
    const v = verdict(run([wasmGcm, wasmChacha]));
    expect(v.crossover).toBeNull();
    expect(v.hardwareAes).toMatchObject({ likely: null, ratio: null });
    expect(v.hardwareAes.why).toContain('was measured beside WASM’s, so this run cannot tell');
    expect(v.fastest).toHaveLength(3);
  });

  it('reads one operation and one AAD size, and ignores Web Crypto pipelined (a concurrency figure)', () => {
    const web: Model = { impl: 'webcrypto', variant: 'pipelined', alg: 'aes-128-gcm', fixedNs: 100, perByteNs: 0.1 };
    const doc = run([wasmGcm, wasmChacha, web]);
    // Cases that would win every class if they were read: a decrypt, and an encrypt with AAD.
    const fast = run([{ ...wasmGcm, fixedNs: 1, perByteNs: 0.01 }]).cases;
    doc.cases.push(...fast.map((c) => ({ ...c, operation: 'decrypt' as const })), ...fast.map((c) => ({ ...c, aadBytes: 64 })));
    const v = verdict(doc);
    expect(v.operation).toBe('encrypt');
    expect(v.fastest.map((f) => f.winner.algorithm)).toEqual(['chacha20-poly1305', 'chacha20-poly1305', 'chacha20-poly1305']);
    expect(v.fastest.every((f) => f.winner.implementation !== 'webcrypto')).toBe(true);
  });
});

describe('implementation classes', () => {
  it('name hardware, constant-time and table-based code as the implementations are built', async () => {
    const { implementationClass, IMPLEMENTATIONS } = await import('../tables/algorithms.ts');
    expect(implementationClass('webcrypto', 'aes-128-gcm')).toBe('hardware');
    expect(implementationClass('node-crypto', 'aes-128-ocb3')).toBe('hardware');
    expect(implementationClass('webcrypto', 'chacha20-poly1305')).toBe('constant-time');
    expect(implementationClass('rustcrypto-wasm', 'aes-128-gcm')).toBe('constant-time');
    expect(implementationClass('rustcrypto-wasm', 'twofish-128-gcm')).toBe('table');
    expect(implementationClass('noble', 'aes-256-gcm-siv')).toBe('table');
    expect(implementationClass('noble', 'xchacha20-poly1305')).toBe('constant-time');
    expect(implementationClass('libsodium', 'aegis-128l-tag256')).toBe('table');
    expect(implementationClass('libaegis-wasm', 'aegis-256')).toBe('constant-time');
    // Every implementation × algorithm it offers has a class.
    for (const i of IMPLEMENTATIONS) for (const a of i.algorithms) expect(['hardware', 'constant-time', 'table']).toContain(implementationClass(i.id, a));
  });

  it('travel in the CSV export', async () => {
    const { toCsv } = await import('../report/csv.ts');
    const { sampleDocument } = await import('./fixtures.ts');
    const [header, row] = toCsv(sampleDocument() as never).split('\n');
    const at = header!.split(',').indexOf('implementationClass');
    expect(at).toBeGreaterThan(0);
    expect(row!.split(',')[at]).toBe('constant-time');
  });
});

describe('where this device stands', () => {
  it('picks the headline cases at the largest size up to 1 MiB', async () => {
    const { headlineCases } = await import('../report/verdict.ts');
    const web: Model = { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm', fixedNs: 25_000, perByteNs: 0.6 };
    const picked = headlineCases(run([wasmGcm, wasmChacha, web]));
    expect(picked.map((c) => `${c.implementation}/${c.algorithm}/${c.sizeBytes}`)).toEqual([
      `rustcrypto-wasm/aes-128-gcm/${MiB}`,
      `rustcrypto-wasm/chacha20-poly1305/${MiB}`,
      `webcrypto/aes-128-gcm/${MiB}`,
    ]);
  });

  it('draws a cohort strip on a log scale that always holds this device', async () => {
    const { stripOf } = await import('../report/verdict.ts');
    const s = stripOf({ p05: 10, q1: 20, median: 40, q3: 80, p95: 160 }, 40);
    expect(s.median).toBeCloseTo(0.5, 2); // 40 is the geometric middle of 10 and 160 (the margins differ slightly)
    expect(s.q1).toBeLessThan(s.median);
    expect(s.q3).toBeGreaterThan(s.median);
    const fast = stripOf({ p05: 10, q1: 20, median: 40, q3: 80, p95: 160 }, 1000);
    expect(fast.mine).toBeGreaterThan(0.9);
    expect(fast.mine).toBeLessThanOrEqual(1);
  });
});
