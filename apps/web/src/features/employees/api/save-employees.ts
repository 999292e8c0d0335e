import type { saveEmployeesBodySchema } from '@mise/shared/people/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { employeesQueryKey } from './get-employees';

export type SaveEmployeesBody = z.infer<typeof saveEmployeesBodySchema>;

/** PUT /api/stores/:storeId/employees: every employee (new ones without id), with versions. */
export function saveEmployees(storeId: string, body: SaveEmployeesBody): Promise<unknown> {
  return apiRequest<unknown>(`/stores/${encodeURIComponent(storeId)}/employees`, {
    method: 'PUT',
    body,
  });
}

export function useSaveEmployees(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveEmployeesBody) => saveEmployees(storeId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey(storeId) }),
  });
}
