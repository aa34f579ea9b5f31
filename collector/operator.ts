/**
 * What the operator's commands (quarantine.ts, review.ts) share: the store the collector uses,
 * migrated and closed afterwards, their command lines, and running as a command.
 * @module
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { migrate, openStore, type Sql } from './db.ts';
import { configFromEnv } from './config.ts';

/**
 * Runs `fn` on the collector's store (DATABASE_URL, else the PGlite directory COLLECTOR_DATA,
 * never created here: a running collector holds it, and the lock refuses a second process).
 */
export async function withStore<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = await openStore({ ...configFromEnv(), createDataDir: false });
  try {
    await migrate(sql);
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

/** Runs `main` with the command line when `moduleUrl` is the script node was started with; exits with its code. */
export function runAsCommand(moduleUrl: string, name: string, main: (argv: string[]) => Promise<number>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      console.error(`${name}: ${e.message}`);
      process.exit(1);
    },
  );
}

/**
 * A command line as node:util's parseArgs reads it, except that the word after a string
 * option is always its value: a source is a base64url hash, and one in 64 begins with '-',
 * which parseArgs refuses as ambiguous after `--source` (so the usage's own form failed).
 */
export function operatorArgs<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  const takesValue = new Set(
    Object.entries(options)
      .filter(([, o]) => o.type === 'string')
      .map(([name]) => `--${name}`),
  );
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (takesValue.has(a) && i + 1 < argv.length) args.push(`${a}=${argv[++i]}`);
    else args.push(a);
  }
  return parseArgs({ args, options });
}
