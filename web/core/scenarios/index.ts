/**
 * The paper scenarios: each re-runs one source study's experiment with this project's method
 * (its preset in algorithms.ts) and lays the published figures beside the measured ones, with
 * an honest account of what carries over from the study's machine to a browser.
 * Figures come from reference.json (transcribed from the studies; source named there).
 * @module
 */
import codeSize from '../wasm/code-size.js';
import { type AlgorithmId, DOC_FILE_SIZES, DOC_LARGE_SIZES, type ImplementationId, type ImplementationRef, overheadBytes } from '../tables/algorithms.ts';
import { formatSize } from '../params.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { ratioOf } from '../report/ratio.ts';
import { mean, sd, trimmedMean } from '../stats.ts';
import { type CostModel, crossoverBytes, fitCostModel } from '../report/costmodel.ts';
import { type Study, studyFigures } from './reference.ts';

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  note?: string;
}

/** A study as its text identifies it; missing fields are missing from the text. */
export interface Citation {
  title: string;
  /** The text gives no title: this one describes it, in its abstract's words. */
  titleIsDescriptive?: boolean;
  authors: string[];
  venue: string;
  year?: number;
  doi?: string;
  url?: string;
  note?: string;
}

/** "Ilham, Herdiana, Helmiawan and Saeppani (2025)": the short form, for lists and crumbs. */
export function shortCitation(c: Citation): string {
  const a = c.authors;
  const who = a.length === 0 ? 'authors not named' : a.length <= 2 ? a.join(' and ') : `${a[0]} et al.`;
  return `${who}${c.year ? ` (${c.year})` : ''}`;
}

/** The full reference: authors, year, “title”, venue, DOI or URL. */
export function fullCitation(c: Citation): string {
  const title = c.titleIsDescriptive ? `[untitled in the text: ${c.title}]` : `“${c.title}”`;
  return [c.authors.length ? c.authors.join(', ') : 'Authors not named in the text', c.year ? `(${c.year})` : '(year not given)', title, c.venue, c.doi ? `doi:${c.doi}` : c.url].filter(Boolean).join('. ').replace(/\.\. /g, '. ') + '.';
}

export interface Scenario {
  id: string;
  seed: string;
  citation: Citation;
  title: string;
  /** What the study measured, on what, in one or two lines. */
  setup: string;
  /** The study's own figures. */
  published: Table[];
  /** Measured figures from a result document of this scenario's preset. */
  compare(doc: ResultDocument): Table[];
  /** What carries over to a browser and what does not. */
  explain: string[];
}

const f = (x: number | null | undefined, digits = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const us = (c: CaseResult | undefined) => (c ? c.summary.median / 1e3 : null);
const mbps = (c: CaseResult | undefined) => (c ? c.bytesPerSecond / 1e6 : null);
const nsPerByte = (c: CaseResult | undefined) => (c ? c.nsPerByte : null);

/** The case for algorithm × implementation × operation × size; Web Crypto's sequential variant unless asked. */
export function pick(doc: ResultDocument, algorithm: AlgorithmId, implementation: ImplementationRef, sizeBytes: number, operation = 'encrypt', variant?: string): CaseResult | undefined {
  const matches = doc.cases.filter((c) => c.algorithm === algorithm && c.implementation === implementation && c.sizeBytes === sizeBytes && c.operation === operation);
  if (variant) return matches.find((c) => c.variant === variant);
  return matches.find((c) => c.variant === 'sequential' || c.variant === 'simd128') ?? matches[0];
}

const seriesLabel = (a: AlgorithmId, i: ImplementationId) => `${a} · ${i === 'rustcrypto-wasm' ? 'WASM' : i === 'webcrypto' ? 'Web Crypto' : i}`;

/** Cost models for every algorithm × implementation measured at ≥ 2 sizes. */
export function costModels(doc: ResultDocument, operation = 'encrypt'): { algorithm: AlgorithmId; implementation: ImplementationId; model: CostModel }[] {
  const out: { algorithm: AlgorithmId; implementation: ImplementationId; model: CostModel }[] = [];
  const keys = new Set(doc.cases.filter((c) => c.operation === operation).map((c) => `${c.algorithm}|${c.implementation}`));
  for (const key of keys) {
    const [algorithm, implementation] = key.split('|') as [AlgorithmId, ImplementationId];
    const sizes = [...new Set(doc.cases.filter((c) => c.algorithm === algorithm && c.implementation === implementation).map((c) => c.sizeBytes))];
    const points = sizes.flatMap((s) => {
      const c = pick(doc, algorithm, implementation, s, operation);
      return c ? [{ sizeBytes: s, ns: c.summary.median }] : [];
    });
    if (new Set(points.map((p) => p.sizeBytes)).size >= 2) out.push({ algorithm, implementation, model: fitCostModel(points) });
  }
  return out;
}

// ---- doc-encryption -------------------------------------------------------------------------

const docEncryption: Scenario = (() => {
  const s = studyFigures('doc-encryption');
  const r = s.results;
  const metrics = (set: Study<'doc-encryption'>['results']['scenario_1']) =>
    Object.entries(set).map(([alg, m]) => [alg, f(m.enc_ms, 2), f(m.dec_ms, 2), f(m.total_ms, 2), f(m.enc_sd_ms, 2), f(m.throughput_MBps, 2)]);
  const columns = ['', 'mean encrypt ms', 'mean decrypt ms', 'mean total ms', 'SD encrypt ms', 'mean MB/s'];
  const measured = (doc: ResultDocument, sizes: number[]) =>
    (['aes-256-gcm', 'chacha20-poly1305'] as const).flatMap((alg) =>
      (['webcrypto', 'rustcrypto-wasm'] as const).flatMap((impl) => {
        const files = sizes.map((size) => ({ size, enc: pick(doc, alg, impl, size, 'encrypt'), dec: pick(doc, alg, impl, size, 'decrypt') })).filter((x) => x.enc && x.dec);
        if (files.length === 0) return [];
        const enc = files.map((x) => x.enc!.summary.median / 1e6);
        const dec = files.map((x) => x.dec!.summary.median / 1e6);
        // The study's throughput: per file size_MB / (t_enc_ms / 1000), averaged over files.
        const thr = files.map((x, i) => x.size / 1e6 / (enc[i]! / 1000));
        return [[seriesLabel(alg, impl), f(mean(enc), 2), f(mean(dec), 2), f(mean(enc) + mean(dec), 2), f(sd(enc), 2), f(mean(thr), 1)]];
      }),
    );
  return {
    id: s.id,
    seed: s.seed,
    citation: s.citation,
    title: s.title,
    setup: `${s.setup.platform}; ${s.setup.scenario_1}; ${s.setup.scenario_2}.`,
    published: [
      { title: 'Published: scenario 1, a batch of PDF files (100 KB – 8 MB)', columns, rows: metrics(r.scenario_1) },
      { title: 'Published: scenario 2, single large files (1 MB – 200 MB)', columns, rows: metrics(r.scenario_2) },
    ],
    compare: (doc) => [
      { title: `Measured: scenario 1, ${DOC_FILE_SIZES.length} files drawn from 100 KB – 8 MB (fixed seed)`, columns, rows: measured(doc, DOC_FILE_SIZES) },
      { title: `Measured: scenario 2, single files ${DOC_LARGE_SIZES.map(formatSize).join(', ')}`, columns, rows: measured(doc, DOC_LARGE_SIZES), note: 'The study went to 200 MB; this project caps a payload at 64 MiB.' },
      {
        title: 'Size overhead per encrypted file (nonce + tag)',
        columns: ['', 'published', 'here'],
        rows: [
          ['AES-256-GCM', String(r.size_overhead_bytes['AES-GCM']), String(overheadBytes('aes-256-gcm', 1000))],
          ['ChaCha20-Poly1305', String(r.size_overhead_bytes['ChaCha20-Poly1305']), String(overheadBytes('chacha20-poly1305', 1000))],
        ],
      },
    ],
    explain: [
      'The study ran Go on a Xeon with AES-NI, where AES-GCM won every metric. Web Crypto in your browser also uses the CPU\'s AES instructions where it has them, so its AES-GCM should win here too.',
      'WebAssembly has no AES instruction: the WASM AES-GCM is a constant-time software AES, and ChaCha20-Poly1305 (designed for software) beats it several times over. That is the case the study\'s literature predicts for devices without AES hardware — and it is what a phone without ARMv8 crypto extensions, or any WASM build, lives with.',
      'Their means include 5 repetitions per file timed with time.Now(); here each file size is a case with warm-up, calibrated batches and medians over fresh workers, then averaged over files as they did.',
    ],
  };
})();

// ---- aead-vs-etm ----------------------------------------------------------------------------

const aeadVsEtm: Scenario = (() => {
  const s = studyFigures('aead-vs-etm');
  const r = s.results;
  /** The study's series for one key length: payloads, CBC+HMAC and GCM cycles per byte, speedups. */
  const series = (bits: 128 | 256) =>
    bits === 128
      ? { ...r.cpb_128, etm: r.cpb_128['AES-128-CBC+HMAC-SHA256'], gcm: r.cpb_128['AES-128-GCM'] }
      : { ...r.cpb_256, etm: r.cpb_256['AES-256-CBC+HMAC-SHA256'], gcm: r.cpb_256['AES-256-GCM'] };
  const publishedTable = (bits: 128 | 256) => {
    const t = series(bits);
    const { etm, gcm } = t;
    return {
      title: `Published: AES-${bits}, cycles per byte (OpenSSL, rdtsc, 5 % trimmed mean)`,
      columns: ['payload', 'CBC+HMAC cpb', 'GCM cpb', 'speedup'],
      rows: t.payload_bytes.map((n, i) => [formatSize(n), f(etm[i], 2), f(gcm[i], 2), f(t.speedup[i], 2)]),
    };
  };
  const measuredTable = (doc: ResultDocument, bits: 128 | 256): Table => {
    const gcmId = `aes-${bits}-gcm` as AlgorithmId;
    const etmId = `aes-${bits}-cbc-hmac-sha256` as AlgorithmId;
    const published = series(bits);
    const clock = doc.environment.clock;
    // Cycles per byte = ns per byte × GHz, when the clock estimate can be trusted.
    const cpb = clock?.trustworthy ? clock.ghz : null;
    const unit = cpb ? 'cpb' : 'ns/B';
    const per = (c?: CaseResult) => (c ? c.nsPerByte * (cpb ?? 1) : null);
    const rows = published.payload_bytes.map((n, i) => {
      const wg = pick(doc, gcmId, 'rustcrypto-wasm', n);
      const we = pick(doc, etmId, 'rustcrypto-wasm', n);
      const cg = pick(doc, gcmId, 'webcrypto', n);
      const ce = pick(doc, etmId, 'webcrypto', n);
      // time(a) / time(b), as the verdict takes it (report.ts ratioOf).
      const ratio = (a?: CaseResult, b?: CaseResult) => (a && b ? ratioOf(b, a).value : null);
      const trimmed = (a?: CaseResult, b?: CaseResult) => (a && b ? trimmedMean(a.samples) / trimmedMean(b.samples) : null);
      return [formatSize(n), f(per(we), 2), f(per(wg), 2), f(ratio(we, wg), 2), f(trimmed(we, wg), 2), f(per(ce), 2), f(per(cg), 2), f(ratio(ce, cg), 2), f(published.speedup[i], 2)];
    });
    return {
      title: cpb ? `Measured: AES-${bits}, cycles per byte (clock estimated at ${cpb.toFixed(2)} GHz) and speedup of GCM over CBC+HMAC` : `Measured: AES-${bits}, ns per byte and speedup of GCM over CBC+HMAC`,
      columns: ['payload', `WASM CBC+HMAC ${unit}`, `WASM GCM ${unit}`, 'WASM speedup (median)', 'WASM speedup (5 % trimmed mean)', `Web Crypto CBC+HMAC ${unit}`, `Web Crypto GCM ${unit}`, 'Web Crypto speedup', 'published speedup'],
      rows,
      note: cpb
        ? `The clock comes from a chain of dependent single-cycle operations timed in WASM (spread ${(clock!.spread * 100).toFixed(1)} % over 7 samples); it is the clock the core ran at, boost included, with an uncertainty of a few percent. Speedups are ratios and need no clock.`
        : clock
          ? `The clock estimate was not trustworthy here (${clock.ghz.toFixed(2)} GHz with a spread of ${(clock.spread * 100).toFixed(0)} % between samples): a busy or throttling core, or a coarse timer. Figures stay in ns per byte.`
          : 'No clock estimate in this run: figures in ns per byte. Speedups are ratios and need no clock.',
    };
  };
  return {
    id: s.id,
    seed: s.seed,
    citation: s.citation,
    title: s.title,
    setup: `${s.setup.platform}; ${s.setup.warmup_iterations} warm-up and ${s.setup.measured_iterations} measured iterations per size; ${s.setup.statistic}.`,
    published: [publishedTable(128), publishedTable(256)],
    compare: (doc) => [measuredTable(doc, 128), measuredTable(doc, 256)],
    explain: [
      'With AES-NI and PCLMULQDQ, GCM is one parallel pass (CTR blocks in flight, GHASH by carry-less multiply) while CBC is serial and HMAC is a second pass over the data: the study\'s 5–6× at large sizes.',
      'Web Crypto keeps the hardware, so its speedup should resemble the study\'s. In WASM both AES and GHASH are software: GCM\'s advantage shrinks, because bitsliced AES costs the same in CBC as in CTR and the GHASH multiply is no longer nearly free.',
      'Both the median and the study\'s 5 % trimmed mean are shown: they agree when the samples are clean.',
    ],
  };
})();

// ---- key-length -----------------------------------------------------------------------------

const keyLength: Scenario = (() => {
  const s = studyFigures('key-length');
  const r = s.results;
  return {
    id: s.id,
    seed: s.seed,
    citation: s.citation,
    title: s.title,
    setup: `${s.setup.platform}.`,
    published: [
      {
        title: 'Published: TLS 1.2 on Nginx',
        columns: ['', 'handshakes/s', 'latency ms', 'bulk MB/s'],
        rows: [
          ['AES-256-GCM', f(r['AES-256-GCM'].rps, 2), f(r['AES-256-GCM'].latency_ms, 2), f(r['AES-256-GCM'].throughput_MBps, 1)],
          ['AES-128-GCM', f(r['AES-128-GCM'].rps, 2), f(r['AES-128-GCM'].latency_ms, 2), f(r['AES-128-GCM'].throughput_MBps, 1)],
        ],
        note: `Bulk throughput gain of 128 over 256: ${r.throughput_gain_128_over_256_percent} %.`,
      },
    ],
    compare: (doc) => [
      {
        title: 'Measured: throughput of AES-128-GCM over AES-256-GCM',
        columns: ['implementation', 'payload', 'AES-128 MB/s', 'AES-256 MB/s', 'gain of 128 over 256', 'published gain'],
        rows: doc.cases
          .filter((c) => c.algorithm === 'aes-128-gcm')
          .map((c128) => {
            const c256 = pick(doc, 'aes-256-gcm', c128.implementation, c128.sizeBytes, c128.operation, c128.variant);
            const gain = c256 ? (ratioOf(c128, c256).value - 1) * 100 : null;
            return [`${c128.implementation} (${c128.variant})`, formatSize(c128.sizeBytes), f(mbps(c128)), f(mbps(c256)), gain === null ? '–' : `${f(gain)} %`, `${r.throughput_gain_128_over_256_percent} %`];
          }),
        note: '16 KiB is one TLS record; 64 MiB stands for the study\'s 100 MB download (this project\'s cap).',
      },
    ],
    explain: [
      'The handshake half of the study (requests per second, latency) is the key exchange and certificate check of TLS: a browser page cannot run or time a TLS handshake, so it is not reproduced.',
      'Bulk encryption carries over. AES-128 runs 10 rounds, AES-256 14; GHASH costs the same for both. A software AES (WASM) should show a gain approaching the round ratio; hardware AES (Web Crypto) is so fast that GHASH, memory and call overhead dilute the difference, as the study\'s 12.5 % over a network suggests.',
    ],
  };
})();

// ---- aes-candidates -------------------------------------------------------------------------

const aesCandidates: Scenario = (() => {
  const s = studyFigures('aes-candidates-mobile');
  const r = s.results;
  const names: [keyof typeof r.encrypt_mean, AlgorithmId][] = [['Rijndael', 'aes-128-gcm'], ['Twofish', 'twofish-128-gcm'], ['Serpent', 'serpent-128-gcm']];
  return {
    id: 'aes-candidates',
    seed: s.seed,
    citation: s.citation,
    title: s.title,
    setup: `${s.setup.devices.length} phones (${s.setup.devices.join('; ')}); ${s.setup.key_bits}-bit keys; ${s.setup.runs}; ${s.setup.message}.`,
    published: [
      {
        title: 'Published: mean per short message (encrypt / decrypt)',
        columns: ['cipher', 'encrypt ms', 'decrypt ms', 'memory KB', 'CPU % (enc / dec)'],
        rows: names.map(([n]) => [n, f(r.encrypt_mean[n].time_ms, 3), f(r.decrypt_mean[n].time_ms, 3), f(r.encrypt_mean[n].memory_KB, 3), `${r.encrypt_mean[n].cpu_percent} / ${r.decrypt_mean[n].cpu_percent}`]),
      },
    ],
    compare: (doc) => {
      const sizes = [...new Set(doc.cases.map((c) => c.sizeBytes))].sort((a, b) => a - b);
      const short = sizes[0] ?? 32;
      return [
        {
          title: `Measured: one short message (${formatSize(short)}), in the same GCM construction`,
          columns: ['cipher', 'encrypt µs', 'decrypt µs', 'published encrypt µs', 'state bytes (size_of)'],
          rows: names.map(([n, id]) => [n, f(us(pick(doc, id, 'rustcrypto-wasm', short, 'encrypt')), 3), f(us(pick(doc, id, 'rustcrypto-wasm', short, 'decrypt')), 3), f(r.encrypt_mean[n].time_ms * 1000, 0), String(doc.cases.find((c) => c.algorithm === id)?.stateBytes ?? '–')]),
          note: 'The study\'s times are means of 5 single calls; these are medians of calibrated batches of thousands of calls.',
        },
        {
          title: 'Measured: encrypt throughput across sizes (MB/s)',
          columns: ['cipher', ...sizes.map(formatSize)],
          rows: names.map(([n, id]) => [n, ...sizes.map((size) => f(mbps(pick(doc, id, 'rustcrypto-wasm', size, 'encrypt'))))]),
        },
      ];
    },
    explain: [
      'The study compared key "character classes" (letters, digits, symbols). A 128-bit key is 16 bytes whichever characters were typed to make it: the cipher never sees characters, and its key schedule does the same work for every key. Any difference between those classes is noise.',
      `A single short message takes about a microsecond; a browser or app timer ticks in steps of 5 µs to 1 ms. Timing one call measures the timer and the moment's scheduling more than the cipher — the study's figures of ${r.encrypt_mean.Rijndael.time_ms}–${r.encrypt_mean.Twofish.time_ms} ms sit at that scale. Here each sample is a batch lasting at least 100 timer ticks, repeated in fresh workers.`,
      'All three ciphers run here as constant-time Rust compiled to WebAssembly, inside the same GCM code, so the comparison is of the block ciphers alone. The AES here is bitsliced (constant-time, several blocks at once), which suits long messages; Serpent was designed for bitslicing too; Twofish uses key-dependent tables.',
      'Memory: the study\'s figures are what the app allocated; here it is the size of the keyed cipher state, the part that depends on the algorithm.',
    ],
  };
})();

// ---- lightweight-iot ------------------------------------------------------------------------

const lightweightIot: Scenario = (() => {
  const s = studyFigures('lightweight-iot');
  const r = s.results;
  const series: [AlgorithmId, ImplementationId][] = [
    ['ascon-aead128', 'rustcrypto-wasm'],
    ['aes-128-gcm', 'rustcrypto-wasm'],
    ['aes-128-gcm', 'webcrypto'],
    ['chacha20-poly1305', 'rustcrypto-wasm'],
    ['aes-128-gcm', 'noble'],
  ];
  return {
    id: s.id,
    seed: s.seed,
    citation: s.citation,
    title: s.title,
    setup: `${s.setup.platform}; ${s.setup.timer}; AAD: ${s.setup.associated_data}.`,
    published: [
      {
        title: 'Published: encryption time per message (µs)',
        columns: ['payload', 'Ascon-128', 'AES-128-GCM', 'Ascon / AES'],
        rows: r.encrypt_us.payload_bytes.map((n: number, i: number) => [`${n} B`, f(r.encrypt_us['Ascon-128'][i], 2), f(r.encrypt_us['AES-128-GCM'][i], 2), f(r.encrypt_us.ratio_ascon_over_aes[i], 1)]),
        note: `Peak memory (tracemalloc): Ascon ${r.peak_memory_KB['Ascon-128']} KB, AES-GCM ${r.peak_memory_KB['AES-128-GCM']} KB.`,
      },
    ],
    compare: (doc) => {
      const models = costModels(doc);
      const model = (a: AlgorithmId, i: ImplementationId) => models.find((m) => m.algorithm === a && m.implementation === i)?.model;
      const sizes = [...new Set(doc.cases.map((c) => c.sizeBytes))].sort((a, b) => a - b);
      const [lo, hi] = [sizes[0] ?? 8, sizes[sizes.length - 1] ?? 1 << 20];
      const pairs: [number, number][] = [];
      for (let i = 0; i < series.length; i++) for (let j = i + 1; j < series.length; j++) pairs.push([i, j]);
      return [
        {
          title: 'Measured: time per message (µs), with the study\'s 14-byte AAD',
          columns: ['payload', ...series.map(([a, i]) => seriesLabel(a, i)), 'WASM Ascon / WASM AES'],
          rows: sizes.map((n) => {
            const row = series.map(([a, i]) => us(pick(doc, a, i, n)));
            return [formatSize(n), ...row.map((x) => f(x, 3)), f(row[0] != null && row[1] != null ? row[0] / row[1] : null, 2)];
          }),
        },
        {
          title: 'Cost model T(n) = C_fixed + n · C_byte (weighted least squares)',
          columns: ['series', 'C_fixed µs', 'C_byte ns/B', 'R²', 'sizes'],
          rows: models.map(({ algorithm, implementation, model: m }) => [seriesLabel(algorithm, implementation), f(m.fixedNs / 1e3, 3), f(m.perByteNs, 3), f(m.r2, 4), String(m.n)]),
        },
        {
          title: 'Crossover: the payload size where two curves cross',
          columns: ['pair', 'crossover', 'faster below', 'faster above'],
          rows: pairs.flatMap(([i, j]) => {
            const [a, b] = [series[i]!, series[j]!];
            const [ma, mb] = [model(...a), model(...b)];
            if (!ma || !mb) return [];
            const x = crossoverBytes(ma, mb, lo, hi);
            const cheaperFixed = ma.fixedNs < mb.fixedNs ? a : b;
            const cheaperByte = ma.perByteNs < mb.perByteNs ? a : b;
            return [[`${seriesLabel(...a)} vs ${seriesLabel(...b)}`, x === null ? `none in ${formatSize(lo)} – ${formatSize(hi)}` : `${x < 10_000 ? x.toFixed(0) + ' B' : formatSize(Math.round(x / 1024) * 1024)}`, x === null ? '–' : seriesLabel(...cheaperFixed), x === null ? (ma.fixedNs + ma.perByteNs * hi < mb.fixedNs + mb.perByteNs * hi ? seriesLabel(...a) : seriesLabel(...b)) + ' throughout' : seriesLabel(...cheaperByte)]];
          }),
        },
        {
          title: 'Memory and code: the keyed cipher\'s state (WASM, size_of) and the WASM code each algorithm adds',
          columns: ['algorithm', 'state bytes', 'code KiB', 'code KiB, gzip'],
          rows: (['ascon-aead128', 'aes-128-gcm', 'chacha20-poly1305'] as const).map((a) => [
            a,
            String(doc.cases.find((c) => c.algorithm === a && c.stateBytes !== null)?.stateBytes ?? '–'),
            f(codeSize.algorithms[a]!.wasmBytes / 1024, 1),
            f(codeSize.algorithms[a]!.gzipBytes / 1024, 1),
          ]),
          note: 'The study\'s figure is Python\'s tracemalloc peak, which counts interpreter objects: not comparable in kind, only in direction. On a device the code is memory too: fixsliced AES weighs several times Ascon.',
        },
      ];
    },
    explain: [
      'The study timed a pure-Python Ascon against pycryptodome\'s AES-GCM, which calls C code using AES-NI: it measured Python against C more than Ascon against AES. Here both are the same kind of code — Rust compiled to WASM — and Web Crypto\'s AES-GCM shows what hardware AES adds.',
      'Ascon was designed for small messages on small devices: its fixed cost is a few permutations, against AES-GCM\'s key-dependent setup and GHASH finalisation. The cost model splits each curve into that fixed cost and a per-byte cost; the crossover table says from which size the other algorithm wins.',
      'The unlock token below is encrypted with the study\'s message format and AAD; flipping one bit of the ciphertext makes decryption fail, as it must.',
    ],
  };
})();

export const SCENARIOS: readonly Scenario[] = [docEncryption, aeadVsEtm, keyLength, aesCandidates, lightweightIot];

export function scenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}

