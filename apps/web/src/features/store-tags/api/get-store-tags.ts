import type { storeTagsResponseSchema } from '@mise/shared/people/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';

export type StoreTags = z.infer<typeof storeTagsResponseSchema>;

export const storeTagsQueryKey = (databaseId: string) =>
  ['databases', databaseId, 'storeTags'] as const;

/** GET /api/databases/:databaseId/storeTags */
export function getStoreTags(databaseId: string, signal?: AbortSignal): Promise<StoreTags> {
  return apiRequest<StoreTags>(`/databases/${encodeURIComponent(databaseId)}/storeTags`, {
    signal,
  });
}

export function storeTagsQueryOptions(databaseId: string) {
  return queryOptions({
    queryKey: storeTagsQueryKey(databaseId),
    queryFn: ({ signal }) => getStoreTags(databaseId, signal),
  });
}

export function useStoreTags(databaseId: string) {
  return useQuery(storeTagsQueryOptions(databaseId));
}
