import type {
  RecordsCheckpoint,
  RecordsCheckpointResponse,
} from '@mise/shared/records/checkpoints';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storesQueryKey } from './get-stores';

export const storeRecordsCheckpointQueryKey = (storeId: string) =>
  [...storesQueryKey, 'records-checkpoint', storeId] as const;

/** GET /api/stores/:id/records-checkpoint: the store's latest records seal (null before any). */
export async function getStoreRecordsCheckpoint(
  storeId: string,
  signal?: AbortSignal,
): Promise<RecordsCheckpoint | null> {
  const { checkpoint } = await apiRequest<RecordsCheckpointResponse>(
    `/stores/${encodeURIComponent(storeId)}/records-checkpoint`,
    { signal },
  );
  return checkpoint;
}

export function storeRecordsCheckpointQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: storeRecordsCheckpointQueryKey(storeId),
    queryFn: ({ signal }) => getStoreRecordsCheckpoint(storeId, signal),
  });
}

export function useStoreRecordsCheckpoint(storeId: string) {
  return useQuery(storeRecordsCheckpointQueryOptions(storeId));
}
