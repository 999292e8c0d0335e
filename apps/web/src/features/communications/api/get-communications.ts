import type { communicationsResponseSchema } from '@mise/shared/communications/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { communicationsQueryKeys } from './communication-query-keys';

export type CommunicationsResponse = z.infer<typeof communicationsResponseSchema>;

type CommunicationListFilter = { search: string; isInactiveIncluded: boolean };

/**
 * GET /api/databases/:databaseId/communications?search=&include_inactive=: the database's
 * communications, newest start first, and whether the caller may create and edit them.
 */
export function getCommunications(
  databaseId: string,
  filter: CommunicationListFilter,
  signal?: AbortSignal,
): Promise<CommunicationsResponse> {
  return apiRequest<CommunicationsResponse>(
    `/databases/${encodeURIComponent(databaseId)}/communications`,
    {
      query: {
        search: filter.search.trim() || undefined,
        include_inactive: filter.isInactiveIncluded ? 'true' : 'false',
      },
      signal,
    },
  );
}

export function communicationsQueryOptions(databaseId: string, filter: CommunicationListFilter) {
  return queryOptions({
    queryKey: communicationsQueryKeys.list(
      databaseId,
      filter.search.trim(),
      filter.isInactiveIncluded,
    ),
    queryFn: ({ signal }) => getCommunications(databaseId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCommunications(databaseId: string | null, filter: CommunicationListFilter) {
  return useQuery({
    ...communicationsQueryOptions(databaseId ?? '', filter),
    enabled: Boolean(databaseId),
  });
}
