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

/** The probe records of a store's period (issue 15). */
export type HistoryProbesRequest = { storeId: string; start: string; end: string };

/** Query keys of the history area: task lists under ['history'], one task under ['task']. */
export const historyQueryKeys = {
  all: ['history'] as const,
  stores: (search: string) => ['history', 'stores', search] as const,
  storeHistory: ({ storeId, start, end, module, filter, search }: StoreHistoryRequest) =>
    ['history', 'tasks', storeId, start, end, module, filter, search] as const,
  probes: ({ storeId, start, end }: HistoryProbesRequest) =>
    ['history', 'probes', storeId, start, end] as const,
  task: (taskId: string) => ['task', taskId] as const,
  /** The store's inspector packs (issue 21), and one pack while it builds. */
  inspectorPacks: (storeId: string) => ['history', 'inspector-packs', storeId] as const,
  inspectorPack: (storeId: string, packId: string) =>
    ['history', 'inspector-packs', storeId, packId] as const,
};
