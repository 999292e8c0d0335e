import type { Audit } from '@mise/shared/audits/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditQueryKey } from './audit-query-keys';

/** GET /api/audits/:auditId — the template with its whole structure, archived items included. */
export async function getAudit(auditId: string, signal?: AbortSignal): Promise<Audit> {
  const { audit } = await apiRequest<{ audit: Audit }>(`/audits/${encodeURIComponent(auditId)}`, {
    signal,
  });
  return audit;
}

export function auditQueryOptions(auditId: string) {
  return queryOptions({
    queryKey: auditQueryKey(auditId),
    queryFn: ({ signal }) => getAudit(auditId, signal),
  });
}

export function useAudit(auditId: string | null) {
  return useQuery({ ...auditQueryOptions(auditId ?? ''), enabled: Boolean(auditId) });
}
