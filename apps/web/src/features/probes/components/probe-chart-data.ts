import type { Probe } from '@mise/shared/probes/schemas';
import type { ProbeTemperatures } from '../api/get-probe-temperatures';

/**
 * The readings of a range as uPlot's aligned columns (x in seconds since the epoch): the
 * temperature, each bucket's extremes when the range is downsampled, the probe's thresholds
 * as constant columns, and the battery level.
 */
export type ProbeChartData = {
  times: number[];
  temperatures: number[];
  /** Each bucket's lowest and highest reading; null when the readings come one by one. */
  band: { lows: number[]; highs: number[] } | null;
  minimumLine: number[] | null;
  maximumLine: number[] | null;
  batteryLevels: (number | null)[];
};

/**
 * The range the chart draws: the probe's own minimum and maximum, else its bound element's
 * (the range its alerts use by default).
 */
export function chartThresholds(
  probe: Pick<Probe, 'minimumTemperature' | 'maximumTemperature' | 'element'>,
): Pick<Probe, 'minimumTemperature' | 'maximumTemperature'> {
  return {
    minimumTemperature: probe.minimumTemperature ?? probe.element?.minimumTemperature ?? null,
    maximumTemperature: probe.maximumTemperature ?? probe.element?.maximumTemperature ?? null,
  };
}

export function probeChartData(
  answer: Pick<ProbeTemperatures, 'bucketSeconds' | 'readings'>,
  thresholds: Pick<Probe, 'minimumTemperature' | 'maximumTemperature'>,
): ProbeChartData {
  const points = answer.readings;
  const times = points.map((point) => Date.parse(point.timestamp) / 1000);
  const constant = (value: number | null) => (value === null ? null : points.map(() => value));
  return {
    times,
    temperatures: points.map((point) => point.temperature),
    band:
      answer.bucketSeconds === null
        ? null
        : {
            lows: points.map((point) => point.minTemperature),
            highs: points.map((point) => point.maxTemperature),
          },
    minimumLine: constant(thresholds.minimumTemperature),
    maximumLine: constant(thresholds.maximumTemperature),
    batteryLevels: points.map((point) => point.batteryLevel),
  };
}
