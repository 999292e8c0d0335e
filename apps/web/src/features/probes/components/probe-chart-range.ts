import dayjs from 'dayjs';
import type { ChartRange } from '../api/get-probe-temperatures';

/** Quick ranges of the chart, ending now (the default is the last 24 hours). */
export const chartPresets = ['day', 'week', 'month', 'year'] as const;
export type ChartPreset = (typeof chartPresets)[number];

const presetStart: Record<ChartPreset, (end: dayjs.Dayjs) => dayjs.Dayjs> = {
  day: (end) => end.subtract(24, 'hour'),
  week: (end) => end.subtract(7, 'day'),
  month: (end) => end.subtract(30, 'day'),
  year: (end) => end.subtract(1, 'year'),
};

export function presetRange(preset: ChartPreset, now: Date): ChartRange {
  const end = dayjs(now);
  return { start: presetStart[preset](end).toISOString(), end: end.toISOString() };
}

/** Calendar days picked (YYYY-MM-DD, both included) as instants: first to last millisecond. */
export function dayRange(startDay: string, endDay: string): ChartRange {
  return {
    start: dayjs(startDay).startOf('day').toISOString(),
    end: dayjs(endDay).endOf('day').toISOString(),
  };
}
