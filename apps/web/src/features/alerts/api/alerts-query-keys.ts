import type { AlertListQuery } from '@mise/shared/probes/alerts';

/** Query keys of the alerts feature: every episode list lives under `alertsQueryKey`. */
export const alertsQueryKey = ['alerts'] as const;

export type AlertListFilter = Partial<AlertListQuery>;

export const alertListQueryKey = (filter: AlertListFilter) =>
  [...alertsQueryKey, 'list', filter] as const;

/** The browser's push state: the server's key and this browser's subscription. */
export const pushQueryKeys = {
  all: ['push'] as const,
  key: ['push', 'key'] as const,
  subscription: ['push', 'subscription'] as const,
};
