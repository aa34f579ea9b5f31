/**
 * A submission's columns, once: each field of the kept submission (submission.ts Reduced), its
 * column in `submissions`, and its SQL type. The writer's INSERT and its record type, the
 * permalink's and the export's SELECTs and the CSV header are made from these lists, so a
 * column added here reaches every one of them (and its migration is the only other edit).
 * @module
 */
import type { StoredResult } from '../web/core/permalink.ts';
import type { Reduced } from './submission.ts';

interface Column {
  field: keyof Reduced;
  column: string;
  type: 'uuid' | 'text' | 'int' | 'smallint' | 'real' | 'boolean';
}

/** Where and how it ran: what the permalink serves and the export carries, in their order. */
export const RUN_COLUMNS = [
  { field: 'deviceClass', column: 'device_class', type: 'text' },
  { field: 'deviceModel', column: 'device_model', type: 'text' },
  { field: 'browser', column: 'browser', type: 'text' },
  { field: 'browserMajor', column: 'browser_major', type: 'int' },
  { field: 'engine', column: 'engine', type: 'text' },
  { field: 'os', column: 'os', type: 'text' },
  { field: 'osMajor', column: 'os_major', type: 'int' },
  { field: 'arch', column: 'arch', type: 'text' },
  { field: 'cores', column: 'cores', type: 'int' },
  { field: 'memoryBucket', column: 'memory_bucket', type: 'smallint' },
  { field: 'runtime', column: 'runtime', type: 'text' },
  { field: 'execution', column: 'execution', type: 'text' },
  { field: 'isolated', column: 'isolated', type: 'boolean' },
  { field: 'timerUs', column: 'timer_us', type: 'real' },
  { field: 'preset', column: 'preset', type: 'text' },
  { field: 'scenario', column: 'scenario', type: 'text' },
] as const satisfies readonly (Column & { field: keyof StoredResult })[];

/** Every column the writer fills: the submission's identity and hash, where it ran, its source. */
export const WRITTEN_COLUMNS = [
  { field: 'id', column: 'id', type: 'uuid' },
  { field: 'payloadSha256', column: 'payload_sha256', type: 'text' },
  { field: 'schemaVersion', column: 'schema_version', type: 'text' },
  { field: 'engineVersion', column: 'engine_version', type: 'text' },
  ...RUN_COLUMNS,
  { field: 'source', column: 'source', type: 'text' },
] as const satisfies readonly Column[];

/** `a, b, c` from a list. */
export const listOf = <T>(cols: readonly T[], f: (c: T) => string) => cols.map(f).join(', ');
