/**
 * The studies as the site shows them: each study's view (one file each) words the figures the
 * engine reads from a result (web/core/scenarios) and the published ones (reference.json), and
 * says what carries over from the study's machine to a browser.
 * @module
 */
import type { StudyWords } from './words.ts';
import { type ScenarioId, STUDIES, studyFigures } from '../../core/scenarios/index.ts';
import { docEncryption } from './doc-encryption.ts';
import { aeadVsEtm } from './aead-vs-etm.ts';
import { keyLength } from './key-length.ts';
import { aesCandidates } from './aes-candidates.ts';
import { lightweightIot } from './lightweight-iot.ts';

export type { StudyWords, Table } from './words.ts';

/** A study as its text identifies it (reference.json); missing fields are missing from the text. */
export type Citation = ReturnType<typeof studyFigures>['citation'];

export interface StudyView extends StudyWords {
  id: ScenarioId;
  title: string;
  citation: Citation;
}

const WORDS: Record<ScenarioId, StudyWords> = {
  'doc-encryption': docEncryption,
  'aead-vs-etm': aeadVsEtm,
  'key-length': keyLength,
  'aes-candidates': aesCandidates,
  'lightweight-iot': lightweightIot,
};

export const STUDY_VIEWS: readonly StudyView[] = STUDIES.map(({ id, reference }) => {
  const { title, citation } = studyFigures(reference);
  return { id, title, citation, ...WORDS[id] };
});

export function studyView(id: string): StudyView | undefined {
  return STUDY_VIEWS.find((s) => s.id === id);
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
  return (
    [
      c.authors.length ? c.authors.join(', ') : 'Authors not named in the text',
      c.year ? `(${c.year})` : '(year not given)',
      title,
      c.venue,
      c.doi ? `doi:${c.doi}` : c.url,
    ]
      .filter(Boolean)
      .join('. ')
      .replace(/\.\. /g, '. ') + '.'
  );
}
