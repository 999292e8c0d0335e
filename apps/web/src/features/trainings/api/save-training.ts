import type {
  createTrainingBodySchema,
  saveTrainingBodySchema,
} from '@mise/shared/trainings/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import type { TrainingResponse } from './get-training';
import {
  trainingListsQueryKey,
  trainingsQueryKey,
  trainingsQueryKeys,
} from './training-query-keys';

export type SaveTrainingRequest =
  | { kind: 'create'; body: z.input<typeof createTrainingBodySchema> }
  | { kind: 'update'; trainingId: string; body: z.input<typeof saveTrainingBodySchema> };

/**
 * POST /api/trainings (the body names the selection its type and source come from; 400
 * 'training/select-source' without one), or PUT /api/trainings/:id with the version read (409
 * 'conflict/stale-version' when someone saved in between).
 */
export function saveTraining(request: SaveTrainingRequest): Promise<TrainingResponse> {
  return apiRequest<TrainingResponse>(
    request.kind === 'create'
      ? '/trainings'
      : `/trainings/${encodeURIComponent(request.trainingId)}`,
    { method: request.kind === 'create' ? 'POST' : 'PUT', body: request.body },
  );
}

/** The saved training becomes the cached detail; lists, statistics and home refresh. */
export function useSaveTraining() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTraining,
    onSuccess: (response) => {
      queryClient.setQueryData(trainingsQueryKeys.detail(response.training.id), response);
      void queryClient.invalidateQueries({ queryKey: trainingListsQueryKey });
      void queryClient.invalidateQueries({
        queryKey: trainingsQueryKeys.stats(response.training.id),
      });
      void queryClient.invalidateQueries({ queryKey: [...trainingsQueryKey, 'home'] });
    },
  });
}
