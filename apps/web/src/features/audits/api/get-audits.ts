import type { auditsResponseSchema } from '@mise/shared/audits/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { auditListQueryKey } from './audit-query-keys';

export type AuditsResponse = z.infer<typeof auditsResponseSchema>;

type AuditListFilter = { search: string; isInactiveIncluded: boolean };

/** GET /api/databases/:databaseId/audits?search=&include_inactive= */
export async function getAudits(
  databaseId: string,
  filter: AuditListFilter,
  signal?: AbortSignal,
): Promise<AuditsResponse> {
  return apiRequest<AuditsResponse>(`/databases/${encodeURIComponent(databaseId)}/audits`, {
    query: {
      search: filter.search.trim() || undefined,
      include_inactive: filter.isInactiveIncluded ? 'true' : undefined,
    },
    signal,
  });
}

export function auditsQueryOptions(databaseId: string, filter: AuditListFilter) {
  return queryOptions({
    queryKey: auditListQueryKey(databaseId, filter.search.trim(), filter.isInactiveIncluded),
    queryFn: ({ signal }) => getAudits(databaseId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAudits(databaseId: string | null, filter: AuditListFilter) {
  return useQuery({
    ...auditsQueryOptions(databaseId ?? '', filter),
    enabled: Boolean(databaseId),
  });
}
