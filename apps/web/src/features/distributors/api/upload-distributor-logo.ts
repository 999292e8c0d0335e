import type { Distributor } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';
import { distributorQueryKey } from './get-distributor';
import { distributorsQueryKey } from './get-distributors';

/** POST /api/distributors/:id/logo (multipart field `file`). */
export async function uploadDistributorLogo(
  id: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<Distributor> {
  const formData = new FormData();
  formData.append('file', file);
  const { distributor } = await apiUpload<{ distributor: Distributor }>(
    `/distributors/${encodeURIComponent(id)}/logo`,
    { formData, onProgress },
  );
  return distributor;
}

export function useUploadDistributorLogo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) =>
      uploadDistributorLogo(id, file, onProgress),
    onSuccess: (distributor) => {
      queryClient.setQueryData(distributorQueryKey(id), distributor);
      void queryClient.invalidateQueries({ queryKey: [...distributorsQueryKey, 'list'] });
    },
  });
}
