import type { Task } from '@mise/shared/tasks/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeTasksQueryKey } from './task-configuration-query-keys';

/** GET /api/stores/:storeId/tasks?day=YYYY-MM-DD: the store's tasks of a day, with their status. */
export async function getStoreTasks(
  storeId: string,
  day: string,
  signal?: AbortSignal,
): Promise<Task[]> {
  const { items } = await apiRequest<{ day: string; items: Task[] }>(
    `/stores/${encodeURIComponent(storeId)}/tasks`,
    { query: { day }, signal },
  );
  return items;
}

export function useStoreTasks(storeId: string, day: string) {
  return useQuery({
    queryKey: storeTasksQueryKey(storeId, day),
    queryFn: ({ signal }) => getStoreTasks(storeId, day, signal),
    placeholderData: keepPreviousData,
  });
}
