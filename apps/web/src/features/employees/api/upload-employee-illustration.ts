import type { Employee } from '@mise/shared/people/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';
import { employeesQueryKey } from './get-employees';

/** POST /api/stores/:storeId/employees/:employeeId/illustration (multipart field `file`). */
export async function uploadEmployeeIllustration(
  storeId: string,
  employeeId: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<Employee> {
  const formData = new FormData();
  formData.append('file', file);
  const { employee } = await apiUpload<{ employee: Employee }>(
    `/stores/${encodeURIComponent(storeId)}/employees/${encodeURIComponent(employeeId)}/illustration`,
    { formData, onProgress },
  );
  return employee;
}

export function useUploadEmployeeIllustration(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      employeeId,
      file,
      onProgress,
    }: {
      employeeId: string;
      file: File;
      onProgress?: (percent: number) => void;
    }) => uploadEmployeeIllustration(storeId, employeeId, file, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey(storeId) }),
  });
}
