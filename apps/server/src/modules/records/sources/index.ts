import type { ChainKind } from '../chain';
import type { ChainSource } from './types';

/** Every kind's source (one file per kind in this folder); the verifier walks them all. */
export const chainSources: Partial<Record<ChainKind, ChainSource<never>>> = {};
