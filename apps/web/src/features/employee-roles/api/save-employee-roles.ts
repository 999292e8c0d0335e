import type { saveEmployeeRolesBodySchema } from '@mise/shared/people/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { employeeRolesQueryKey } from './get-employee-roles';

export type SaveEmployeeRolesBody = z.infer<typeof saveEmployeeRolesBodySchema>;

/** PUT /api/databases/:databaseId/employeeRoles: every role (new ones without id). */
export function saveEmployeeRoles(
  databaseId: string,
  body: SaveEmployeeRolesBody,
): Promise<unknown> {
  return apiRequest<unknown>(`/databases/${encodeURIComponent(databaseId)}/employeeRoles`, {
    method: 'PUT',
    body,
  });
}

export function useSaveEmployeeRoles(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveEmployeeRolesBody) => saveEmployeeRoles(databaseId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeeRolesQueryKey(databaseId) }),
  });
}
