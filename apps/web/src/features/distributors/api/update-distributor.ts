import type { Distributor, UpdateDistributorBody } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { distributorQueryKey } from './get-distributor';
import { distributorsQueryKey } from './get-distributors';

/** PATCH /api/distributors/:id with the version read (admin only). */
export async function updateDistributor(
  id: string,
  body: UpdateDistributorBody,
): Promise<Distributor> {
  const { distributor } = await apiRequest<{ distributor: Distributor }>(
    `/distributors/${encodeURIComponent(id)}`,
    { method: 'PATCH', body },
  );
  return distributor;
}

export function useUpdateDistributor(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDistributorBody) => updateDistributor(id, body),
    onSuccess: (distributor) => {
      queryClient.setQueryData(distributorQueryKey(id), distributor);
      void queryClient.invalidateQueries({ queryKey: [...distributorsQueryKey, 'list'] });
    },
  });
}
