import type { statsStoreResultsResponseSchema } from '@mise/shared/communications/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../api/api-client';
import type { StatsSource } from './get-stats-stores';

export type StatsStoreResults = z.infer<typeof statsStoreResultsResponseSchema>;
export type StatsStoreResult = StatsStoreResults['items'][number];

/** GET <apiPath>/stats/stores/:storeId: the results of one store's employees. */
export function getStatsStoreResults(
  source: StatsSource,
  storeId: string,
  signal?: AbortSignal,
): Promise<StatsStoreResults> {
  return apiRequest<StatsStoreResults>(
    `${source.apiPath}/stats/stores/${encodeURIComponent(storeId)}`,
    { signal },
  );
}

export function statsStoreResultsQueryOptions(source: StatsSource, storeId: string) {
  return queryOptions({
    queryKey: [...source.queryKey, 'store', storeId],
    queryFn: ({ signal }) => getStatsStoreResults(source, storeId, signal),
  });
}

export function useStatsStoreResults(source: StatsSource, storeId: string | null) {
  return useQuery({
    ...statsStoreResultsQueryOptions(source, storeId ?? ''),
    enabled: Boolean(storeId),
  });
}
