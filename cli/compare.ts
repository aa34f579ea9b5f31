/** `aeadbench compare`: the engine's comparison (web/core/report/compare.ts), kept at the package's `./compare` path. */
export * from '../web/core/report/compare.ts';
