import type { taskGenerationRunResponseSchema } from '@mise/shared/tasks/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { technicalQueryKeys } from './technical-query-keys';

export type GenerationRun = z.infer<typeof taskGenerationRunResponseSchema>;

/** POST /api/task_generation/run {storeId}: generates the store's today now (forced). */
export function runGeneration(storeId: string): Promise<GenerationRun> {
  return apiRequest<GenerationRun>('/task_generation/run', {
    method: 'POST',
    body: { storeId },
  });
}

/** The run writes events: the searched list is read again. */
export function useRunGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runGeneration,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: technicalQueryKeys.generationEvents() }),
  });
}
