/** How the worker finds the WASM cores and the vectors in Node (files beside this module). */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { BACKENDS } from '../implementations/backends.node.ts';
import type { Platform } from './types.ts';
import { nodeWorker } from './node-thread.ts';
import type { WycheproofVector } from '../implementations/validate.ts';
import { BUILD_INFO, GLUE, type Glue } from '../platform/builds.ts';
import { ctGlobals, ctSites } from '../ct.ts';

export const nodePlatform: Platform = {
  runtime: 'node',
  async loadCores(variant) {
    const glue = await GLUE[variant]();
    glue.initSync({ module: readFileSync(new URL(`../wasm/${variant}/cores_bg.wasm`, import.meta.url)) });
    return glue;
  },
  async loadCounter() {
    const counter = await import('../counter/counter.js');
    counter.initSync({ module: readFileSync(new URL('../counter/counter_bg.wasm', import.meta.url)) });
    return { instrument: counter.instrument, exportName: counter.counterExport(), trace: counter.traceConstantTime };
  },
  async loadCountedCores(variant) {
    const counter = await this.loadCounter!();
    const copy = counter.instrument(readFileSync(new URL(`../wasm/${variant}/cores_bg.wasm`, import.meta.url)));
    const glue = await GLUE[variant]();
    const exports = glue.initSync({ module: copy }) as unknown as Record<string, WebAssembly.Global>;
    const global = exports[counter.exportName]!;
    return { ...glue, ops: () => global.value as bigint };
  },
  async loadTracedCores(variant) {
    const counter = await this.loadCounter!();
    const copy = counter.trace!(readFileSync(new URL(`../wasm/${variant}/cores_bg.wasm`, import.meta.url)));
    // A glue module of its own (the query makes Node load it afresh): the timed cores keep theirs.
    const glue = (await import(`${new URL(`../wasm/${variant}/cores.js`, import.meta.url).href}?traced`)) as Glue;
    const exports = glue.initSync({ module: copy }) as unknown as Record<string, unknown>;
    return {
      algorithms: glue.algorithms,
      encrypt: glue.encrypt,
      decrypt: glue.decrypt,
      globals: ctGlobals(exports),
      sites: ctSites(new WebAssembly.Module(copy as Uint8Array<ArrayBuffer>)),
    };
  },
  async loadBuildInfo(variant) {
    return BUILD_INFO[variant];
  },
  async loadVectors(algorithms) {
    const all: WycheproofVector[] = JSON.parse(readFileSync(new URL('../vectors/wycheproof.json', import.meta.url), 'utf8')).vectors;
    return all.filter((v) => (algorithms as readonly string[]).includes(v.algorithm));
  },
  backends: BACKENDS,
  startThread: nodeWorker,
  async loadModule(url) {
    // A path or a file: URL; the bytes hashed are the file imported.
    const href = /^[a-z][a-z0-9+.-]*:/i.test(url) && !/^[a-z]:[\\/]/i.test(url) ? url : pathToFileURL(url).href;
    const bytes = new Uint8Array(await readFile(new URL(href)));
    return { exports: await import(href), bytes };
  },
};
