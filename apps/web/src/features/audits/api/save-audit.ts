import type { Audit, createAuditBodySchema, SaveAuditBody } from '@mise/shared/audits/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { auditListsQueryKey, auditQueryKey } from './audit-query-keys';

export type CreateAuditBody = z.input<typeof createAuditBodySchema>;

export type SaveAuditRequest =
  | { kind: 'create'; databaseId: string; body: CreateAuditBody }
  | { kind: 'update'; auditId: string; body: SaveAuditBody };

/** POST /api/databases/:databaseId/audits, or PUT /api/audits/:auditId with the version read. */
export async function saveAudit(request: SaveAuditRequest): Promise<Audit> {
  const { audit } = await apiRequest<{ audit: Audit }>(
    request.kind === 'create'
      ? `/databases/${encodeURIComponent(request.databaseId)}/audits`
      : `/audits/${encodeURIComponent(request.auditId)}`,
    { method: request.kind === 'create' ? 'POST' : 'PUT', body: request.body },
  );
  return audit;
}

/** POST /api/audits/:auditId/duplicate — the copy, named '<name> (Copy)', unpublished. */
export async function duplicateAudit(auditId: string): Promise<Audit> {
  const { audit } = await apiRequest<{ audit: Audit }>(
    `/audits/${encodeURIComponent(auditId)}/duplicate`,
    { method: 'POST' },
  );
  return audit;
}

/** The saved audit becomes the cached detail; the lists refresh. */
function useAuditWrite<TVariables>(write: (variables: TVariables) => Promise<Audit>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (audit) => {
      queryClient.setQueryData(auditQueryKey(audit.id), audit);
      void queryClient.invalidateQueries({ queryKey: auditListsQueryKey });
    },
  });
}

export function useSaveAudit() {
  return useAuditWrite(saveAudit);
}

export function useDuplicateAudit() {
  return useAuditWrite(duplicateAudit);
}
