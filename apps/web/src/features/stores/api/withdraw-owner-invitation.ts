import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';

/** POST /api/stores/:id/invitations/withdraw: the invitation's link then adds nobody. */
export function withdrawOwnerInvitation(storeId: string, email: string): Promise<unknown> {
  return apiRequest(`/stores/${encodeURIComponent(storeId)}/invitations/withdraw`, {
    method: 'POST',
    body: { email },
  });
}

export function useWithdrawOwnerInvitation(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => withdrawOwnerInvitation(storeId, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeQueryKey(storeId) }),
  });
}
