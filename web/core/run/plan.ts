/**
 * What a run measures, decided before anything is timed: its cases (every offered
 * implementation × algorithm × operation × size × AAD, less what failed validation or exceeds
 * the device's payload limit, each skip with its reason), their order in each round, and the
 * A/A twin. Pure: the scheduler (runner.ts startRun) only runs what this returns.
 * @module
 */
import { implementationSupports } from '../tables/algorithms.ts';
import { cycleOrder, shuffled } from '../worker/measure.ts';
import { groupKey } from '../worker/groups.ts';
import { formatSize } from '../params.ts';
import { type ResultDocument, type RunParams, type Validation, codeKey } from '../schema.ts';
import { aaTwinKey, otherSide } from './stop-rule.ts';
import { type PlannedCase, caseKey } from '../worker/api.ts';

/** An implementation × variant this environment offers, with the algorithms it really has. */
export interface Available {
  implementation: string;
  variant: string;
  algorithms: string[];
}

/**
 * The planner: every case a run will measure, from its parameters, what this environment
 * offers, what failed validation, and the device's payload limit — and what is skipped, with
 * the reason. Pure: the scheduler (startRun) only runs what this returns.
 */
export function planCases(
  params: RunParams,
  available: Available[],
  validation: Validation[],
  payloadLimitBytes: number,
  unavailable: readonly { implementation: string; reason: string }[] = [],
): { plan: PlannedCase[]; skipped: ResultDocument['skipped'] } {
  const plan: PlannedCase[] = [];
  const skipped: ResultDocument['skipped'] = [];
  const reasonOf = (impl: string) => {
    const why = unavailable.find((u) => u.implementation === impl)?.reason;
    return why ? `: ${why}` : '';
  };
  const excluded = new Set(validation.filter((v) => v.excluded).map(codeKey));
  const sizes = params.sizes.filter((s) => {
    if (s <= payloadLimitBytes) return true;
    skipped.push({ what: `payload ${formatSize(s)}`, reason: `payload of ${s} bytes exceeds this device's limit of ${payloadLimitBytes} bytes` });
    return false;
  });
  for (const impl of params.implementations) {
    const offered = available.filter((a) => a.implementation === impl);
    // The worker loads nothing for an implementation with nothing to do in this run (libaegis in
    // the quick preset, which has no AEGIS id): that is no skip, and saying so would be false.
    const asked = params.algorithms.some((alg) => implementationSupports(impl, alg));
    if (offered.length === 0 && asked) skipped.push({ what: impl, reason: `${impl} is not available in this environment${reasonOf(impl)}` });
    for (const alg of params.algorithms) {
      const variants = offered.filter((a) => a.algorithms.includes(alg));
      // Only what the implementation could offer (the table) but this environment lacks.
      if (variants.length === 0 && offered.length > 0 && implementationSupports(impl, alg)) {
        skipped.push({ what: `${impl} ${alg}`, reason: `${impl} does not offer ${alg} here` });
      }
      for (const { variant } of variants) {
        if (excluded.has(codeKey({ implementation: impl, variant, algorithm: alg }))) continue;
        for (const operation of params.operations)
          for (const sizeBytes of sizes)
            for (const aadBytes of params.aadBytes) {
              const c = { implementation: impl, variant, algorithm: alg, operation, sizeBytes, aadBytes };
              plan.push({ ...c, key: caseKey(c) });
            }
      }
    }
  }
  return { plan, skipped };
}

/**
 * Orders cases for round `r`: a seeded shuffle, so each case sits at a different place, beside
 * different neighbours, and is warmed up at a different moment in every round (a rotation kept
 * its neighbours, and so whatever they leave behind, the same in every round). Within a group of
 * compared cases (groups.ts), the members then take the group's places in a balanced order
 * (measure.ts cycleOrder, by round): over each block of as many rounds as the group has members,
 * each member comes first, and at every other place, exactly once, as within a worker each
 * takes every place in a block of cycles. The shuffle alone balanced places only on average,
 * and the same way in every run, its seeds being the rounds': an A/B's base was planned first
 * in 9 of the first 15 rounds of every session.
 */
export function roundOrder<T extends Pick<PlannedCase, 'operation' | 'sizeBytes' | 'aadBytes'>>(xs: readonly T[], r: number): T[] {
  const members = new Map<string, T[]>();
  for (const x of xs) members.set(groupKey(x), [...(members.get(groupKey(x)) ?? []), x]);
  // Each group's members in this round's balanced order, handed out as the shuffle reaches its places.
  const queues = new Map([...members].map(([k, g]) => [k, cycleOrder(g.length, r).map((j) => g[j]!)]));
  return shuffled(xs, 0x5bd1e995 ^ (r + 1)).map((x) => queues.get(groupKey(x))!.shift()!);
}

/**
 * The first round's order: roundOrder's, with its groups taken smallest payload first (a stable
 * sort, so each group's members keep their shuffled places). The first group of a pass also warms
 * every code path, so when a 1 MiB group came first the page showed nothing for 6–8 s; small
 * payloads first put the first figures, and the live verdict, on screen in about three. Compared
 * cases share a group, so the order of groups moves no comparison; later rounds shuffle them
 * (orderForRound: except an A/B's).
 */
function smallFirstOrder<T extends Pick<PlannedCase, 'operation' | 'sizeBytes' | 'aadBytes'>>(xs: readonly T[], r: number): T[] {
  return roundOrder(xs, r).sort((a, b) => a.sizeBytes - b.sizeBytes);
}

/**
 * Round r's order: the first round's, and every round's of an A/B, smallest payload first
 * (smallFirstOrder); a later round's otherwise fully shuffled (roundOrder). A fresh worker warms
 * the code up in its first group and only calibrates the others. With 1 MiB first, each side of
 * an A/B warmed up for 0.4–1.1 s, one 110–150 ms call at a time (loaded Firefox, two sessions:
 * half of one's warm-up time, a tenth of the other's); with 64 B first, 10–400 ms a case. An A/B
 * reads only ratios within a group, which the groups' order does not move.
 */
export function orderForRound<T extends Pick<PlannedCase, 'operation' | 'sizeBytes' | 'aadBytes'>>(
  xs: readonly T[],
  r: number,
  params: Pick<RunParams, 'ab'>,
): T[] {
  return r === 0 || params.ab !== undefined ? smallFirstOrder(xs, r) : roundOrder(xs, r);
}

/**
 * The A/A check: one case measured a second time under another key, interleaved with itself,
 * as any two compared cases are. The two must come out SAME (decision.ts); when they do not,
 * the machinery — order, warm-up, buffers, the machine — moved a figure by itself, and every
 * small difference of the run is suspect. WASM AES-128-GCM at 1 KiB where planned (cheap and
 * in every run), else the plan's first case.
 */
export function aaTwin(plan: readonly PlannedCase[]): PlannedCase | null {
  const pick =
    plan.find((c) => c.implementation === 'rustcrypto-wasm' && c.algorithm === 'aes-128-gcm' && c.operation === 'encrypt' && c.sizeBytes === 1024) ??
    plan.find((c) => c.implementation === 'rustcrypto-wasm') ??
    plan[0];
  return pick ? { ...pick, key: aaTwinKey(pick.key) } : null;
}

/**
 * In an A/B run, the other side's twin beside the A/A twin: the A/A twin runs its original's
 * code a second time in every cycle of its group, and the other side's code ran once. The
 * module that ran twice as often read faster: two copies of one noble module, Firefox, 64 B
 * (the twin's size in a run of 64 B to 1 MiB), loaded, the head 4 % slower in odd and even rounds
 * alike, whatever the two were named, which loaded, warmed up or was planned first. Its
 * samples are measured and never read; with it each side runs twice. Null outside an A/B.
 */
export function balanceTwin(plan: readonly PlannedCase[], twin: PlannedCase | null, ab: RunParams['ab']): PlannedCase | null {
  const other = twin && otherSide(ab, twin.implementation);
  if (!twin || !other) return null;
  const pick = plan.find(
    (c) =>
      c.implementation === other &&
      c.algorithm === twin.algorithm &&
      c.operation === twin.operation &&
      c.sizeBytes === twin.sizeBytes &&
      c.aadBytes === twin.aadBytes,
  );
  return pick ? { ...pick, key: aaTwinKey(pick.key) } : null;
}
