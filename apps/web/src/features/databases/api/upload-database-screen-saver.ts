import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';
import { databaseQueryKey } from './get-database';
import { databasesQueryKey } from './get-databases';

/** POST /api/databases/:id/screen-saver (multipart field `file`). */
export async function uploadDatabaseScreenSaver(
  id: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<DatabaseDetail> {
  const formData = new FormData();
  formData.append('file', file);
  const { database } = await apiUpload<{ database: DatabaseDetail }>(
    `/databases/${encodeURIComponent(id)}/screen-saver`,
    { formData, onProgress },
  );
  return database;
}

export function useUploadDatabaseScreenSaver(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) =>
      uploadDatabaseScreenSaver(id, file, onProgress),
    onSuccess: (database) => {
      queryClient.setQueryData(databaseQueryKey(id), database);
      void queryClient.invalidateQueries({ queryKey: [...databasesQueryKey, 'list'] });
    },
  });
}
