/**
 * The Compare view's state: two result documents (this run, or exported JSON files) and their
 * comparison, case by case (web/core/report/compare.ts, as `aeadbench compare`).
 */
import { compareResults } from '../../core/report/compare.ts';
import { type ResultDocument, validateResult } from '../../core/schema.ts';

export type Slot = 'a' | 'b';
export interface Loaded {
  name: string;
  doc: ResultDocument;
}

export class CompareState {
  a = $state.raw<Loaded | null>(null);
  b = $state.raw<Loaded | null>(null);
  error = $state<string | null>(null);
  readonly result = $derived(this.a && this.b ? compareResults(this.a.doc, this.b.doc) : null);

  use(slot: Slot, name: string, doc: ResultDocument) {
    this[slot] = { name, doc };
    this.error = null;
  }

  /** Reads an exported result (@1 or @2); a file that is not one is an error naming it. */
  async load(slot: Slot, file: File) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch (e) {
      this.error = `${file.name} is not JSON: ${(e as Error).message}`;
      return;
    }
    const checked = validateResult(parsed);
    if (!checked.ok) {
      this.error = `${file.name} is not an aeadbench result: ${checked.issues.slice(0, 2).join('; ')}`;
      return;
    }
    this.use(slot, file.name, checked.value);
  }
}
