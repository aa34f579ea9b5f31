import { formatSize } from '../../core/params.ts';
import { IOT_SERIES, lightweightIot as measure, studyFigures } from '../../core/scenarios/index.ts';
import { type StudyWords, f, seriesLabel } from './words.ts';

const s = studyFigures('lightweight-iot');
const r = s.results;

/** A crossover in bytes below 10,000, else to the nearest KiB in binary units. */
const crossoverSize = (x: number) => (x < 10_000 ? `${x.toFixed(0)} B` : formatSize(Math.round(x / 1024) * 1024));

export const lightweightIot: StudyWords = {
  setup: `${s.setup.platform}; ${s.setup.timer}; AAD: ${s.setup.associated_data}.`,
  published: [
    {
      title: 'Published: encryption time per message (µs)',
      columns: ['payload', 'Ascon-128', 'AES-128-GCM', 'Ascon / AES'],
      rows: r.encrypt_us.payload_bytes.map((n, i) => [
        `${n} B`,
        f(r.encrypt_us['Ascon-128'][i], 2),
        f(r.encrypt_us['AES-128-GCM'][i], 2),
        f(r.encrypt_us.ratio_ascon_over_aes[i], 1),
      ]),
      note: `Peak memory (tracemalloc): Ascon ${r.peak_memory_KB['Ascon-128']} KB, AES-GCM ${r.peak_memory_KB['AES-128-GCM']} KB.`,
    },
  ],
  compare: (doc) => {
    const m = measure(doc);
    return [
      {
        title: "Measured: time per message (µs), with the study's 14-byte AAD",
        columns: ['payload', ...IOT_SERIES.map(seriesLabel), 'WASM Ascon / WASM AES'],
        rows: m.perMessage.map(({ sizeBytes, us: [ascon, aes, ...rest] }) => [
          formatSize(sizeBytes),
          ...[ascon, aes, ...rest].map((x) => f(x, 3)),
          f(ascon != null && aes != null ? ascon / aes : null, 2),
        ]),
      },
      {
        title: 'Cost model T(n) = C_fixed + n · C_byte (weighted least squares)',
        columns: ['series', 'C_fixed µs', 'C_byte ns/B', 'R²', 'sizes'],
        rows: m.models.map((x) => [seriesLabel(x), f(x.model.fixedNs / 1e3, 3), f(x.model.perByteNs, 3), f(x.model.r2, 4), String(x.model.n)]),
      },
      {
        title: 'Crossover: the payload size where two curves cross',
        columns: ['pair', 'crossover', 'faster below', 'faster above'],
        rows: m.crossovers.map((x) =>
          x.bytes === null || x.below === null
            ? [`${seriesLabel(x.a)} vs ${seriesLabel(x.b)}`, `none in ${formatSize(m.lo)} – ${formatSize(m.hi)}`, '–', `${seriesLabel(x.above)} throughout`]
            : [`${seriesLabel(x.a)} vs ${seriesLabel(x.b)}`, crossoverSize(x.bytes), seriesLabel(x.below), seriesLabel(x.above)],
        ),
      },
      {
        title: "Memory and code: the keyed cipher's state (WASM, size_of) and the WASM code each algorithm adds",
        columns: ['algorithm', 'state bytes', 'code KiB', 'code KiB, gzip'],
        rows: m.memory.map((x) => [x.algorithm, String(x.stateBytes ?? '–'), f(x.codeBytes / 1024, 1), f(x.gzipBytes / 1024, 1)]),
        note: "The study's figure is Python's tracemalloc peak, which counts interpreter objects: not comparable in kind, only in direction. On a device the code is memory too: fixsliced AES weighs several times Ascon.",
      },
    ];
  },
  explain: [
    "The study timed a pure-Python Ascon against pycryptodome's AES-GCM, which calls C code using AES-NI: it measured Python against C more than Ascon against AES. Here both are the same kind of code — Rust compiled to WASM — and Web Crypto's AES-GCM shows what hardware AES adds.",
    "Ascon was designed for small messages on small devices: its fixed cost is a few permutations, against AES-GCM's key-dependent setup and GHASH finalisation. The cost model splits each curve into that fixed cost and a per-byte cost; the crossover table says from which size the other algorithm wins.",
    "The unlock token below is encrypted with the study's message format and AAD; flipping one bit of the ciphertext makes decryption fail, as it must.",
  ],
};
