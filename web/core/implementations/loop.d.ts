// Types of loop.js, which stays plain JavaScript so that each code path can load a fresh instance of it.
import type { AlgorithmId, Operation } from '../tables/algorithms.ts';
import type { CustomImplementation } from './custom.ts';

type Inputs = { key: Uint8Array; nonce: Uint8Array; aad: Uint8Array; pt: Uint8Array };
type Loop<R> = (
  impl: CustomImplementation,
  alg: AlgorithmId,
  inputs: Inputs,
  state: unknown,
  operation: Operation,
  sealed: Uint8Array,
  forged: Uint8Array,
) => (n: number) => R;

export declare const syncLoop: Loop<void>;
export declare const asyncLoop: Loop<Promise<void>>;
export declare function folded(): number;
