/** `aeadbench compare`: the engine's comparison (web/core/compare.ts), kept at the package's `./compare` path. */
export * from '../web/core/compare.ts';
