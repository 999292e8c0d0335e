import type { BulkElementRow, BulkElementWrite } from '@mise/shared/catalogue/bulk';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { elementsQueryKey } from '../../elements';
import { ownerPath } from './bulk-query-keys';

/**
 * POST /api/databases/:databaseId/elements/bulk or /api/stores/:storeId/elements/bulk: only
 * new or changed rows, in one transaction. A stale row answers 409 'conflict/stale-rows'.
 */
export async function saveBulkElements(
  level: BulkLevel,
  ownerId: string,
  rows: BulkElementWrite[],
): Promise<BulkElementRow[]> {
  const response = await apiRequest<{ rows: BulkElementRow[] }>(
    `${ownerPath(level, ownerId)}/elements/bulk`,
    { method: 'POST', body: { rows } },
  );
  return response.rows;
}

/** Saves element rows; the element lists and screens read afresh afterwards. */
export function useSaveBulkElements(level: BulkLevel, ownerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: BulkElementWrite[]) => saveBulkElements(level, ownerId, rows),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: elementsQueryKey });
    },
  });
}
