import { migrate, openPglite } from './collector/db.ts';
import { refreshCohorts } from './collector/cohorts.ts';
import { appFor, post, submission } from './collector/harness/bodies.ts';
const sql = await openPglite(); await migrate(sql);
const app = appFor(sql, { refreshDelayMs: 2 ** 31 - 1 });
const nsFor = (mb: number) => (1024 * 1e9) / (mb * 1e6);
const phone = async (mb: number, from: string, identical = false) => { const ns = nsFor(mb); return (await post(app, submission({ deviceClass: 'phone', nsPerOp: ns, mutate: identical ? (d) => void (d.cases[0]!.samples = [ns, ns, ns]) : undefined }), { 'x-test-client': from })).status; };
const back = (d: number) => sql.query(`UPDATE submissions SET received_on = current_date - ${d} WHERE received_on = current_date`);
for (let run = 0; run < 6; run++) {
  await sql.query('TRUNCATE submissions, cohort_bounds, cohort_views, cohort_day_weights, rate_buckets, daily_counts CASCADE');
  let next = 0;
  for (let i = 0; i < 8; i++) await phone(510, `203.0.${i}.9`, true);
  await back(4); await refreshCohorts(sql);
  for (let d = 3; d >= 0; d--) { for (let i = 0; i < 6; i++) await phone(46 + (10 * ((5 * next++) % 12)) / 11, `198.${100 + d}.${i}.10`); if (d > 0) await back(d); await refreshCohorts(sql); }
  const st = (await (await appFor(sql).request('/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=phone')).json()).cohorts[0];
  const w = (await sql.query(`SELECT to_char(day,'MM-DD') d, w, wo FROM cohort_day_weights ORDER BY day`)).map((r: any) => `${r.d}:${Number(r.w).toFixed(3)}/${Number(r.wo).toFixed(2)}`).join(' ');
  const a = (await sql.query(`SELECT count(*) FILTER (WHERE arrived_outside)::int a, count(*) FILTER (WHERE outlier AND NOT no_spread)::int o FROM cases`))[0];
  console.log((st.median / 1e6).toFixed(2), w, JSON.stringify(a));
}
