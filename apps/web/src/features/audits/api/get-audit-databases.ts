import type { ExtensionKey } from '@mise/shared/organisation/constants';
import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditDatabasesQueryKey } from './audit-query-keys';

/** A database of the list's dropdown; `hidden_extensions` when the answer carries it. */
export type AuditDatabase = DatabaseSummary & { hidden_extensions?: ExtensionKey[] };

/**
 * GET /api/databases: the caller's databases, those whose auditing extension is hidden left
 * out (spec 002 §2). The server also refuses their audits ('audit/extension-hidden').
 */
export async function getAuditDatabases(signal?: AbortSignal): Promise<AuditDatabase[]> {
  const { items } = await apiRequest<{ items: AuditDatabase[] }>('/databases', { signal });
  return items.filter((database) => !database.hidden_extensions?.includes('auditing'));
}

export function auditDatabasesQueryOptions() {
  return queryOptions({
    queryKey: auditDatabasesQueryKey,
    queryFn: ({ signal }) => getAuditDatabases(signal),
  });
}

export function useAuditDatabases() {
  return useQuery(auditDatabasesQueryOptions());
}
