/**
 * The collector's API description as served at /api/v1/openapi.json: openapi.json's routes,
 * shapes and prose, with every list of ids filled in from the table it comes from when this
 * module is read (`"x-enum": "<table>"` in the file), so an id added to a table is documented
 * without touching the file, and the file holds no copy that could drift.
 * @module
 */
import { ALGORITHM_IDS, IMPLEMENTATION_IDS, OPERATIONS } from '../web/core/tables/algorithms.ts';
import { ENGINE_NAMES } from '../web/core/platform/env.ts';
import { EXECUTION_MODES } from '../web/core/execution.ts';
import { DEVICE_CLASSES, DEVICE_FAMILY_NAMES } from '../web/core/submit.ts';
import { GROUP_BY } from './crowd.ts';
import described from './openapi.json' with { type: 'json' };

/** Each table a list in openapi.json may name. */
export const ENUM_TABLES: Record<string, readonly string[]> = {
  algorithms: ALGORITHM_IDS,
  implementations: IMPLEMENTATION_IDS,
  operations: OPERATIONS,
  engines: ENGINE_NAMES,
  executionModes: EXECUTION_MODES,
  deviceClasses: DEVICE_CLASSES,
  deviceFamilies: DEVICE_FAMILY_NAMES,
  groupBy: Object.keys(GROUP_BY),
};

/** A copy of `doc` with every `"x-enum": name` replaced by `"enum": [the table's ids]`; an unknown name is an error naming it. */
export function withTables<T>(doc: T): T {
  const fill = (o: unknown): unknown => {
    if (Array.isArray(o)) return o.map(fill);
    if (!o || typeof o !== 'object') return o;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k !== 'x-enum') out[k] = fill(v);
      else if (typeof v === 'string' && v in ENUM_TABLES) out.enum = [...ENUM_TABLES[v]!];
      else throw new Error(`openapi.json: "x-enum": ${JSON.stringify(v)} names no table (${Object.keys(ENUM_TABLES).join(', ')})`);
    }
    return out;
  };
  return fill(doc) as T;
}

export const OPENAPI = withTables(described);
