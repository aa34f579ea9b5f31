import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fieldDocs, fieldsMarkdown } from '../schema-doc.ts';
import { ResultDocumentSchema } from '../schema.ts';

describe('the result field reference (schema-doc.ts)', () => {
  it('describes every field of the result document, nested ones and array items included', () => {
    const docs = fieldDocs(ResultDocumentSchema);
    expect(docs.filter((d) => !d.description).map((d) => d.path)).toEqual([]);
    const paths = docs.map((d) => d.path);
    for (const p of [
      'runId',
      'params.budgetMs',
      'environment.cores.backends',
      'cases[].summary.ciHigh',
      'cases[].modes[].share',
      'modules[].sha256',
      'aaCheck.decision',
      'skipped[].reason',
    ])
      expect(paths).toContain(p);
  });

  it('reads types, limits and optionality from the schema, not from a copy', () => {
    const byPath = new Map(fieldDocs(ResultDocumentSchema).map((d) => [d.path, d]));
    expect(byPath.get('status')!.type).toBe('`complete` | `cancelled`');
    expect(byPath.get('params.rounds')!.type).toBe('number (integer, ≥ 1, ≤ 50)');
    expect(byPath.get('cases[].totalBytesPerSecond')!.optional).toBe(true);
    expect(byPath.get('cases[].stateBytes')!.type).toMatch(/or null$/);
    expect(byPath.get('cases[].samples')!.type).toBe('number (≥ 0)[] (at least 1, at most 10000)');
  });

  it('refuses to document a field that has no description, naming it', () => {
    const schema = v.object({ a: v.pipe(v.number(), v.description('has one')), nested: v.pipe(v.object({ b: v.string() }), v.description('an object')) });
    expect(() => fieldsMarkdown(schema)).toThrow(/nested\.b/);
  });

  it('writes one Markdown row per field, pipes in types escaped', () => {
    const md = fieldsMarkdown(ResultDocumentSchema);
    const rows = md.split('\n').slice(2);
    expect(rows).toHaveLength(fieldDocs(ResultDocumentSchema).length);
    for (const r of rows) expect(r.replace(/\\\|/g, '').split('|')).toHaveLength(5);
  });
});
