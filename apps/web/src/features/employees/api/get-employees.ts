import type { employeesResponseSchema } from '@mise/shared/people/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';

export type Employees = z.infer<typeof employeesResponseSchema>;

export const employeesQueryKey = (storeId: string) => ['stores', storeId, 'employees'] as const;

/**
 * GET /api/stores/:storeId/employees?includeInactive=true. The tab always reads the inactive
 * employees too: the show-inactive toggle only filters what is shown, so toggling it keeps the
 * unsaved changes and a save still writes every employee.
 */
export function getEmployees(storeId: string, signal?: AbortSignal): Promise<Employees> {
  return apiRequest<Employees>(`/stores/${encodeURIComponent(storeId)}/employees`, {
    query: { includeInactive: true },
    signal,
  });
}

export function employeesQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: employeesQueryKey(storeId),
    queryFn: ({ signal }) => getEmployees(storeId, signal),
  });
}

export function useEmployees(storeId: string) {
  return useQuery(employeesQueryOptions(storeId));
}
