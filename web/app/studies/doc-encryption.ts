import { DOC_FILE_SIZES, DOC_LARGE_SIZES, overheadBytes } from '../../core/tables/algorithms.ts';
import { formatSize } from '../../core/params.ts';
import { docEncryption as measure, type FileSetFigures, type Study, studyFigures } from '../../core/scenarios/index.ts';
import { type StudyWords, f, seriesLabel } from './words.ts';

const s = studyFigures('doc-encryption');
const r = s.results;
const columns = ['', 'mean encrypt ms', 'mean decrypt ms', 'mean total ms', 'SD encrypt ms', 'mean MB/s'];
const published = (set: Study<'doc-encryption'>['results']['scenario_1']) =>
  Object.entries(set).map(([alg, m]) => [alg, f(m.enc_ms, 2), f(m.dec_ms, 2), f(m.total_ms, 2), f(m.enc_sd_ms, 2), f(m.throughput_MBps, 2)]);
const measured = (rows: FileSetFigures[]) => rows.map((x) => [seriesLabel(x), f(x.encMs, 2), f(x.decMs, 2), f(x.totalMs, 2), f(x.encSdMs, 2), f(x.mbps, 1)]);

export const docEncryption: StudyWords = {
  setup: `${s.setup.platform}; ${s.setup.scenario_1}; ${s.setup.scenario_2}.`,
  published: [
    { title: 'Published: scenario 1, a batch of PDF files (100 KB – 8 MB)', columns, rows: published(r.scenario_1) },
    { title: 'Published: scenario 2, single large files (1 MB – 200 MB)', columns, rows: published(r.scenario_2) },
  ],
  compare: (doc) => [
    {
      title: `Measured: scenario 1, ${DOC_FILE_SIZES.length} files drawn from 100 KB – 8 MB (fixed seed)`,
      columns,
      rows: measured(measure(doc, DOC_FILE_SIZES)),
    },
    {
      title: `Measured: scenario 2, single files ${DOC_LARGE_SIZES.map(formatSize).join(', ')}`,
      columns,
      rows: measured(measure(doc, DOC_LARGE_SIZES)),
      note: 'The study went to 200 MB; this project caps a payload at 64 MiB.',
    },
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
    "The study ran Go on a Xeon with AES-NI, where AES-GCM won every metric. Web Crypto in your browser also uses the CPU's AES instructions where it has them, so its AES-GCM should win here too.",
    "WebAssembly has no AES instruction: the WASM AES-GCM is a constant-time software AES, and ChaCha20-Poly1305 (designed for software) beats it several times over. That is the case the study's literature predicts for devices without AES hardware — and it is what a phone without ARMv8 crypto extensions, or any WASM build, lives with.",
    'Their means include 5 repetitions per file timed with time.Now(); here each file size is a case with warm-up, calibrated batches and medians over fresh workers, then averaged over files as they did.',
  ],
};
