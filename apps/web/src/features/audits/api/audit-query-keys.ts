/** Every query of the audits feature lives under this key. */
export const auditsQueryKey = ['audits'] as const;

/** Audit lists of every database: refreshed after each audit write. */
export const auditListsQueryKey = [...auditsQueryKey, 'list'] as const;

export const auditListQueryKey = (
  databaseId: string,
  search: string,
  isInactiveIncluded: boolean,
) => [...auditListsQueryKey, databaseId, search, isInactiveIncluded] as const;

export const auditQueryKey = (auditId: string) => [...auditsQueryKey, 'detail', auditId] as const;

export const auditDatabasesQueryKey = [...auditsQueryKey, 'databases'] as const;
