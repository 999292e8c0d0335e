import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { useQuery } from '@tanstack/react-query';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';

export type { AlertEpisode };
export type DeviceAlerts = { items: AlertEpisode[] };

/** How often the tablet asks for the store's alerts while the app is open (no live stream). */
export const alertPollMs = 30_000;

/**
 * GET /api/device/alerts every 30 s, on focus, when the network returns (the shell refreshes
 * every query then) and when a push arrives; the last list is kept in IndexedDB (cached query),
 * so a tablet that lost the network still shows the alarm it knew.
 */
export function deviceAlertsQueryOptions() {
  return {
    ...cachedQueryOptions<DeviceAlerts>('alerts'),
    refetchInterval: alertPollMs,
    // A kitchen tablet stays open on a screen that may be hidden behind another app.
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: 'always' as const,
    staleTime: 0,
  };
}

export function useDeviceAlerts() {
  return useQuery(deviceAlertsQueryOptions());
}

/** The outbox path of an acknowledgement. */
export function acknowledgePath(alertId: string): string {
  return `/device/alerts/${alertId}/acknowledge`;
}

/** The alert an outbox record acknowledges, if it is an acknowledgement. */
export function acknowledgedAlertId(record: OutboxRecord): string | null {
  if (record.kind !== 'alert-acknowledge') return null;
  return record.path.match(/^\/device\/alerts\/([^/]+)\/acknowledge$/)?.[1] ?? null;
}

export type AlertGroups = {
  /** Not acknowledged and not resolved: the red banner and the sound. */
  ringing: AlertEpisode[];
  /** Acknowledged on this tablet, the acknowledgement waiting in the outbox. */
  sending: AlertEpisode[];
  /** Resolved by itself but never acknowledged: still to acknowledge, without alarm. */
  toAcknowledge: AlertEpisode[];
  /** Acknowledged (here or elsewhere) while the condition still holds. */
  acknowledged: AlertEpisode[];
};

/** Sorts the store's episodes into what the screen shows, oldest first within each group. */
export function groupAlerts(
  items: readonly AlertEpisode[],
  sendingIds: ReadonlySet<string>,
): AlertGroups {
  const groups: AlertGroups = { ringing: [], sending: [], toAcknowledge: [], acknowledged: [] };
  const ordered = [...items].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  for (const episode of ordered) {
    if (episode.acknowledgedAt) {
      if (!episode.resolvedAt) groups.acknowledged.push(episode);
    } else if (sendingIds.has(episode.id)) groups.sending.push(episode);
    else if (episode.resolvedAt) groups.toAcknowledge.push(episode);
    else groups.ringing.push(episode);
  }
  return groups;
}

/** The episode with the server's acknowledgement in place of the old copy. */
export function replaceEpisode(
  data: DeviceAlerts | undefined,
  episode: AlertEpisode,
): DeviceAlerts | undefined {
  if (!data) return data;
  return { items: data.items.map((item) => (item.id === episode.id ? episode : item)) };
}
