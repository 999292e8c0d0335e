import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';
import { storesQueryKey } from './get-stores';

/** POST /api/stores/:id/illustration (multipart field `file`). */
export async function uploadStoreIllustration(
  id: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<StoreDetail> {
  const formData = new FormData();
  formData.append('file', file);
  const { store } = await apiUpload<{ store: StoreDetail }>(
    `/stores/${encodeURIComponent(id)}/illustration`,
    { formData, onProgress },
  );
  return store;
}

export function useUploadStoreIllustration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) =>
      uploadStoreIllustration(id, file, onProgress),
    onSuccess: (store) => {
      queryClient.setQueryData(storeQueryKey(id), store);
      void queryClient.invalidateQueries({ queryKey: [...storesQueryKey, 'list'] });
    },
  });
}
