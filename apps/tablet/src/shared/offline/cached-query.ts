import type { QueryClient } from '@tanstack/react-query';
import { apiRequest, NetworkError } from '../api/client';
import { readValue, writeValue } from '../storage/local-db';

type Cached<T> = { value: T; saved_at: number };

const savedAt = new Map<string, number>();

/** When the kept copy of a list was read from the server (ms epoch), if known. */
export function cachedQuerySavedAt(name: CachedQueryName): number | null {
  return savedAt.get(name) ?? null;
}

/** The lists the tablet keeps for working offline, by query key. */
export const cachedQueries = {
  employees: { key: ['employees'], path: '/device/employees' },
  elements: { key: ['elements'], path: '/device/elements' },
  tasks: { key: ['tasks'], path: '/device/tasks' },
  /** The store's probe alert episodes still open or not acknowledged (features/alerts). */
  alerts: { key: ['alerts'], path: '/device/alerts' },
  /** The store's orderable shop items (features/shop). */
  shop: { key: ['device-shop'], path: '/device/shop' },
} as const;
export type CachedQueryName = keyof typeof cachedQueries;

/**
 * Reads from the server and keeps the answer in IndexedDB; without network, answers the kept
 * copy (the screens work from it), and fails only when there is none.
 */
export async function fetchCached<T>(name: CachedQueryName): Promise<T> {
  const { path } = cachedQueries[name];
  try {
    const value = await apiRequest<T>(path, { timeoutMs: 8000 });
    const now = Date.now();
    await writeValue(`cache:${name}`, { value, saved_at: now } satisfies Cached<T>);
    savedAt.set(name, now);
    return value;
  } catch (error) {
    if (error instanceof NetworkError) {
      const kept = await readValue<Cached<T>>(`cache:${name}`);
      if (kept) return kept.value;
    }
    throw error;
  }
}

/** Boot: the kept copies go into the query cache first, so screens show at once, offline too. */
export async function hydrateCachedQueries(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    (Object.keys(cachedQueries) as CachedQueryName[]).map(async (name) => {
      const kept = await readValue<Cached<unknown>>(`cache:${name}`);
      if (kept) savedAt.set(name, kept.saved_at);
      // Shown at once, and stale at once: the screens ask the server again when they mount.
      if (kept) queryClient.setQueryData(cachedQueries[name].key, kept.value, { updatedAt: 0 });
    }),
  );
}

export function cachedQueryOptions<T>(name: CachedQueryName) {
  return {
    queryKey: cachedQueries[name].key,
    queryFn: () => fetchCached<T>(name),
  };
}
