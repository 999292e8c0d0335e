import type { homeCommunicationsResponseSchema } from '@mise/shared/communications/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { communicationsQueryKeys } from './communication-query-keys';

export type HomeCommunications = z.infer<typeof homeCommunicationsResponseSchema>;
export type HomeCommunication = HomeCommunications['items'][number];

/**
 * GET /api/databases/:databaseId/communications/home?store_id=: the running, active
 * communications with the share of the employees aimed at (of the store, when given) who saw
 * them.
 */
export function getHomeCommunications(
  databaseId: string,
  storeId: string | null,
  signal?: AbortSignal,
): Promise<HomeCommunications> {
  return apiRequest<HomeCommunications>(
    `/databases/${encodeURIComponent(databaseId)}/communications/home`,
    { query: { store_id: storeId ?? undefined }, signal },
  );
}

export function homeCommunicationsQueryOptions(databaseId: string, storeId: string | null) {
  return queryOptions({
    queryKey: communicationsQueryKeys.home(databaseId, storeId),
    queryFn: ({ signal }) => getHomeCommunications(databaseId, storeId, signal),
  });
}

export function useHomeCommunications(databaseId: string | null, storeId: string | null) {
  return useQuery({
    ...homeCommunicationsQueryOptions(databaseId ?? '', storeId),
    enabled: Boolean(databaseId),
  });
}
