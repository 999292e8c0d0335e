import type { RetentionResponse, UpdateRetentionBody } from '@mise/shared/records/retention';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { retentionQueryKey } from './get-retention';

/** PUT /api/databases/:id/retention with the changed types only; answers what is stored. */
export function updateRetention(
  databaseId: string,
  body: UpdateRetentionBody,
): Promise<RetentionResponse> {
  return apiRequest<RetentionResponse>(`/databases/${encodeURIComponent(databaseId)}/retention`, {
    method: 'PUT',
    body,
  });
}

export function useUpdateRetention(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRetentionBody) => updateRetention(databaseId, body),
    // The answer is the stored retention: the screen shows it without another read.
    onSuccess: (saved) => queryClient.setQueryData(retentionQueryKey(databaseId), saved),
  });
}
