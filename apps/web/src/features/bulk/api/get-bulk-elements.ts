import type { BulkElementsResponse } from '@mise/shared/catalogue/bulk';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { bulkRowsFreshMs, bulkRowsQueryKey, ownerPath } from './bulk-query-keys';

/**
 * GET /api/databases/:databaseId/elements/bulk or /api/stores/:storeId/elements/bulk: every
 * row, inactive included (the grid filters on the client).
 */
export async function getBulkElements(
  level: BulkLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<BulkElementsResponse> {
  return apiRequest<BulkElementsResponse>(`${ownerPath(level, ownerId)}/elements/bulk`, {
    signal,
  });
}

export function bulkElementsQueryOptions(level: BulkLevel, ownerId: string) {
  return queryOptions({
    queryKey: bulkRowsQueryKey('elements', level, ownerId),
    queryFn: ({ signal }) => getBulkElements(level, ownerId, signal),
    staleTime: bulkRowsFreshMs,
  });
}

export function useBulkElements(level: BulkLevel, ownerId: string) {
  return useQuery({ ...bulkElementsQueryOptions(level, ownerId), enabled: ownerId !== '' });
}
