/** Query keys of the audit results feature: everything under ['audit-results']. */
export const auditResultsQueryKeys = {
  all: ['audit-results'] as const,
  audit: (auditId: string) => ['audit-results', 'audit', auditId] as const,
  results: (auditId: string) => ['audit-results', 'results', auditId] as const,
  result: (resultId: string) => ['audit-results', 'result', resultId] as const,
  inProgress: (auditId: string) => ['audit-results', 'in-progress', auditId] as const,
  stores: (databaseId: string, search: string) =>
    ['audit-results', 'stores', databaseId, search] as const,
  storeZone: (storeId: string) => ['audit-results', 'store-zone', storeId] as const,
  home: (databaseId: string) => ['audit-results', 'home', databaseId] as const,
};
