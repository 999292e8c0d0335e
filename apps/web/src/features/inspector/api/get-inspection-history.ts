import type { InspectionHistory } from '@mise/shared/records/links';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { inspectorQueryKeys } from './inspector-query-keys';
import { inspectorRequest } from './inspector-request';

export type InspectionHistoryRequest = { token: string; day: string; module: TaskModule };

/** GET /api/inspect/history?day&module&filter=all: a page of one day's tasks, newest first. */
export function getInspectionHistory(
  { token, day, module }: InspectionHistoryRequest,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<InspectionHistory> {
  const query: Record<string, string> = { day, module, filter: 'all' };
  if (cursor) query.cursor = cursor;
  return inspectorRequest<InspectionHistory>(token, '/inspect/history', { query, signal });
}

export function inspectionHistoryQueryOptions(request: InspectionHistoryRequest) {
  return infiniteQueryOptions({
    queryKey: inspectorQueryKeys.history(request.token, request.day, request.module),
    queryFn: ({ signal, pageParam }) => getInspectionHistory(request, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

export function useInspectionHistory(request: InspectionHistoryRequest) {
  return useInfiniteQuery(inspectionHistoryQueryOptions(request));
}
