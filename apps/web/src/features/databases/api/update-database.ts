import type { DatabaseDetail, UpdateDatabaseBody } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';
import { databasesQueryKey } from './get-databases';

/** PATCH /api/databases/:id with the version read. */
export async function updateDatabase(
  id: string,
  body: UpdateDatabaseBody,
): Promise<DatabaseDetail> {
  const { database } = await apiRequest<{ database: DatabaseDetail }>(
    `/databases/${encodeURIComponent(id)}`,
    { method: 'PATCH', body },
  );
  return database;
}

export function useUpdateDatabase(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDatabaseBody) => updateDatabase(id, body),
    onSuccess: (database) => {
      queryClient.setQueryData(databaseQueryKey(id), database);
      void queryClient.invalidateQueries({ queryKey: [...databasesQueryKey, 'list'] });
    },
  });
}
