import type { HistoryFilter } from '@mise/shared/history/constants';
import type { TaskModule } from '@mise/shared/tasks/constants';

export type StoreHistoryRequest = {
  storeId: string;
  start: string;
  end: string;
  module: TaskModule;
  filter: HistoryFilter;
  /** Words searched by the server inside the tab ('' for none). */
  search: string;
};

/** Query keys of the history area: task lists under ['history'], one task under ['task']. */
export const historyQueryKeys = {
  all: ['history'] as const,
  stores: (search: string) => ['history', 'stores', search] as const,
  storeHistory: ({ storeId, start, end, module, filter, search }: StoreHistoryRequest) =>
    ['history', 'tasks', storeId, start, end, module, filter, search] as const,
  task: (taskId: string) => ['task', taskId] as const,
};
