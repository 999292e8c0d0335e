import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { ownerPath, taskConfigurationsQueryKey } from './task-configuration-query-keys';

/** What a new store configuration needs to know of its store. */
export type TaskConfigurationStore = { id: string; name: string; isReadOnly: boolean };

/** GET /api/stores/:id, reduced to what the creation screen uses. */
export async function getTaskConfigurationStore(
  storeId: string,
  signal?: AbortSignal,
): Promise<TaskConfigurationStore> {
  const { store } = await apiRequest<{
    store: { id: string; name: string; is_read_only: boolean };
  }>(ownerPath('store', storeId), { signal });
  return { id: store.id, name: store.name, isReadOnly: store.is_read_only };
}

export function useTaskConfigurationStore(storeId: string | null) {
  return useQuery({
    queryKey: [...taskConfigurationsQueryKey, 'store', storeId ?? ''],
    queryFn: ({ signal }) => getTaskConfigurationStore(storeId ?? '', signal),
    enabled: Boolean(storeId),
  });
}
