import type { TaskDetail } from '@mise/shared/history/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { inspectorQueryKeys } from './inspector-query-keys';
import { inspectorRequest } from './inspector-request';

/** GET /api/inspect/tasks/:id: a task of the link's store and period, with its revisions. */
export async function getInspectionTask(
  token: string,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskDetail> {
  const { task } = await inspectorRequest<{ task: TaskDetail }>(
    token,
    `/inspect/tasks/${encodeURIComponent(taskId)}`,
    { signal },
  );
  return task;
}

export function inspectionTaskQueryOptions(token: string, taskId: string) {
  return queryOptions({
    queryKey: inspectorQueryKeys.task(token, taskId),
    queryFn: ({ signal }) => getInspectionTask(token, taskId, signal),
  });
}

export function useInspectionTask(token: string, taskId: string | null) {
  return useQuery({
    ...inspectionTaskQueryOptions(token, taskId ?? ''),
    enabled: taskId !== null,
  });
}
