/** The permalink view's state: one submitted result, fetched from the collector, read-only. */
import { type StoredResult, fromStored } from '../../core/permalink.ts';
import type { ResultDocument } from '../../core/schema.ts';
import { getJson } from '../lib/collector.ts';

export class PermalinkState {
  doc = $state.raw<ResultDocument | null>(null);
  error = $state<string | null>(null);
  loading = $state(false);

  async open(id: string) {
    this.loading = true;
    this.doc = null;
    this.error = null;
    try {
      this.doc = fromStored(await getJson<StoredResult>(`results/${encodeURIComponent(id)}`, {}));
    } catch (e) {
      this.error = `Cannot open result ${id}: ${(e as Error).message}`;
    } finally {
      this.loading = false;
    }
  }
}

/** The link that opens a submitted result on this site. */
export const permalinkOf = (id: string) => `${location.origin}${location.pathname}#/result/${id}`;
