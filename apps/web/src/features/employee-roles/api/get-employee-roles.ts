import type { employeeRolesResponseSchema } from '@mise/shared/people/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';

export type EmployeeRoles = z.infer<typeof employeeRolesResponseSchema>;

export const employeeRolesQueryKey = (databaseId: string) =>
  ['databases', databaseId, 'employeeRoles'] as const;

/** GET /api/databases/:databaseId/employeeRoles */
export function getEmployeeRoles(databaseId: string, signal?: AbortSignal): Promise<EmployeeRoles> {
  return apiRequest<EmployeeRoles>(`/databases/${encodeURIComponent(databaseId)}/employeeRoles`, {
    signal,
  });
}

export function employeeRolesQueryOptions(databaseId: string) {
  return queryOptions({
    queryKey: employeeRolesQueryKey(databaseId),
    queryFn: ({ signal }) => getEmployeeRoles(databaseId, signal),
  });
}

export function useEmployeeRoles(databaseId: string) {
  return useQuery(employeeRolesQueryOptions(databaseId));
}
