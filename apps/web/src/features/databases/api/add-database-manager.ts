import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';

/** POST /api/database/addManager */
export function addDatabaseManager(body: {
  email: string;
  databaseId: string;
}): Promise<{ status: 'ok' }> {
  return apiRequest('/database/addManager', { method: 'POST', body });
}

export function useAddDatabaseManager(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => addDatabaseManager({ email, databaseId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseQueryKey(databaseId) }),
  });
}
