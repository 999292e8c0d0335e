import type { TaskConfiguration } from '@mise/shared/tasks/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  originTaskConfigurationQueryKey,
  type TaskConfigurationLevel,
  taskConfigurationPath,
  taskConfigurationQueryKey,
} from './task-configuration-query-keys';

/** GET /api/taskConfigurations/:id or /api/storeTaskConfigurations/:id */
export async function getTaskConfiguration(
  level: TaskConfigurationLevel,
  id: string,
  signal?: AbortSignal,
): Promise<TaskConfiguration> {
  const { configuration } = await apiRequest<{ configuration: TaskConfiguration }>(
    taskConfigurationPath(level, id),
    { signal },
  );
  return configuration;
}

/** GET /api/stores/:storeId/taskConfigurations/origin/:originId — a database configuration seen from a store. */
export async function getOriginTaskConfiguration(
  storeId: string,
  originId: string,
  signal?: AbortSignal,
): Promise<TaskConfiguration> {
  const { configuration } = await apiRequest<{ configuration: TaskConfiguration }>(
    `/stores/${encodeURIComponent(storeId)}/taskConfigurations/origin/${encodeURIComponent(originId)}`,
    { signal },
  );
  return configuration;
}

export function taskConfigurationQueryOptions(level: TaskConfigurationLevel, id: string) {
  return queryOptions({
    queryKey: taskConfigurationQueryKey(level, id),
    queryFn: ({ signal }) => getTaskConfiguration(level, id, signal),
  });
}

export function originTaskConfigurationQueryOptions(storeId: string, originId: string) {
  return queryOptions({
    queryKey: originTaskConfigurationQueryKey(storeId, originId),
    queryFn: ({ signal }) => getOriginTaskConfiguration(storeId, originId, signal),
  });
}

export function useTaskConfiguration(level: TaskConfigurationLevel, id: string | null) {
  return useQuery({ ...taskConfigurationQueryOptions(level, id ?? ''), enabled: Boolean(id) });
}

export function useOriginTaskConfiguration(storeId: string | null, originId: string | null) {
  return useQuery({
    ...originTaskConfigurationQueryOptions(storeId ?? '', originId ?? ''),
    enabled: Boolean(storeId && originId),
  });
}
