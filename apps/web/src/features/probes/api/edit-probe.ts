import type { EditProbeBody, Probe } from '@mise/shared/probes/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { probesQueryKey } from './probes-query-keys';

/** POST /api/probes/edit/:probeUID; postingInterval in minutes (the server stores seconds). */
export async function editProbe(probeUID: string, body: EditProbeBody): Promise<Probe> {
  const { probe } = await apiRequest<{ probe: Probe }>(
    `/probes/edit/${encodeURIComponent(probeUID)}`,
    { method: 'POST', body },
  );
  return probe;
}

export function useEditProbe(probeUID: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditProbeBody) => editProbe(probeUID, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: probesQueryKey });
    },
  });
}
