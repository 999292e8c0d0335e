import type { ComponentType } from 'react';

/** A script chunk that has not loaded after this long fails (spec 002 §8, §9). */
export const chunkLoadTimeoutMs = 120_000;

/** A chunk of the app (a screen's code) that could not be loaded: the page must be reloaded. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/**
 * What browsers and Vite say when a dynamic import fails: Chromium, Firefox, Safari, a CSS
 * preload of Vite, webpack-style names.
 */
const chunkFailureMessage =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i;

/** Whether an error means that the app's code could not be downloaded. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'ChunkLoadError' || chunkFailureMessage.test(error.message))
  );
}

/**
 * Loads a lazy chunk (`() => import(...)`), failing with a ChunkLoadError when the import is
 * refused or has not settled after `timeoutMs`: the route's error boundary then offers to
 * reload instead of leaving a blank page.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = chunkLoadTimeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`The chunk did not load within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof ChunkLoadError
            ? error
            : new ChunkLoadError(error instanceof Error ? error.message : String(error), {
                cause: error,
              }),
        );
      },
    );
  });
}

/**
 * A route's `lazy` (its chunk, within the timeout). React Router renders nothing below a route
 * whose `lazy` rejected — a blank page — so a failure resolves instead to a screen that throws
 * the ChunkLoadError, which the route's error boundary turns into the reload prompt.
 */
export async function lazyRoute<T extends object>(
  load: () => Promise<T>,
  timeoutMs = chunkLoadTimeoutMs,
): Promise<T | { Component: ComponentType }> {
  try {
    return await loadChunk(load, timeoutMs);
  } catch (error) {
    return {
      Component: () => {
        throw error;
      },
    };
  }
}
