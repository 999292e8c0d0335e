import type { TaskType } from '@mise/shared/tasks/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  ownerPath,
  type TaskConfigurationLevel,
  taskConfigurationListsQueryKey,
  taskConfigurationsQueryKey,
  taskTypesQueryKey,
} from './task-configuration-query-keys';

/**
 * GET /api/databases/:databaseId/taskTypes or /api/stores/:storeId/taskTypes (the database's
 * types and the store's own, store_side ones).
 */
export async function getTaskTypes(
  level: TaskConfigurationLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<TaskType[]> {
  const { items } = await apiRequest<{ items: TaskType[] }>(
    `${ownerPath(level, ownerId)}/taskTypes`,
    { signal },
  );
  return items;
}

export function useTaskTypes(level: TaskConfigurationLevel, ownerId: string) {
  return useQuery({
    queryKey: taskTypesQueryKey(level, ownerId),
    queryFn: ({ signal }) => getTaskTypes(level, ownerId, signal),
    enabled: ownerId !== '',
  });
}

export type TaskTypeInput = { id: string | null; name: string; color: string };

/** POST /api/{databases|stores}/:id/taskTypes (create) or PATCH /api/taskTypes/:id (edit). */
export async function saveTaskType(
  level: TaskConfigurationLevel,
  ownerId: string,
  input: TaskTypeInput,
): Promise<TaskType> {
  const body = { name: input.name, color: input.color };
  const { type } = await apiRequest<{ type: TaskType }>(
    input.id
      ? `/taskTypes/${encodeURIComponent(input.id)}`
      : `${ownerPath(level, ownerId)}/taskTypes`,
    { method: input.id ? 'PATCH' : 'POST', body },
  );
  return type;
}

/** Creates or edits a task type; types, lists and configurations (type name, colour) refresh. */
export function useSaveTaskType(level: TaskConfigurationLevel, ownerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TaskTypeInput) => saveTaskType(level, ownerId, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taskTypesQueryKey(level, ownerId) });
      void queryClient.invalidateQueries({ queryKey: taskConfigurationListsQueryKey });
      void queryClient.invalidateQueries({
        queryKey: [...taskConfigurationsQueryKey, 'detail'],
        refetchType: 'none',
      });
    },
  });
}
