// Vitest global setup: one real PostgreSQL for the collector suites, shared through inject().
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../harness/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const pg = await startPostgres();
  project.provide('databaseUrl', pg.url);
  return () => pg.stop();
}
