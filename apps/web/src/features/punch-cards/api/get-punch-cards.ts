import type { PunchCards } from '@mise/shared/people/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { punchCardsQueryKeys } from './punch-cards-query-keys';

export type PunchCardsRequest = { storeId: string; start: string; end: string };

/**
 * GET /api/stores/:storeId/punchCards?start&end: the store (name, zone), its active employees,
 * every entry of the range and whether the viewer may edit them.
 */
export function getPunchCards(
  { storeId, start, end }: PunchCardsRequest,
  signal?: AbortSignal,
): Promise<PunchCards> {
  return apiRequest<PunchCards>(`/stores/${encodeURIComponent(storeId)}/punchCards`, {
    query: { start, end },
    signal,
  });
}

/**
 * Read once per visit of a range and never in the background: a refetch under the user's
 * unsaved edits would throw them away. Search and Save read again on purpose. The previous
 * range of the same store stays on screen while the next one loads.
 */
export function punchCardsQueryOptions(request: PunchCardsRequest) {
  return queryOptions({
    queryKey: punchCardsQueryKeys.range(request.storeId, request.start, request.end),
    queryFn: ({ signal }) => getPunchCards(request, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function usePunchCards(request: PunchCardsRequest | null) {
  return useQuery({
    ...punchCardsQueryOptions(request ?? { storeId: '', start: '', end: '' }),
    enabled: request !== null,
    placeholderData: (previous) => (previous?.store.id === request?.storeId ? previous : undefined),
  });
}
