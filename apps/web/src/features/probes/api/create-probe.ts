import type { createProbeBodySchema, Probe } from '@mise/shared/probes/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { probesQueryKey } from './probes-query-keys';

export type CreateProbeBody = z.input<typeof createProbeBodySchema>;
export type CreatedProbe = { probe: Probe; secret: string };

/** POST /api/probes (admin): registers a probe; the answer carries its secret, once. */
export async function createProbe(body: CreateProbeBody): Promise<CreatedProbe> {
  return apiRequest<CreatedProbe>('/probes', {
    method: 'POST',
    body,
  });
}

export function useCreateProbe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProbe,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: probesQueryKey });
    },
  });
}
