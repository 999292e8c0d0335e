import type { statsStoresResponseSchema } from '@mise/shared/communications/schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../api/api-client';

export type StatsStoresPage = z.infer<typeof statsStoresResponseSchema>;
export type StatsStore = StatsStoresPage['items'][number];

/**
 * Whose statistics a table reads: the API path of a communication or a training
 * (`/communications/:id`, `/trainings/:id`) and the query key of its statistics (a save
 * invalidates it).
 */
export type StatsSource = { apiPath: string; queryKey: readonly unknown[] };

/** Stores per page of the statistics table. */
export const statsStoresPageSize = 50;

/**
 * GET <apiPath>/stats/stores?search=&cursor=&limit=: one page of the stores a communication or
 * a training aims at (name, address, completions over the employees aimed at).
 */
export function getStatsStores(
  source: StatsSource,
  search: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<StatsStoresPage> {
  return apiRequest<StatsStoresPage>(`${source.apiPath}/stats/stores`, {
    query: {
      search: search.trim() || undefined,
      cursor: cursor ?? undefined,
      limit: statsStoresPageSize,
    },
    signal,
  });
}

export function statsStoresQueryOptions(source: StatsSource, search: string) {
  return infiniteQueryOptions({
    queryKey: [...source.queryKey, 'stores', search.trim()],
    queryFn: ({ signal, pageParam }) => getStatsStores(source, search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

/** "Show more" asks the next page. */
export function useStatsStores(source: StatsSource, search: string) {
  return useInfiniteQuery({
    ...statsStoresQueryOptions(source, search),
    placeholderData: keepPreviousData,
  });
}
