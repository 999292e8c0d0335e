import type { Probe } from '@mise/shared/probes/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { probesQueryKey } from './probes-query-keys';

/** POST /api/probes/removeOwnership/:probeUID: the probe no longer belongs to a store. */
export async function removeProbeOwnership(probeUID: string): Promise<Probe> {
  const { probe } = await apiRequest<{ probe: Probe }>(
    `/probes/removeOwnership/${encodeURIComponent(probeUID)}`,
    { method: 'POST' },
  );
  return probe;
}

export function useRemoveProbeOwnership(probeUID: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeProbeOwnership(probeUID),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: probesQueryKey });
    },
  });
}
