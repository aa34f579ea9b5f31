/** What a study's view says, and how the views write a figure and a series. */
import type { Series } from '../../core/scenarios/index.ts';
import type { ResultDocument } from '../../core/schema.ts';

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  note?: string;
}

/** What a study's view says: the study's setup and tables, this device's, and what carries over. */
export interface StudyWords {
  /** What the study measured, on what, in one or two lines. */
  setup: string;
  /** The study's own figures. */
  published: Table[];
  /** This device's figures from a result document of the study's preset. */
  compare(doc: ResultDocument): Table[];
  /** What carries over to a browser and what does not. */
  explain: string[];
}

/** A figure to `digits` places, or a dash where there is none. */
export const f = (x: number | null | undefined, digits = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

/** "aes-128-gcm · WASM": an algorithm in one implementation. */
export const seriesLabel = ({ algorithm, implementation }: Series) =>
  `${algorithm} · ${implementation === 'rustcrypto-wasm' ? 'WASM' : implementation === 'webcrypto' ? 'Web Crypto' : implementation}`;
