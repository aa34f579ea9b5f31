// The studies' published figures are data with a schema: each study in reference.json is read
// through it, and a transcription that lost or mistyped a figure is refused, naming it.
import { describe, expect, it } from 'vitest';
import { REFERENCE_STUDY_IDS, STUDY_SCHEMAS, type StudyId, parseStudy, studyFigures } from '../scenarios/reference.ts';
import reference from '../scenarios/reference.json' with { type: 'json' };

describe('reference.json', () => {
  it('has a schema for every study it holds, and every study reads through it', () => {
    expect([...REFERENCE_STUDY_IDS].sort()).toEqual(Object.keys(STUDY_SCHEMAS).sort());
    for (const id of Object.keys(STUDY_SCHEMAS) as StudyId[]) expect(studyFigures(id).id).toBe(id);
    expect(studyFigures('aead-vs-etm').results.cpb_128['AES-128-GCM'][0]).toBe(99.99);
    expect(studyFigures('key-length').results.throughput_gain_128_over_256_percent).toBe(12.5);
  });

  it('refuses a study whose figure is missing or not a number, naming the study and the field', () => {
    const raw = structuredClone(reference.studies.find((s) => s.id === 'key-length')!) as unknown as { results: Record<string, { rps: unknown }> };
    raw.results['AES-128-GCM']!.rps = '32.69';
    expect(() => parseStudy('key-length', raw)).toThrow(/study 'key-length': results\.AES-128-GCM\.rps: .*number/);
    delete (raw.results as Record<string, unknown>)['AES-256-GCM'];
    expect(() => parseStudy('key-length', raw)).toThrow(/study 'key-length': results\.AES-256-GCM/);
  });
});
