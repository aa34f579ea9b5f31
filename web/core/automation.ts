/**
 * The page's automation contract (Speedometer style), shared by the site, the CLI and the e2e
 * tests: `window.aeadbench` and the `aeadbench:ready` / `aeadbench:done` / `aeadbench:error`
 * events. Scripts wait on these, never on pixels.
 * @module
 */
import type { Progress } from './run/runner.ts';
import type { ResultDocument, RunParams, Validation } from './schema.ts';
import type { ShownClaim } from './report/verdict.ts';

export type Status = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface Automation {
  status: Status;
  params: RunParams | null;
  result: ResultDocument | null;
  error: string | null;
  validation: Validation[];
  progress: Progress | null;
  /** The verdict's claims as the page showed them during the run, with any reversal (report/verdict.ts noteShown). */
  claimsShown: ShownClaim[];
}

declare global {
  interface Window {
    aeadbench?: Automation;
  }
}
