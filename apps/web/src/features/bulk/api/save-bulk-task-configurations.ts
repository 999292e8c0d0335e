import type {
  BulkTaskConfigurationRow,
  BulkTaskConfigurationWrite,
} from '@mise/shared/catalogue/bulk';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { taskConfigurationsQueryKey } from '../../task-configurations/editors';
import { ownerPath } from './bulk-query-keys';

/**
 * POST /api/databases/:databaseId/taskConfigurations/bulk or the store's: only new or changed
 * rows, in one transaction. A stale row answers 409 'conflict/stale-rows'.
 */
export async function saveBulkTaskConfigurations(
  level: BulkLevel,
  ownerId: string,
  rows: BulkTaskConfigurationWrite[],
): Promise<BulkTaskConfigurationRow[]> {
  const response = await apiRequest<{ rows: BulkTaskConfigurationRow[] }>(
    `${ownerPath(level, ownerId)}/taskConfigurations/bulk`,
    { method: 'POST', body: { rows } },
  );
  return response.rows;
}

/** Saves task configuration rows; the configuration lists and screens read afresh afterwards. */
export function useSaveBulkTaskConfigurations(level: BulkLevel, ownerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: BulkTaskConfigurationWrite[]) =>
      saveBulkTaskConfigurations(level, ownerId, rows),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taskConfigurationsQueryKey });
    },
  });
}
