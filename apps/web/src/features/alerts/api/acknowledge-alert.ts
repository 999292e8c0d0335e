import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { alertsQueryKey } from './alerts-query-keys';

/**
 * POST /api/alerts/:alertId/acknowledge {correctiveAction}: the episode with its
 * acknowledgement (who, when, what was done). 409 alert/already-acknowledged when someone
 * was quicker.
 */
export async function acknowledgeAlert(
  alertId: string,
  correctiveAction: string,
): Promise<AlertEpisode> {
  const { alert } = await apiRequest<{ alert: AlertEpisode }>(
    `/alerts/${encodeURIComponent(alertId)}/acknowledge`,
    { method: 'POST', body: { correctiveAction } },
  );
  return alert;
}

export function useAcknowledgeAlert(alertId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correctiveAction: string) => acknowledgeAlert(alertId, correctiveAction),
    // Settled, not only succeeded: an "already acknowledged" refusal means the list is stale.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: alertsQueryKey });
    },
  });
}
