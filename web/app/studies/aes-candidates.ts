import { formatSize } from '../../core/params.ts';
import { FINALISTS, aesCandidates as measure, studyFigures } from '../../core/scenarios/index.ts';
import { type StudyWords, f } from './words.ts';

const s = studyFigures('aes-candidates-mobile');
const r = s.results;

export const aesCandidates: StudyWords = {
  setup: `${s.setup.devices.length} phones (${s.setup.devices.join('; ')}); ${s.setup.key_bits}-bit keys; ${s.setup.runs}; ${s.setup.message}.`,
  published: [
    {
      title: 'Published: mean per short message (encrypt / decrypt)',
      columns: ['cipher', 'encrypt ms', 'decrypt ms', 'memory KB', 'CPU % (enc / dec)'],
      rows: FINALISTS.map(({ cipher: n }) => [
        n,
        f(r.encrypt_mean[n].time_ms, 3),
        f(r.decrypt_mean[n].time_ms, 3),
        f(r.encrypt_mean[n].memory_KB, 3),
        `${r.encrypt_mean[n].cpu_percent} / ${r.decrypt_mean[n].cpu_percent}`,
      ]),
    },
  ],
  compare: (doc) => {
    const { short, sizes, ciphers } = measure(doc);
    return [
      {
        title: `Measured: one short message (${formatSize(short)}), in the same GCM construction`,
        columns: ['cipher', 'encrypt µs', 'decrypt µs', 'published encrypt µs', 'state bytes (size_of)'],
        rows: ciphers.map((x) => [x.cipher, f(x.encUs, 3), f(x.decUs, 3), f(r.encrypt_mean[x.cipher].time_ms * 1000, 0), String(x.stateBytes ?? '–')]),
        note: "The study's times are means of 5 single calls; these are medians of calibrated batches of thousands of calls.",
      },
      {
        title: 'Measured: encrypt throughput across sizes (MB/s)',
        columns: ['cipher', ...sizes.map(formatSize)],
        rows: ciphers.map((x) => [x.cipher, ...x.mbps.map((m) => f(m))]),
      },
    ];
  },
  explain: [
    'The study compared key "character classes" (letters, digits, symbols). A 128-bit key is 16 bytes whichever characters were typed to make it: the cipher never sees characters, and its key schedule does the same work for every key. Any difference between those classes is noise.',
    `A single short message takes about a microsecond; a browser or app timer ticks in steps of 5 µs to 1 ms. Timing one call measures the timer and the moment's scheduling more than the cipher — the study's figures of ${r.encrypt_mean.Rijndael.time_ms}–${r.encrypt_mean.Twofish.time_ms} ms sit at that scale. Here each sample is a batch lasting at least 100 timer ticks, repeated in fresh workers.`,
    'All three ciphers run here as constant-time Rust compiled to WebAssembly, inside the same GCM code, so the comparison is of the block ciphers alone. The AES here is bitsliced (constant-time, several blocks at once), which suits long messages; Serpent was designed for bitslicing too; Twofish uses key-dependent tables.',
    "Memory: the study's figures are what the app allocated; here it is the size of the keyed cipher state, the part that depends on the algorithm.",
  ],
};
