import { describe, expect, it } from 'vitest';
import { profilingChartPoints } from './rules';

const snapshot = (second: number, cpu: number, memory: number) => ({
  cpuUsagePercent: cpu,
  memoryUsagePercent: memory,
  timestamp: new Date(Date.UTC(2026, 10, 25, 8, 0, second)).toISOString(),
});

describe('profilingChartPoints (spec 002 §9)', () => {
  it('averages groups of 5 and drops the incomplete last group', () => {
    const snapshots = [10, 20, 30, 40, 50, 0, 0, 0, 0, 5, 99, 99].map((cpu, index) =>
      snapshot(index, cpu, 50),
    );
    const points = profilingChartPoints(snapshots);
    expect(points).toHaveLength(2);
    expect(points[0]).toEqual({ timestamp: snapshots[4]!.timestamp, cpu: 30, memory: 50 });
    expect(points[1]!.cpu).toBe(1);
  });

  it('floors cpu and memory at 0', () => {
    const points = profilingChartPoints([0, 1, 2, 3, 4].map((index) => snapshot(index, -3, -1)));
    expect(points).toEqual([{ timestamp: snapshot(4, 0, 0).timestamp, cpu: 0, memory: 0 }]);
  });

  it('has no point before 5 snapshots', () => {
    expect(profilingChartPoints([snapshot(0, 5, 5), snapshot(1, 5, 5)])).toEqual([]);
  });
});
