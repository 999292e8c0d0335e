import type { taskGenerationSearchResponseSchema } from '@mise/shared/tasks/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { type GenerationSearch, technicalQueryKeys } from './technical-query-keys';

export type GenerationEvents = z.infer<typeof taskGenerationSearchResponseSchema>;
export type GenerationEvent = GenerationEvents['items'][number];

/** POST /api/task_generation/search {start, end, storeId}: newest first, at most 1,000. */
export function searchGenerationEvents(
  search: GenerationSearch,
  signal?: AbortSignal,
): Promise<GenerationEvents> {
  return apiRequest<GenerationEvents>('/task_generation/search', {
    method: 'POST',
    body: { start: search.start, end: search.end, storeId: search.storeId },
    signal,
  });
}

export function generationEventsQueryOptions(search: GenerationSearch) {
  return queryOptions({
    queryKey: technicalQueryKeys.generationSearch(search),
    queryFn: ({ signal }) => searchGenerationEvents(search, signal),
    staleTime: 0,
  });
}

/** The events of the last search; nothing is asked before the first one. */
export function useGenerationEvents(search: GenerationSearch | null) {
  return useQuery({
    ...generationEventsQueryOptions(search ?? { storeId: '', start: '', end: '' }),
    enabled: search !== null,
  });
}
