import type { AlertEpisode, AlertKind } from '@mise/shared/probes/alerts';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../shared/format/date';
import { formatStoreDateTime } from '../../../shared/format/store-clock';

/** Each kind's colour (badges, chart shading): red out of range, grey offline, orange battery. */
export const alertKindColors: Record<AlertKind, 'red' | 'gray' | 'orange'> = {
  out_of_range: 'red',
  offline: 'gray',
  low_battery: 'orange',
};

/** One decimal at most: 4, 7.5, -18.2. */
export function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/**
 * dd/mm/yyyy HH:MM on the store's clock when its zone is known (the home page), else on the
 * browser's, like the probe page's chart.
 */
export function formatAlertTime(value: string | null, timeZone: string | undefined): string {
  if (value === null) return '';
  return timeZone ? formatStoreDateTime(value, timeZone) : formatDateTime(value);
}

/** The probe's range as words: "0 to 4 °C", "at least 0 °C", "at most 4 °C"; null without one. */
export function rangeText(
  t: TFunction,
  episode: Pick<AlertEpisode, 'minimumTemperature' | 'maximumTemperature'>,
): string | null {
  const { minimumTemperature: minimum, maximumTemperature: maximum } = episode;
  if (minimum !== null && maximum !== null) {
    return t('alerts.rangeBetween', {
      minimum: formatValue(minimum),
      maximum: formatValue(maximum),
    });
  }
  if (minimum !== null) return t('alerts.rangeAbove', { minimum: formatValue(minimum) });
  if (maximum !== null) return t('alerts.rangeBelow', { maximum: formatValue(maximum) });
  return null;
}

/**
 * What the figures of an episode say: the worst and last temperatures against the range when
 * out of range, the battery level for a low battery, the last known temperature when offline.
 */
export function episodeFigures(t: TFunction, episode: AlertEpisode): string[] {
  const figures: string[] = [];
  if (episode.kind === 'low_battery') {
    if (episode.lastValue !== null)
      figures.push(t('alerts.battery', { value: Math.round(episode.lastValue) }));
    return figures;
  }
  if (episode.kind === 'out_of_range' && episode.worstValue !== null)
    figures.push(t('alerts.worst', { value: formatValue(episode.worstValue) }));
  if (episode.lastValue !== null)
    figures.push(t('alerts.last', { value: formatValue(episode.lastValue) }));
  const range = rangeText(t, episode);
  if (range && episode.kind === 'out_of_range') figures.push(t('alerts.range', { range }));
  return figures;
}

/** The element the probe watches, else the probe's own name. */
export function episodeTitle(episode: AlertEpisode): string {
  return episode.elementName ?? episode.probeName;
}
