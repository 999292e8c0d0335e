import type { CreateDistributorBody, Distributor } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { distributorsQueryKey } from './get-distributors';

/** POST /api/distributors (admin). */
export async function createDistributor(body: CreateDistributorBody): Promise<Distributor> {
  const { distributor } = await apiRequest<{ distributor: Distributor }>('/distributors', {
    method: 'POST',
    body,
  });
  return distributor;
}

export function useCreateDistributor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDistributor,
    // The list and the pickers' options (['…', 'options']) both gain the new one.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: distributorsQueryKey }),
  });
}
