/** The engine's version, recorded in every result document; a test holds it to package.json's. */
export const ENGINE_VERSION = '0.1.0';
