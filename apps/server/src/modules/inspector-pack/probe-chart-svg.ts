import type { ZonedClock } from '../../platform/pdf/tasks';

/*
 * A probe's readings over the pack's period as an SVG line chart (issue 21): the mean of each
 * point as a line, the lowest and highest readings of each point as a band behind it, the
 * bound element's limits as dashed lines, day ticks in the store's zone. Plain SVG 1.1 text
 * (no script, no external reference): any browser or viewer opens it, and its bytes are
 * stable for the same readings, so the manifest's hash can be checked again.
 */

export type ChartPoint = {
  /** ISO instant of the point (a reading or a bucket's start). */
  timestamp: string;
  temperature: number;
  minTemperature: number;
  maxTemperature: number;
};

export type ProbeChartInput = {
  title: string;
  subtitle: string;
  /** The period's instants: the horizontal axis, [from, to). */
  from: Date;
  to: Date;
  points: readonly ChartPoint[];
  minimum: number | null;
  maximum: number | null;
  clock: ZonedClock;
  /** Shown when there is no point. */
  emptyText: string;
  /** Legend words. */
  legend: { mean: string; range: string; limits: string };
};

const width = 1000;
const height = 420;
const plot = { left: 60, right: 20, top: 64, bottom: 56 };
const plotWidth = width - plot.left - plot.right;
const plotHeight = height - plot.top - plot.bottom;

const escapeXml = (value: string) =>
  value.replace(
    /[<>&"']/g,
    (character) =>
      ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[character]!,
  );

/** One decimal at most, a dot: stable text whatever the locale. */
const coordinate = (value: number) => (Math.round(value * 10) / 10).toString();

/** A step that gives about `count` ticks over `span` (1, 2 or 5 times a power of ten). */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

export function renderProbeChartSvg(input: ProbeChartInput): string {
  const values = input.points.flatMap((point) => [point.minTemperature, point.maxTemperature]);
  for (const limit of [input.minimum, input.maximum]) if (limit !== null) values.push(limit);
  let low = values.length ? Math.min(...values) : 0;
  let high = values.length ? Math.max(...values) : 10;
  if (high - low < 2) {
    low -= 1;
    high += 1;
  }
  const step = niceStep(high - low, 6);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;

  const start = input.from.getTime();
  const span = Math.max(1, input.to.getTime() - start);
  const x = (iso: string) => plot.left + ((Date.parse(iso) - start) / span) * plotWidth;
  const y = (value: number) => plot.top + ((high - value) / (high - low)) * plotHeight;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${plot.left}" y="24" font-size="16" font-weight="bold" fill="#111111">${escapeXml(input.title)}</text>`,
    `<text x="${plot.left}" y="44" fill="#5b6170">${escapeXml(input.subtitle)}</text>`,
  );

  // Temperature grid and labels.
  for (let value = low; value <= high + step / 2; value += step) {
    const top = coordinate(y(value));
    parts.push(
      `<line x1="${plot.left}" y1="${top}" x2="${width - plot.right}" y2="${top}" stroke="#e3e6ec"/>`,
      `<text x="${plot.left - 8}" y="${top}" text-anchor="end" dominant-baseline="middle" fill="#5b6170">${escapeXml(`${coordinate(value)} °C`)}</text>`,
    );
  }
  // Day ticks: at most about 16 labels whatever the period's length.
  const days: string[] = [];
  for (
    let day = input.clock.instant(input.from.toISOString()).date, at = start;
    at < start + span;
  ) {
    days.push(day);
    at += 86_400_000;
    day = input.clock.instant(new Date(at).toISOString()).date;
  }
  const labelEvery = Math.max(1, Math.ceil(days.length / 16));
  days.forEach((label, index) => {
    if (index % labelEvery !== 0) return;
    const left = coordinate(plot.left + ((index * 86_400_000) / span) * plotWidth);
    parts.push(
      `<line x1="${left}" y1="${plot.top}" x2="${left}" y2="${plot.top + plotHeight}" stroke="#eef0f4"/>`,
      `<text x="${left}" y="${plot.top + plotHeight + 18}" text-anchor="middle" fill="#5b6170">${escapeXml(label.slice(0, 5))}</text>`,
    );
  });
  parts.push(
    `<rect x="${plot.left}" y="${plot.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#b8bcc6"/>`,
  );

  // Limits of the bound element.
  for (const limit of [input.minimum, input.maximum]) {
    if (limit === null) continue;
    const top = coordinate(y(limit));
    parts.push(
      `<line x1="${plot.left}" y1="${top}" x2="${width - plot.right}" y2="${top}" stroke="#d32f2f" stroke-dasharray="6 4"/>`,
    );
  }

  if (input.points.length === 0) {
    parts.push(
      `<text x="${width / 2}" y="${plot.top + plotHeight / 2}" text-anchor="middle" fill="#5b6170">${escapeXml(input.emptyText)}</text>`,
    );
  } else {
    const upper = input.points.map(
      (point) => `${coordinate(x(point.timestamp))},${coordinate(y(point.maxTemperature))}`,
    );
    const lower = input.points
      .map((point) => `${coordinate(x(point.timestamp))},${coordinate(y(point.minTemperature))}`)
      .reverse();
    parts.push(
      `<polygon points="${[...upper, ...lower].join(' ')}" fill="#9fb4e0" fill-opacity="0.45" stroke="none"/>`,
      `<polyline points="${input.points
        .map((point) => `${coordinate(x(point.timestamp))},${coordinate(y(point.temperature))}`)
        .join(' ')}" fill="none" stroke="#2f3a56" stroke-width="1.5"/>`,
    );
  }

  // Legend.
  const legendTop = height - 14;
  parts.push(
    `<line x1="${plot.left}" y1="${legendTop - 4}" x2="${plot.left + 24}" y2="${legendTop - 4}" stroke="#2f3a56" stroke-width="2"/>`,
    `<text x="${plot.left + 30}" y="${legendTop}" fill="#111111">${escapeXml(input.legend.mean)}</text>`,
    `<rect x="${plot.left + 200}" y="${legendTop - 10}" width="24" height="10" fill="#9fb4e0" fill-opacity="0.45"/>`,
    `<text x="${plot.left + 230}" y="${legendTop}" fill="#111111">${escapeXml(input.legend.range)}</text>`,
    `<line x1="${plot.left + 420}" y1="${legendTop - 4}" x2="${plot.left + 444}" y2="${legendTop - 4}" stroke="#d32f2f" stroke-dasharray="6 4"/>`,
    `<text x="${plot.left + 450}" y="${legendTop}" fill="#111111">${escapeXml(input.legend.limits)}</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
