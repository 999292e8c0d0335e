/** Every query of the communications feature lives under this key. */
export const communicationsQueryKey = ['communications'] as const;

/** Communication lists of every database: refreshed after each write. */
export const communicationListsQueryKey = [...communicationsQueryKey, 'list'] as const;

export const communicationsQueryKeys = {
  databases: [...communicationsQueryKey, 'databases'] as const,
  list: (databaseId: string, search: string, isInactiveIncluded: boolean) =>
    [...communicationListsQueryKey, databaseId, search, isInactiveIncluded] as const,
  detail: (communicationId: string) =>
    [...communicationsQueryKey, 'detail', communicationId] as const,
  /** Statistics of one communication: its figures, and under it its stores and their results. */
  stats: (communicationId: string) =>
    [...communicationsQueryKey, 'stats', communicationId] as const,
  home: (databaseId: string, storeId: string | null) =>
    [...communicationsQueryKey, 'home', databaseId, storeId] as const,
};
