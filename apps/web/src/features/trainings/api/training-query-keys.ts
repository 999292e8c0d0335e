/** Every query of the trainings feature lives under this key. */
export const trainingsQueryKey = ['trainings'] as const;

/** Training lists of every source: refreshed after each write. */
export const trainingListsQueryKey = [...trainingsQueryKey, 'list'] as const;

/** What a list or a category read is about (spec 002 §6): a database, a store, or neither. */
export type TrainingSourceQuery = { databaseId: string | null; storeId: string | null };

export const trainingsQueryKeys = {
  list: (source: TrainingSourceQuery, search: string, isInactiveIncluded: boolean) =>
    [
      ...trainingListsQueryKey,
      source.databaseId,
      source.storeId,
      search,
      isInactiveIncluded,
    ] as const,
  detail: (trainingId: string) => [...trainingsQueryKey, 'detail', trainingId] as const,
  categories: (source: TrainingSourceQuery) =>
    [...trainingsQueryKey, 'categories', source.databaseId, source.storeId] as const,
  /** Statistics of one training: its figures, and under it its stores and their results. */
  stats: (trainingId: string) => [...trainingsQueryKey, 'stats', trainingId] as const,
  home: (databaseId: string, storeId: string | null) =>
    [...trainingsQueryKey, 'home', databaseId, storeId] as const,
  distributorStores: (distributorId: string) =>
    [...trainingsQueryKey, 'distributor-stores', distributorId] as const,
};

/** The query of a source: only the ids that are set. */
export function sourceQuery(source: TrainingSourceQuery) {
  return { database_id: source.databaseId ?? undefined, store_id: source.storeId ?? undefined };
}
