import type { TaskDetail } from '@mise/shared/history/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys } from './history-query-keys';

/** GET /api/tasks/:id: one task with its status, anomalies and result revisions. */
export async function getTaskDetail(taskId: string, signal?: AbortSignal): Promise<TaskDetail> {
  const { task } = await apiRequest<{ task: TaskDetail }>(`/tasks/${encodeURIComponent(taskId)}`, {
    signal,
  });
  return task;
}

export function taskDetailQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: historyQueryKeys.task(taskId),
    queryFn: ({ signal }) => getTaskDetail(taskId, signal),
  });
}

export function useTaskDetail(taskId: string | null) {
  return useQuery({ ...taskDetailQueryOptions(taskId ?? ''), enabled: Boolean(taskId) });
}
