import type { auditsHomeResponseSchema } from '@mise/shared/audits/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

export type AuditsHome = z.infer<typeof auditsHomeResponseSchema>;
export type AuditHomeItem = AuditsHome['items'][number];

/**
 * GET /api/databases/:databaseId/audits/home: the database's published audits with the share
 * of its stores that have a submitted result.
 */
export function getAuditsHome(databaseId: string, signal?: AbortSignal): Promise<AuditsHome> {
  return apiRequest<AuditsHome>(`/databases/${encodeURIComponent(databaseId)}/audits/home`, {
    signal,
  });
}

export function auditsHomeQueryOptions(databaseId: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.home(databaseId),
    queryFn: ({ signal }) => getAuditsHome(databaseId, signal),
  });
}

export function useAuditsHome(databaseId: string) {
  return useQuery(auditsHomeQueryOptions(databaseId));
}
