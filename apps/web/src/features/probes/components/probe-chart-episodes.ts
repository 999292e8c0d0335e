import type { AlertEpisode } from '@mise/shared/probes/alerts';

/** A shaded span of the temperature chart, in seconds since the epoch (uPlot's x). */
export type EpisodeShade = { start: number; end: number; kind: 'out_of_range' | 'offline' };

/**
 * The alert episodes the temperature chart shades: out of range and offline ones, from their
 * start to their resolution (or to `now` while they last), cut to the chart's period (ms)
 * when given. A low battery says nothing about the temperatures and is not shaded.
 */
export function episodeShades(
  episodes: readonly AlertEpisode[],
  now: number,
  period?: { start: number; end: number },
): EpisodeShade[] {
  const shades: EpisodeShade[] = [];
  for (const episode of episodes) {
    if (episode.kind === 'low_battery') continue;
    let start = Date.parse(episode.startedAt);
    let end = episode.resolvedAt === null ? now : Date.parse(episode.resolvedAt);
    if (period) {
      start = Math.max(start, period.start);
      end = Math.min(end, period.end);
    }
    if (Number.isNaN(start) || Number.isNaN(end) || end < start) continue;
    shades.push({ start: start / 1000, end: end / 1000, kind: episode.kind });
  }
  return shades;
}
