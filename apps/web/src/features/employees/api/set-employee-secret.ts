import type { Employee, employeeSecretBodySchema } from '@mise/shared/people/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { employeesQueryKey } from './get-employees';

export type EmployeeSecretBody = z.infer<typeof employeeSecretBodySchema>;

/** PUT /api/stores/:storeId/employees/:employeeId/secret with {pin} or {pattern}. */
export async function setEmployeeSecret(
  storeId: string,
  employeeId: string,
  body: EmployeeSecretBody,
): Promise<Employee> {
  const { employee } = await apiRequest<{ employee: Employee }>(
    `/stores/${encodeURIComponent(storeId)}/employees/${encodeURIComponent(employeeId)}/secret`,
    { method: 'PUT', body },
  );
  return employee;
}

export function useSetEmployeeSecret(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ employeeId, body }: { employeeId: string; body: EmployeeSecretBody }) =>
      setEmployeeSecret(storeId, employeeId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey(storeId) }),
  });
}
