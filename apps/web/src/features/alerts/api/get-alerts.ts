import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type AlertListFilter, alertListQueryKey } from './alerts-query-keys';

/**
 * GET /api/alerts?storeId&probeUID&state&from&to&limit: the episodes the user sees, newest
 * first. state=open keeps those not resolved or not acknowledged.
 */
export async function getAlerts(
  filter: AlertListFilter,
  signal?: AbortSignal,
): Promise<AlertEpisode[]> {
  const { items } = await apiRequest<{ items: AlertEpisode[] }>('/alerts', {
    query: { ...filter },
    signal,
  });
  return items;
}

export function alertsQueryOptions(filter: AlertListFilter) {
  return queryOptions({
    queryKey: alertListQueryKey(filter),
    queryFn: ({ signal }) => getAlerts(filter, signal),
    placeholderData: keepPreviousData,
  });
}

type UseAlertsOptions = {
  enabled?: boolean;
  /** Where no store's live events refresh the list (the distributor's home), a poll does. */
  refetchIntervalMs?: number;
};

export function useAlerts(filter: AlertListFilter, options: UseAlertsOptions = {}) {
  return useQuery({
    ...alertsQueryOptions(filter),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchIntervalMs ?? false,
  });
}
