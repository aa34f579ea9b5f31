import { formatSize } from '../../core/params.ts';
import { keyLength as measure, studyFigures } from '../../core/scenarios/index.ts';
import { type StudyWords, f } from './words.ts';

const s = studyFigures('key-length');
const r = s.results;

export const keyLength: StudyWords = {
  setup: `${s.setup.platform}.`,
  published: [
    {
      title: 'Published: TLS 1.2 on Nginx',
      columns: ['', 'handshakes/s', 'latency ms', 'bulk MB/s'],
      rows: (['AES-256-GCM', 'AES-128-GCM'] as const).map((k) => [k, f(r[k].rps, 2), f(r[k].latency_ms, 2), f(r[k].throughput_MBps, 1)]),
      note: `Bulk throughput gain of 128 over 256: ${r.throughput_gain_128_over_256_percent} %.`,
    },
  ],
  compare: (doc) => [
    {
      title: 'Measured: throughput of AES-128-GCM over AES-256-GCM',
      columns: ['implementation', 'payload', 'AES-128 MB/s', 'AES-256 MB/s', 'gain of 128 over 256', 'published gain'],
      rows: measure(doc).map((x) => [
        `${x.implementation} (${x.variant})`,
        formatSize(x.sizeBytes),
        f(x.mbps128),
        f(x.mbps256),
        x.gainPercent === null ? '–' : `${f(x.gainPercent)} %`,
        `${r.throughput_gain_128_over_256_percent} %`,
      ]),
      note: "16 KiB is one TLS record; 64 MiB stands for the study's 100 MB download (this project's cap).",
    },
  ],
  explain: [
    'The handshake half of the study (requests per second, latency) is the key exchange and certificate check of TLS: a browser page cannot run or time a TLS handshake, so it is not reproduced.',
    "Bulk encryption carries over. AES-128 runs 10 rounds, AES-256 14; GHASH costs the same for both. A software AES (WASM) should show a gain approaching the round ratio; hardware AES (Web Crypto) is so fast that GHASH, memory and call overhead dilute the difference, as the study's 12.5 % over a network suggests.",
  ],
};
