import type { ModuleKey } from '@mise/shared/organisation/constants';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  ownerPath,
  type TaskConfigurationLevel,
  taskConfigurationsQueryKey,
} from './task-configuration-query-keys';

export const hiddenModulesQueryKey = (level: TaskConfigurationLevel, ownerId: string) =>
  [...taskConfigurationsQueryKey, 'hiddenModules', level, ownerId] as const;

/**
 * The modules hidden where a task is created: the database's, or the store's own together with
 * its database's. The catalogue context endpoint answers them for the owner's editors.
 */
export async function getHiddenModules(
  level: TaskConfigurationLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<ModuleKey[]> {
  const { hidden_modules } = await apiRequest<{ hidden_modules: ModuleKey[] }>(
    `${ownerPath(level, ownerId)}/elements/context`,
    { signal },
  );
  return hidden_modules;
}

export function useHiddenModules(level: TaskConfigurationLevel, ownerId: string, enabled: boolean) {
  return useQuery({
    queryKey: hiddenModulesQueryKey(level, ownerId),
    queryFn: ({ signal }) => getHiddenModules(level, ownerId, signal),
    enabled: enabled && ownerId !== '',
  });
}
