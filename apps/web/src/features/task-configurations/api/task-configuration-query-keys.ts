export type TaskConfigurationLevel = 'database' | 'store';

/** Every query of the task-configurations feature lives under this key. */
export const taskConfigurationsQueryKey = ['taskConfigurations'] as const;
/** Configuration lists (database and store): invalidated after every configuration write. */
export const taskConfigurationListsQueryKey = [...taskConfigurationsQueryKey, 'list'] as const;

export const taskConfigurationQueryKey = (level: TaskConfigurationLevel, id: string) =>
  [...taskConfigurationsQueryKey, 'detail', level, id] as const;
export const originTaskConfigurationQueryKey = (storeId: string, originId: string) =>
  [...taskConfigurationsQueryKey, 'origin', storeId, originId] as const;
export const taskTypesQueryKey = (level: TaskConfigurationLevel, ownerId: string) =>
  [...taskConfigurationsQueryKey, 'types', level, ownerId] as const;
export const elementOptionsQueryKey = (
  level: TaskConfigurationLevel,
  ownerId: string,
  module: string,
) => [...taskConfigurationsQueryKey, 'elementOptions', level, ownerId, module] as const;
export const storeTasksQueryKey = (storeId: string, day: string) =>
  [...taskConfigurationsQueryKey, 'storeTasks', storeId, day] as const;

/** REST path of one configuration (`/taskConfigurations/:id` or `/storeTaskConfigurations/:id`). */
export function taskConfigurationPath(level: TaskConfigurationLevel, id: string): string {
  return `/${level === 'database' ? 'taskConfigurations' : 'storeTaskConfigurations'}/${encodeURIComponent(id)}`;
}

/** REST path of a configuration's owner (`/databases/:id` or `/stores/:id`). */
export function ownerPath(level: TaskConfigurationLevel, ownerId: string): string {
  return `/${level === 'database' ? 'databases' : 'stores'}/${encodeURIComponent(ownerId)}`;
}
