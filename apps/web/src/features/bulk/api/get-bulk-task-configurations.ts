import type { BulkTaskConfigurationsResponse } from '@mise/shared/catalogue/bulk';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { bulkRowsFreshMs, bulkRowsQueryKey, ownerPath } from './bulk-query-keys';

/**
 * GET /api/databases/:databaseId/taskConfigurations/bulk or
 * /api/stores/:storeId/taskConfigurations/bulk: every row, inactive included.
 */
export async function getBulkTaskConfigurations(
  level: BulkLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<BulkTaskConfigurationsResponse> {
  return apiRequest<BulkTaskConfigurationsResponse>(
    `${ownerPath(level, ownerId)}/taskConfigurations/bulk`,
    { signal },
  );
}

export function bulkTaskConfigurationsQueryOptions(level: BulkLevel, ownerId: string) {
  return queryOptions({
    queryKey: bulkRowsQueryKey('tasks', level, ownerId),
    queryFn: ({ signal }) => getBulkTaskConfigurations(level, ownerId, signal),
    staleTime: bulkRowsFreshMs,
  });
}

export function useBulkTaskConfigurations(level: BulkLevel, ownerId: string) {
  return useQuery({
    ...bulkTaskConfigurationsQueryOptions(level, ownerId),
    enabled: ownerId !== '',
  });
}
