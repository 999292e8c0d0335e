import type {
  createDatabaseTaskConfigurationBodySchema,
  createStoreTaskConfigurationBodySchema,
  TaskConfiguration,
  UpdateTaskConfigurationBody,
} from '@mise/shared/tasks/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import {
  ownerPath,
  type TaskConfigurationLevel,
  taskConfigurationListsQueryKey,
  taskConfigurationPath,
  taskConfigurationQueryKey,
} from './task-configuration-query-keys';

export type CreateDatabaseTaskConfigurationBody = z.input<
  typeof createDatabaseTaskConfigurationBodySchema
>;
export type CreateStoreTaskConfigurationBody = z.input<
  typeof createStoreTaskConfigurationBodySchema
>;

export type SaveTaskConfigurationRequest =
  | { kind: 'createDatabase'; databaseId: string; body: CreateDatabaseTaskConfigurationBody }
  | { kind: 'createStore'; storeId: string; body: CreateStoreTaskConfigurationBody }
  | {
      kind: 'update';
      level: TaskConfigurationLevel;
      id: string;
      body: UpdateTaskConfigurationBody;
    };

/**
 * POST /api/databases/:databaseId/taskConfigurations, POST /api/stores/:storeId/taskConfigurations
 * (with `origin_id` to override a database configuration), or PATCH with the version read.
 */
export async function saveTaskConfiguration(
  request: SaveTaskConfigurationRequest,
): Promise<TaskConfiguration> {
  const { configuration } = await apiRequest<{ configuration: TaskConfiguration }>(
    request.kind === 'update'
      ? taskConfigurationPath(request.level, request.id)
      : request.kind === 'createDatabase'
        ? `${ownerPath('database', request.databaseId)}/taskConfigurations`
        : `${ownerPath('store', request.storeId)}/taskConfigurations`,
    { method: request.kind === 'update' ? 'PATCH' : 'POST', body: request.body },
  );
  return configuration;
}

/** Creates or updates a configuration; the answer becomes the cached detail, lists refresh. */
export function useSaveTaskConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTaskConfiguration,
    onSuccess: (configuration) => {
      if (configuration.id)
        queryClient.setQueryData(
          taskConfigurationQueryKey(configuration.level, configuration.id),
          configuration,
        );
      void queryClient.invalidateQueries({ queryKey: taskConfigurationListsQueryKey });
    },
  });
}

/** POST /api/taskConfigurations/:id/duplicate or /api/storeTaskConfigurations/:id/duplicate. */
export async function duplicateTaskConfiguration(
  level: TaskConfigurationLevel,
  id: string,
): Promise<TaskConfiguration> {
  const { configuration } = await apiRequest<{ configuration: TaskConfiguration }>(
    `${taskConfigurationPath(level, id)}/duplicate`,
    { method: 'POST' },
  );
  return configuration;
}

export function useDuplicateTaskConfiguration(level: TaskConfigurationLevel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => duplicateTaskConfiguration(level, id),
    onSuccess: (configuration) => {
      if (configuration.id)
        queryClient.setQueryData(
          taskConfigurationQueryKey(configuration.level, configuration.id),
          configuration,
        );
      void queryClient.invalidateQueries({ queryKey: taskConfigurationListsQueryKey });
    },
  });
}
