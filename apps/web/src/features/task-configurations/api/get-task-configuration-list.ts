import type { TaskConfigurationListItem } from '@mise/shared/tasks/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  ownerPath,
  type TaskConfigurationLevel,
  taskConfigurationListsQueryKey,
} from './task-configuration-query-keys';

/** Where a list is read: a database's configurations, or a store's merged list. */
export type TaskConfigurationListScope = { level: TaskConfigurationLevel; ownerId: string };
export type TaskConfigurationListFilter = { search: string; isInactiveIncluded: boolean };

/**
 * GET /api/databases/:databaseId/taskConfigurations or GET /api/stores/:storeId/taskConfigurations:
 * the rows in the server's order (by name).
 */
export async function getTaskConfigurationList(
  scope: TaskConfigurationListScope,
  filter: TaskConfigurationListFilter,
  signal?: AbortSignal,
): Promise<TaskConfigurationListItem[]> {
  const { items } = await apiRequest<{ items: TaskConfigurationListItem[] }>(
    `${ownerPath(scope.level, scope.ownerId)}/taskConfigurations`,
    {
      query: {
        search: filter.search.trim() || undefined,
        includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
      },
      signal,
    },
  );
  return items;
}

export function taskConfigurationListQueryOptions(
  scope: TaskConfigurationListScope,
  filter: TaskConfigurationListFilter,
) {
  return queryOptions({
    queryKey: [...taskConfigurationListsQueryKey, scope, filter],
    queryFn: ({ signal }) => getTaskConfigurationList(scope, filter, signal),
    // While a new search loads, the previous rows of the same list stay on screen.
    placeholderData: (previous, previousQuery) =>
      previousQuery && JSON.stringify(previousQuery.queryKey[2]) === JSON.stringify(scope)
        ? previous
        : undefined,
  });
}

export function useTaskConfigurationList(
  scope: TaskConfigurationListScope,
  filter: TaskConfigurationListFilter,
) {
  return useQuery(taskConfigurationListQueryOptions(scope, filter));
}
