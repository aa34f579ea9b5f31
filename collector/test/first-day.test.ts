// A crowd that holds from its first day: no cohort captured by its first voices, no honest
// newcomer frozen out, a split burst slow and listed for the operator, nothing published below
// a floor of evidence, and daily caps that hold when a thousand posts race. Days are played by
// moving what arrived "today" back in time (received_on is a day, nothing finer).
import { describe, expect, it } from 'vitest';
import { type Sql, migrate, openPostgres } from '../db.ts';
import { refreshCohorts } from '../cohorts.ts';
import { CROWD_FLOOR, placeIn } from '../crowd.ts';
import { CONTEST_NETWORKS, acceptDay, formatMoving, main as reviewMain, movingCohorts, parseBurst, quarantineDay } from '../review.ts';
import {
  DAY_MIN_WEIGHT,
  DAY_SHARE,
  type DayVoices,
  OUTSIDE_CAP,
  OUTSIDE_QUORUM,
  dayWeights,
  voiceWeights,
  weightedQuantile,
  weightedQuantilesSql,
} from '../weights.ts';
import { addressCap } from '../writer.ts';
import { BACKENDS, appFor, freshDatabase, openBackend, post, submission, useBackend } from './helpers.ts';

const STATS = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=phone';
const nsFor = (mbPerS: number) => (1024 * 1e9) / (mbPerS * 1e6);
/** The honest phones' figures: 46–56 MB/s, as the issue's cohort around 51. */
const honestMb = (i: number, of: number) => 46 + (10 * i) / Math.max(1, of - 1);

describe('weights and weighted quantiles', () => {
  it('give the first day its voices, and each later day at most a tenth of the weight before it, or one voice', () => {
    expect(dayWeights([12, 8, 8, 8])).toEqual([12, expect.closeTo(1.2, 9), expect.closeTo(1.32, 9), expect.closeTo(1.452, 9)]);
    expect(dayWeights([3, 10, 10])).toEqual([3, DAY_MIN_WEIGHT, DAY_MIN_WEIGHT]);
    expect(dayWeights([200, 5])).toEqual([200, 5]); // a few newcomers to a large cohort weigh one each
    expect(dayWeights([0, 6, 6])).toEqual([0, 6, DAY_MIN_WEIGHT]); // the first day with voices is the first day
    expect(DAY_SHARE).toBe(0.1);
  });

  it("weigh a voice that arrived outside the fences a fifth of its day's share, unless five networks brought such voices that day", () => {
    const [first, lone, crowd] = voiceWeights([{ voices: 12 }, { voices: 1, outside: 1 }, { voices: 6, outside: 6 }]);
    expect(first!.inside).toBe(1); // the first day's voices weigh one each
    expect(lone!.outside).toBeCloseTo(1 / OUTSIDE_QUORUM, 12); // one network's fake of the day
    expect(crowd!.outside).toBe(crowd!.inside); // six networks disagreeing that day count as anyone
    expect(OUTSIDE_QUORUM).toBe(5);
  });

  it('let no number of days of voices outside a published figure reach a majority: a fifth of the inside at most, and they draw no later share', () => {
    // Twelve honest phones over two days (a published figure), then six fresh networks a day
    // outside its fences for 30 days, with and without one honest newcomer a day.
    for (const newcomer of [0, 1]) {
      const days: DayVoices[] = [{ voices: 6 }, { voices: 6 }, ...Array.from({ length: 30 }, () => ({ voices: 6 + newcomer, outside: 6 }))];
      const w = voiceWeights(days);
      let inside = 0;
      let outside = 0;
      days.forEach((d, i) => {
        inside += w[i]!.inside * (d.voices - (d.outside ?? 0));
        outside += w[i]!.outside * (d.outside ?? 0);
        // On every day, the fakes together weigh no more than OUTSIDE_CAP of the honest.
        expect(outside).toBeLessThanOrEqual(OUTSIDE_CAP * inside + 1e-9);
      });
      // Ten times the honest figure, at a sixth of the weight: the weighted median stays among the honest.
      const values = days.flatMap((d, i) => [
        ...Array.from({ length: d.voices - (d.outside ?? 0) }, (_, k) => ({ x: 46 + ((k * 5 + i) % 11), w: w[i]!.inside })),
        ...Array.from({ length: d.outside ?? 0 }, () => ({ x: 510, w: w[i]!.outside })),
      ]);
      values.sort((a, b) => a.x - b.x);
      const median = weightedQuantile(
        values.map((v) => v.x),
        values.map((v) => v.w),
        0.5,
      );
      expect(median).toBeLessThan(56);
    }
    // Before a figure is published (one day of voices), a crowd outside counts as anyone: an early false majority is overturned.
    const [, crowd] = voiceWeights([{ voices: 8 }, { voices: 6, outside: 6 }]);
    expect(crowd!.outside).toBe(crowd!.inside);
  });

  it('interpolate between the middles of neighbouring weights, as percentile_cont does for equal ones', () => {
    expect(weightedQuantile([1, 2, 3, 4], [1, 1, 1, 1], 0.5)).toBe(2.5);
    expect(weightedQuantile([1, 2, 3], [1, 1, 1], 0.5)).toBe(2);
    // The heavy voice's middle is at 0.45, the light one's at 0.95: q = 0.5 lies a tenth of the way.
    expect(weightedQuantile([1, 10], [9, 1], 0.5)).toBeCloseTo(1.9, 12);
    expect(weightedQuantile([1, 10], [9, 1], 0.45)).toBe(1);
    expect(weightedQuantile([1, 10], [1, 1], 0.01)).toBe(1);
    expect(weightedQuantile([1, 10], [1, 1], 0.99)).toBe(10);
  });

  it('do not depend on the order of a tie: equal values are one point with their weights summed', () => {
    const a = weightedQuantile([46, 46, 50, 55], [1, 1 / 6, 1, 1 / 6], 0.5);
    const b = weightedQuantile([46, 46, 50, 55], [1 / 6, 1, 1, 1 / 6], 0.5);
    expect(a).toBe(b);
    expect(a).toBe(weightedQuantile([46, 50, 55], [7 / 6, 1, 1 / 6], 0.5));
  });

  it('place a figure by the weight below it', () => {
    expect(placeIn({ n: 2, values: [1, 10], weights: [9, 1] }, 5)).toBe(90);
    expect(placeIn({ n: 4, values: [1, 2, 3, 4] }, 2.5)).toBe(50);
  });
});

describe.each(BACKENDS)('a crowd that holds from its first day, on %s', (kind) => {
  let sql!: Sql;
  let app!: ReturnType<typeof appFor>;
  useBackend(kind, (s, a) => ((sql = s), (app = a)));

  /** The phone cohort as a client sees it now (a new app: nothing cached). */
  const phones = async () =>
    (await (await appFor(sql).request(STATS)).json()).cohorts[0] as {
      n: number;
      days: number;
      median?: number;
      tooFew: boolean;
      outliers: number;
      underReview: boolean;
    };
  /** Moves everything stored today to `daysAgo` days before today, as if it had arrived then. */
  const backdate = async (daysAgo: number) => {
    await sql.query(`UPDATE submissions SET received_on = current_date - ${daysAgo} WHERE received_on = current_date`);
  };
  const phone = async (mbPerS: number, from: string, samples?: number[]) => {
    const r = await post(app, submission({ deviceClass: 'phone', nsPerOp: nsFor(mbPerS), mutate: samples && ((d) => void (d.cases[0]!.samples = samples)) }), {
      'x-test-client': from,
    });
    expect(r.status).toBe(201);
  };
  /** `n` honest phones on networks of their own, 46–56 MB/s; `tag` keeps networks apart across days. */
  const honest = async (n: number, tag: number) => {
    for (let i = 0; i < n; i++) await phone(honestMb(i, n), `198.${51 + tag}.${i}.10`);
  };
  /** Ends a played day: what arrived today moves to `daysAgo`, and the cohort is refreshed as the server would. */
  const endDay = async (daysAgo: number) => {
    await backdate(daysAgo);
    await refreshCohorts(sql);
  };
  const HONEST_MEDIAN = 51e6;
  const plainVariant = submission().result.cases[0]!.variant;

  it('8 identical fakes on day 0, then 6 honest phones a day for 4 days: day 5 shows the honest median, over 24 honest voices', async () => {
    // Identical samples, 10× faster, from 8 /24s, into a cohort nobody had used.
    const fake = nsFor(510);
    for (let i = 0; i < 8; i++) await phone(510, `203.0.${i}.9`, [fake, fake, fake]);
    await endDay(5);
    for (let day = 4; day >= 1; day--) {
      await honest(6, day);
      await endDay(day);
    }
    const now = await phones();
    expect(now).toMatchObject({ n: 24, tooFew: false, outliers: 8 });
    expect(Math.abs(now.median! / HONEST_MEDIAN - 1)).toBeLessThan(0.05);
  });

  it('an early false majority with jitter is overturned by later honest days, slowly: fakes flagged, honest counted again', async () => {
    // Eight fakes that look measured (their samples vary), 10× faster, alone on day 0.
    for (let i = 0; i < 8; i++) await phone(500 + i * 3, `203.0.${i}.9`);
    await endDay(12);
    await honest(6, 12);
    await endDay(11);
    // The first day's majority flags the honest day, but eight voices of one day show nothing.
    expect(await phones()).toMatchObject({ n: 8, days: 1, tooFew: true, outliers: 6 });
    for (let day = 10; day >= 1; day--) {
      await honest(6, day);
      await endDay(day);
    }
    const now = await phones();
    // Day 0 weighs 8; each later day adds max(1, a tenth): the honest outweigh it after 9 days.
    expect(Math.abs(now.median! / HONEST_MEDIAN - 1)).toBeLessThan(0.05);
    expect(now).toMatchObject({ n: 66, outliers: 8 });
  });

  it('12 honest phones, then 9 look-alike fakes and 3 honest newcomers a day for 4 days: every newcomer counts', async () => {
    await honest(12, 0);
    await endDay(5);
    for (let day = 4; day >= 1; day--) {
      for (let i = 0; i < 9; i++) await phone(honestMb(i, 9), `${30 + day}.${i}.7.7`);
      await honest(3, day);
      await endDay(day);
    }
    const now = await phones();
    expect(now.n).toBeGreaterThanOrEqual(24);
    expect(now.n).toBe(12 + 4 * 12); // nobody held, nobody flagged
    expect(Math.abs(now.median! / HONEST_MEDIAN - 1)).toBeLessThan(0.05);
  });

  it('12 honest phones, then 8 fakes a day at 1.3× from 8 /24s: under 5 % through day 3, and the review lists the cohort with the days that moved it', async () => {
    await honest(12, 0);
    await endDay(3);
    const before = HONEST_MEDIAN; // one day of voices shows no figure yet (the floor)
    for (let day = 2; day >= 0; day--) {
      for (let i = 0; i < 8; i++) await phone(1.3 * 51 * (1 + (i - 4) / 200), `${40 + day}.${i}.8.8`);
      if (day > 0) await endDay(day);
      else await refreshCohorts(sql);
      const now = await phones();
      expect(Math.abs(now.median! / before - 1)).toBeLessThan(0.05);
      expect(now.outliers).toBe(0); // inside the fences: diluted, not flagged
    }
    const [moving, ...others] = await movingCohorts(sql);
    expect(others).toEqual([]);
    expect(moving).toMatchObject({ algorithm: 'aes-128-gcm', implementation: 'rustcrypto-wasm', operation: 'encrypt', sizeBytes: 1024, deviceClass: 'phone' });
    expect(moving!.moved).toBeGreaterThan(0.02);
    const busy = moving!.days.filter((d) => d.networks > 0);
    expect(busy.map((d) => d.networks)).toEqual([12, 8, 8, 8]);
    expect(busy.slice(1).every((d) => d.median! / (1.3 * 51e6) > 0.99 && d.median! / (1.3 * 51e6) < 1.01)).toBe(true);
    expect(busy.slice(1).every((d) => d.weightShare < 0.1)).toBe(true);
    const printed = formatMoving([moving!]).join('\n');
    expect(printed).toContain('8 networks at 66.');
    // The operator takes the last day's runs out; the figure and the log say so.
    const lastDay = busy[busy.length - 1]!.day;
    expect(await quarantineDay(sql, { ...moving!, day: lastDay }, 'test: a split burst')).toBe(8);
  });

  it('a published figure against six fresh networks a day at 10× for ten days, with an honest newcomer a day: within 5 % on every day, listed as contested until the operator decides', async () => {
    await honest(6, 0);
    await endDay(12);
    await honest(6, 1);
    await endDay(11);
    expect((await phones()).underReview).toBe(false);
    for (let day = 10; day >= 1; day--) {
      for (let i = 0; i < 6; i++) await phone(510 * (1 + (i - 3) / 200), `${60 + day}.${i}.9.9`);
      await honest(1, 20 + day);
      await endDay(day);
      const now = await phones();
      expect(Math.abs(now.median! / HONEST_MEDIAN - 1)).toBeLessThan(0.05);
      // Six networks outside its fences, undecided: the public answer says the cohort is under review.
      expect(now.underReview).toBe(true);
    }
    const [listed, ...others] = await movingCohorts(sql);
    expect(others).toEqual([]);
    expect(listed!.contested.reduce((n, d) => n + d.networks, 0)).toBe(60);
    expect(formatMoving([listed!]).join('\n')).toContain('contested: 60 networks outside the fences on 10 days');
    // The operator quarantines nine of the days and accepts the last: nothing is left undecided.
    for (const d of listed!.contested.slice(0, 9)) expect(await quarantineDay(sql, { ...listed!, day: d.day }, 'test: sleeper')).toBe(7);
    expect(await acceptDay(sql, { ...listed!, day: listed!.contested[9]!.day }, 'test: taken as measured')).toBe(6);
    expect((await movingCohorts(sql)).flatMap((m) => m.contested)).toEqual([]);
    expect((await phones()).underReview).toBe(false);
    expect(CONTEST_NETWORKS).toBe(OUTSIDE_QUORUM);
  });

  it('publishes nothing below the floor of evidence, and says how many voices there are', async () => {
    await honest(12, 0); // twelve voices, one day
    await refreshCohorts(sql);
    expect(await phones()).toEqual({ group: 'phone', deviceClass: 'phone', n: 12, days: 1, runs: 12, outliers: 0, underReview: false, tooFew: true });
    const p = await (await appFor(sql).request(`${STATS.replace('/stats', '/percentile')}&bytesPerSecond=51000000`)).json();
    expect(p).toMatchObject({ n: 12, days: 1, tooFew: true, percentile: null });
    await endDay(1);
    await honest(CROWD_FLOOR.voices - 1, 1);
    await refreshCohorts(sql);
    expect(await phones()).toMatchObject({ n: 12 + CROWD_FLOOR.voices - 1, days: 2, tooFew: false });
  });

  it('computes weighted quantiles in SQL exactly as weights.ts does, ties and all, whatever order the rows come in', async () => {
    const xs = [46, 46, 46.9, 48.7, 50.5, 50.5, 53.3, 55.1, 56];
    const ws = [1, 1 / 6, 1, 1 / 6, 1, 1 / 6, 1, 0.5, 1 / 6];
    const qs = [0.05, 0.25, 0.5, 0.75, 0.95];
    for (const order of [xs.map((_, i) => i), xs.map((_, i) => xs.length - 1 - i)]) {
      const values = order.map((i) => `(${xs[i]}::float8, ${ws[i]}::float8)`).join(', ');
      const rows = await sql.query<{ q: number; x: number }>(
        `${weightedQuantilesSql(`SELECT x, w FROM (VALUES ${values}) AS v(x, w)`, [], `ARRAY[${qs.join(', ')}]::float8[]`)} ORDER BY 1`,
      );
      expect(rows.map((r) => Number(r.x))).toEqual(qs.map((q) => expect.closeTo(weightedQuantile(xs, ws, q), 9)));
      const even = await sql.query<{ q: number; x: number }>(
        `${weightedQuantilesSql(`SELECT x, w FROM (VALUES ${values}) AS v(x, w)`, [], { even: 11 })} ORDER BY 1`,
      );
      expect(even.map((r) => Number(r.x))).toEqual(Array.from({ length: 11 }, (_, i) => expect.closeTo(weightedQuantile(xs, ws, i / 10), 9)));
    }
  });

  it('keeps a case with associated data, or of another variant, out of the plain cohort: each is a cohort of its own', async () => {
    await honest(6, 0);
    await endDay(1);
    await honest(6, 1);
    await refreshCohorts(sql);
    const plain = await phones();
    expect(plain).toMatchObject({ n: 12, tooFew: false });
    // Ten times slower, with 64 KiB of AAD, and ten more from the baseline build: neither moves it.
    for (let i = 0; i < 3; i++) {
      const withAad = submission({
        deviceClass: 'phone',
        nsPerOp: nsFor(5),
        mutate: (d) => ((d.params.aadBytes = [0, 65536]), (d.cases[0]!.aadBytes = 65536)),
      });
      expect((await post(app, withAad, { 'x-test-client': `203.0.${i}.40` })).status).toBe(201);
      const baseline = submission({ deviceClass: 'phone', nsPerOp: nsFor(5), mutate: (d) => void (d.cases[0]!.variant = 'baseline') });
      expect((await post(app, baseline, { 'x-test-client': `203.0.${i}.41` })).status).toBe(201);
    }
    await refreshCohorts(sql);
    expect(await phones()).toMatchObject({ n: 12, median: plain.median, outliers: 0 });
    const of = async (extra: string) => (await (await appFor(sql).request(`${STATS}${extra}`)).json()).cohorts[0] as { n: number };
    expect(await of('&aad=65536')).toMatchObject({ n: 3 });
    expect(await of('&variant=baseline')).toMatchObject({ n: 3 });
    expect(await of(`&variant=${plainVariant}&aad=0`)).toMatchObject({ n: 12 });
    expect((await appFor(sql).request(`${STATS}&variant=Not%20one`)).status).toBe(400);
  });

  it('a fresh voice counts as one until its cohort is weighed, then as its day may', async () => {
    await honest(12, 0);
    await endDay(1);
    for (let i = 0; i < 20; i++) await phone(60, `${60 + i}.1.1.1`);
    const unweighed = await phones();
    await refreshCohorts(sql);
    const weighed = await phones();
    expect(unweighed.n).toBe(32);
    expect(weighed.n).toBe(32);
    expect(weighed.median!).toBeLessThan(unweighed.median!);
  });
});

describe.each(BACKENDS)('daily caps under a race, on %s', (kind) => {
  it('2,032 concurrent posts from 254 addresses of one /24 store at most the cap, and one address takes at most its share', async () => {
    // On PostgreSQL two connections share one database, as two collector processes behind a balancer.
    const url = kind === 'postgres' ? await freshDatabase() : null;
    const sql = url ? await openPostgres(url) : await openBackend(kind);
    if (url) await migrate(sql);
    const second = url ? await openPostgres(url) : null;
    try {
      const cap = 100;
      const apps = [appFor(sql, { sourceDailyCap: cap }), appFor(second ?? sql, { sourceDailyCap: cap })];
      const statuses = await Promise.all(
        Array.from({ length: 2032 }, (_, i) =>
          Promise.resolve(post(apps[i % 2]!, submission(), { 'x-test-client': `192.0.2.${(i % 254) + 1}` })).then((r) => r.status),
        ),
      );
      const [stored] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM submissions');
      expect(Number(stored!.n)).toBeLessThanOrEqual(cap);
      expect(Number(stored!.n)).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 201).length).toBe(Number(stored!.n));
      expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
      // One address of a network: its share, then refused while its neighbours still send.
      await sql.query('TRUNCATE submissions CASCADE');
      await sql.query('TRUNCATE daily_counts');
      const one = [];
      for (let i = 0; i < addressCap({ network: cap }) + 1; i++) one.push((await post(apps[0]!, submission(), { 'x-test-client': '198.18.5.5' })).status);
      expect(one.filter((s) => s === 201)).toHaveLength(addressCap({ network: cap }));
      const refused = await post(apps[0]!, submission(), { 'x-test-client': '198.18.5.5' });
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toContain('this address already sent 25 results today');
      expect((await post(apps[0]!, submission(), { 'x-test-client': '198.18.5.6' })).status).toBe(201);
    } finally {
      await second?.close();
      await sql.close();
    }
  }, 120_000);
});

describe('the review command', () => {
  it('names a malformed cohort day, and refuses bad flags and a missing reason with its usage (exit 2)', async () => {
    expect(() => parseBurst('aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone')).toThrow(
      "Invalid burst: 'aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone' (expected algorithm/implementation/operation/size/class/day, as the list prints it)",
    );
    expect(parseBurst('aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26')).toEqual({
      algorithm: 'aes-128-gcm',
      implementation: 'rustcrypto-wasm',
      operation: 'encrypt',
      sizeBytes: 1024,
      deviceClass: 'phone',
      day: '2026-11-26',
    });
    expect(await reviewMain(['--quarantine', 'nope', '--reason', 'x'])).toBe(2);
    expect(await reviewMain(['--quarantine', 'aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26'])).toBe(2); // no reason
    expect(await reviewMain(['--release', 'x'])).toBe(2); // nothing is held, so nothing is released
  });
});
