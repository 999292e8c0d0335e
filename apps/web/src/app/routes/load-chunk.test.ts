import { describe, expect, it, vi } from 'vitest';
import {
  ChunkLoadError,
  chunkLoadTimeoutMs,
  isChunkLoadError,
  lazyRoute,
  loadChunk,
} from './load-chunk';

describe('loadChunk (spec 002 §8, §9)', () => {
  it('fails with a ChunkLoadError once the chunk has not loaded after 120 s', async () => {
    vi.useFakeTimers();
    const result = loadChunk(() => new Promise<never>(() => undefined)).catch((error) => error);
    let settled: unknown = null;
    void result.then((value) => {
      settled = value;
    });

    await vi.advanceTimersByTimeAsync(chunkLoadTimeoutMs - 1);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(ChunkLoadError);
    expect((settled as Error).name).toBe('ChunkLoadError');
  });

  it('turns a refused import into a ChunkLoadError and passes a loaded module through', async () => {
    const refused = new TypeError('Failed to fetch dynamically imported module: /assets/a.js');
    const error = await loadChunk(() => Promise.reject(refused)).catch((caught) => caught);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as Error).cause).toBe(refused);
    await expect(loadChunk(() => Promise.resolve({ Page: 1 }))).resolves.toEqual({ Page: 1 });
  });

  it('recognises the browsers’ messages for a failed dynamic import', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: x'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('The support screen crashed'))).toBe(false);
  });
});

describe('lazyRoute', () => {
  it('resolves a failed chunk to a screen that throws its ChunkLoadError (a rejection leaves a blank page)', async () => {
    const route = await lazyRoute(() =>
      Promise.reject(new TypeError('Importing a module script failed.')),
    );
    expect(() => (route as { Component: () => unknown }).Component()).toThrow(ChunkLoadError);
    await expect(lazyRoute(async () => ({ element: 'page' }))).resolves.toEqual({
      element: 'page',
    });
  });
});
