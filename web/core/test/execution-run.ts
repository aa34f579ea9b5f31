// Run by execution.test.ts in a Node started with V8 flags (--jitless, --max-opt=0): a small
// run through the package's Node entry, printed as the parts of its document the test reads.
import { runBenchmark } from '../node.ts';
import { probeExecution } from '../execution.ts';
import { verdict } from '../report/verdict.ts';

if (process.argv[2] === 'probe') {
  console.log(JSON.stringify(probeExecution(0.001)));
} else if (process.argv[2] === 'tries') {
  // Every try's overlap over `argv[3]` probes, and each probe's mode.
  const tries: number[] = [];
  const modes: string[] = [];
  for (let i = 0; i < Number(process.argv[3]); i++) modes.push(probeExecution(0.001, { onTry: (_, o) => tries.push(o) }).mode);
  console.log(JSON.stringify({ tries, modes }));
} else {
  const doc = await runBenchmark({
    preset: 'quick',
    algorithms: ['aes-128-gcm'],
    sizes: [1024],
    operations: ['encrypt'],
    rounds: 1,
    maxReruns: 0,
    samplesPerRound: 5,
    minSampleMs: 2,
  });
  console.log(
    JSON.stringify({
      execution: doc.environment.execution,
      cases: doc.cases.map((c) => c.implementation),
      skipped: doc.skipped,
      warnings: doc.warnings,
      verdict: verdict(doc).sentences[0] ?? null,
    }),
  );
}
