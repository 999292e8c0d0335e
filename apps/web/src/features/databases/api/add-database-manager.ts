import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';

/** ok: linked; invited: an account outside the adder's tenant was mailed an invitation. */
export type AddManagerStatus = 'ok' | 'invited';

/** POST /api/database/addManager */
export function addDatabaseManager(body: {
  email: string;
  databaseId: string;
}): Promise<{ status: AddManagerStatus }> {
  return apiRequest('/database/addManager', { method: 'POST', body });
}

export function useAddDatabaseManager(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => addDatabaseManager({ email, databaseId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseQueryKey(databaseId) }),
  });
}
