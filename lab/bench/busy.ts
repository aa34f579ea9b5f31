/**
 * One core busy, as a loaded CI runner or a phone with an app in the background has it: a
 * CPU-bound process pinned to core 0 (with taskset where it exists), until stopped. The
 * benchmarks that hold a figure to "one core busy" start it around their runs.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

export function burnOneCore(): ChildProcess {
  const loop = [process.execPath, '-e', 'for (;;) {}'];
  const pinned = spawnSync('taskset', ['--version']).status === 0;
  return pinned ? spawn('taskset', ['-c', '0', ...loop], { stdio: 'ignore' }) : spawn(loop[0]!, loop.slice(1), { stdio: 'ignore' });
}
