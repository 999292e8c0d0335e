import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';

/** POST /api/databases/:id/invitations/withdraw: the invitation's link then adds nobody. */
export function withdrawManagerInvitation(databaseId: string, email: string): Promise<unknown> {
  return apiRequest(`/databases/${encodeURIComponent(databaseId)}/invitations/withdraw`, {
    method: 'POST',
    body: { email },
  });
}

export function useWithdrawManagerInvitation(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => withdrawManagerInvitation(databaseId, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseQueryKey(databaseId) }),
  });
}
