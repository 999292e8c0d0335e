import type { TFunction } from 'i18next';
import { i18n } from '../../shared/i18n/i18n';
import { formatDate, formatTime } from '../../shared/ui/format';
import type { AlertEpisode } from './device-alerts';

/** A temperature as the store reads it: one decimal at most, in the app's language. */
export function formatTemperature(value: number): string {
  return `${new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value)} °C`;
}

/** What the episode is about: the bound element, else the probe's name. */
export function alertSubject(episode: AlertEpisode): string {
  return episode.elementName ?? episode.probeName;
}

/** The probe, when the element's name does not already say it. */
export function alertProbe(t: TFunction, episode: AlertEpisode): string | null {
  return episode.elementName ? t('alerts.probe', { name: episode.probeName }) : null;
}

/** "Since 10:05" today, "Since 23/11/2026 22:10" before (on the store's clock). */
export function alertSince(t: TFunction, episode: AlertEpisode, now: Date): string {
  const started = new Date(episode.startedAt);
  const isToday = formatDate(started) === formatDate(now);
  return t('alerts.since', {
    time: isToday ? formatTime(started) : formatDate(started, { withTime: true }),
  });
}

/** The range the probe must stay in, if it has one. */
export function alertRange(t: TFunction, episode: AlertEpisode): string | null {
  const { minimumTemperature: min, maximumTemperature: max } = episode;
  if (min !== null && max !== null)
    return t('alerts.range', { min: formatTemperature(min), max: formatTemperature(max) });
  if (max !== null) return t('alerts.rangeMax', { max: formatTemperature(max) });
  if (min !== null) return t('alerts.rangeMin', { min: formatTemperature(min) });
  return null;
}

/** The figures of the episode: the last temperature (and the worst) of an out-of-range one. */
export function alertReading(t: TFunction, episode: AlertEpisode): string | null {
  if (episode.lastValue === null) return null;
  const last = t('alerts.last', { value: formatTemperature(episode.lastValue) });
  if (
    episode.kind !== 'out_of_range' ||
    episode.worstValue === null ||
    episode.worstValue === episode.lastValue
  )
    return last;
  return `${last} · ${t('alerts.worst', { value: formatTemperature(episode.worstValue) })}`;
}

/** One line for a screen reader's announcement or an outbox label. */
export function alertSummary(t: TFunction, episode: AlertEpisode): string {
  return t('alerts.summary', {
    subject: alertSubject(episode),
    kind: t(`alerts.kinds.${episode.kind}`),
  });
}
