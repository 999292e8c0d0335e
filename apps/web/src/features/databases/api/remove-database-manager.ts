import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';

/** DELETE /api/databases/:id/managers/:userId */
export function removeDatabaseManager(databaseId: string, userId: string): Promise<unknown> {
  return apiRequest(
    `/databases/${encodeURIComponent(databaseId)}/managers/${encodeURIComponent(userId)}`,
    { method: 'DELETE' },
  );
}

export function useRemoveDatabaseManager(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeDatabaseManager(databaseId, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseQueryKey(databaseId) }),
  });
}
