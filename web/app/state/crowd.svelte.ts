/** The crowd view's state: the filters, the cohorts they select, and where this run stands. */
import type { CohortStats } from '../../core/crowd.ts';
import type { CaseResult } from '../../core/schema.ts';
import { getJson } from '../lib/collector.ts';
import { PRESETS } from '../../core/tables/algorithms.ts';

export type Cohort = CohortStats;
/** A cohort above the collector's floor of evidence: it has figures. */
export type Shown = Extract<Cohort, { tooFew: false }>;
export const shown = (c: Cohort | null | undefined): c is Shown => !!c && !c.tooFew;
export const GROUPS = { deviceClass: 'device class', engine: 'engine', browser: 'browser' } as const;

export class CrowdState {
  algorithm = $state('aes-128-gcm');
  implementation = $state('rustcrypto-wasm');
  operation = $state('encrypt');
  size = $state(1024);
  browser = $state('');
  engine = $state('');
  arch = $state('');
  groupBy = $state<keyof typeof GROUPS>('deviceClass');
  scenario = $state('');
  cohorts = $state.raw<Cohort[] | null>(null);
  error = $state<string | null>(null);
  percentile = $state<{ n: number; tooFew: boolean; percentile: number | null; deviceClass: string } | null>(null);
  /** The cohorts with figures: those below the floor of evidence are listed, never drawn. */
  get drawn(): Shown[] {
    return (this.cohorts ?? []).filter(shown);
  }

  /** The filters as the collector's query (empty ones left out). */
  get filter() {
    return {
      algorithm: this.algorithm,
      implementation: this.implementation,
      operation: this.operation,
      size: this.size,
      browser: this.browser || undefined,
      engine: this.engine || undefined,
      arch: this.arch || undefined,
      scenario: this.scenario || undefined,
      // A study's runs carry its associated data (lightweight-iot: 14 bytes), and each AAD length is a cohort of its own.
      aad: this.scenario ? (PRESETS[this.scenario as keyof typeof PRESETS]?.aadBytes[0] ?? 0) : undefined,
      groupBy: this.groupBy,
    };
  }

  /** This run's case under the current filters, if it measured one. */
  mine(cases: readonly CaseResult[] | undefined): CaseResult | null {
    return (
      cases?.find(
        (c) => c.algorithm === this.algorithm && c.implementation === this.implementation && c.operation === this.operation && c.sizeBytes === this.size,
      ) ?? null
    );
  }

  async loadStats() {
    this.error = null;
    try {
      this.cohorts = (await getJson<{ cohorts: Cohort[] }>('stats', this.filter)).cohorts;
    } catch (e) {
      this.error = (e as Error).message;
      this.cohorts = null;
    }
  }

  async loadPercentile(mine: CaseResult | null, deviceClass: string | null) {
    this.percentile = null;
    if (!mine) return;
    const { algorithm, implementation, operation, size } = this.filter;
    try {
      const r = await getJson<{ n: number; tooFew: boolean; percentile: number | null }>('percentile', {
        algorithm,
        implementation,
        operation,
        size,
        bytesPerSecond: mine.bytesPerSecond,
        deviceClass: deviceClass ?? undefined,
      });
      this.percentile = { ...r, deviceClass: deviceClass ? `${deviceClass}s` : 'all devices' };
    } catch {
      /* the percentile is an extra: the cohorts say the rest */
    }
  }
}
