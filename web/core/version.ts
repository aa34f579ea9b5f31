/** The engine's version, recorded in every result document (kept equal to package.json's). */
export const ENGINE_VERSION = '0.1.0';
