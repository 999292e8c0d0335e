import { describe, expect, it } from 'vitest';
import { chartThresholds, probeChartData } from './probe-chart-data';

const point = (timestamp: string, temperature: number, min: number, max: number) => ({
  timestamp,
  temperature,
  minTemperature: min,
  maxTemperature: max,
  batteryLevel: 80,
  count: 12,
});

describe('probeChartData', () => {
  const readings = [
    point('2026-11-24T10:00:00.000Z', 3, 2, 5),
    point('2026-11-24T11:00:00.000Z', 4, 3, 9),
  ];

  it('draws each bucket’s extremes as a band when the range is downsampled', () => {
    const data = probeChartData(
      { bucketSeconds: 3600, readings },
      { minimumTemperature: 0, maximumTemperature: 4 },
    );
    expect(data.times).toEqual([1_795_514_400, 1_795_518_000]);
    expect(data.temperatures).toEqual([3, 4]);
    expect(data.band).toEqual({ lows: [2, 3], highs: [5, 9] });
    expect(data.minimumLine).toEqual([0, 0]);
    expect(data.maximumLine).toEqual([4, 4]);
  });

  it('has no band for raw readings and no line for a threshold the probe lacks', () => {
    const data = probeChartData(
      { bucketSeconds: null, readings },
      { minimumTemperature: null, maximumTemperature: 4 },
    );
    expect(data.band).toBeNull();
    expect(data.minimumLine).toBeNull();
    expect(data.batteryLevels).toEqual([80, 80]);
  });
});

describe('chartThresholds: the probe’s own range, else its bound element’s', () => {
  const element = { name: 'Congélateur', minimumTemperature: -25, maximumTemperature: -18 };
  it('takes the element’s range where the probe has none', () => {
    expect(
      chartThresholds({ minimumTemperature: null, maximumTemperature: null, element }),
    ).toEqual({ minimumTemperature: -25, maximumTemperature: -18 });
  });
  it('keeps the probe’s own bounds first', () => {
    expect(chartThresholds({ minimumTemperature: -30, maximumTemperature: null, element })).toEqual(
      { minimumTemperature: -30, maximumTemperature: -18 },
    );
    expect(
      chartThresholds({ minimumTemperature: null, maximumTemperature: null, element: null }),
    ).toEqual({ minimumTemperature: null, maximumTemperature: null });
  });
});
