import type { CreateDatabaseBody, DatabaseDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databasesQueryKey } from './get-databases';

/** POST /api/databases (admin, distributor). */
export async function createDatabase(body: CreateDatabaseBody): Promise<DatabaseDetail> {
  const { database } = await apiRequest<{ database: DatabaseDetail }>('/databases', {
    method: 'POST',
    body,
  });
  return database;
}

export function useCreateDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDatabase,
    // The list and the pickers' options (['…', 'options']) both gain the new one.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databasesQueryKey }),
  });
}
