import type { trainingResponseSchema } from '@mise/shared/trainings/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { trainingsQueryKeys } from './training-query-keys';

export type TrainingResponse = z.infer<typeof trainingResponseSchema>;

/** GET /api/trainings/:id — the training with its sections, target and version. */
export function getTraining(trainingId: string, signal?: AbortSignal): Promise<TrainingResponse> {
  return apiRequest<TrainingResponse>(`/trainings/${encodeURIComponent(trainingId)}`, { signal });
}

export function trainingQueryOptions(trainingId: string) {
  return queryOptions({
    queryKey: trainingsQueryKeys.detail(trainingId),
    queryFn: ({ signal }) => getTraining(trainingId, signal),
  });
}

export function useTraining(trainingId: string | null) {
  return useQuery({ ...trainingQueryOptions(trainingId ?? ''), enabled: Boolean(trainingId) });
}
