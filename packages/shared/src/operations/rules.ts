import { type ProfilingSnapshot, profilingGroupSize } from './schemas';

export type ProfilingPoint = { timestamp: string; cpu: number; memory: number };

/**
 * The profiling chart's points (spec 002 §9): snapshots averaged in groups of 5 (oldest first),
 * an incomplete last group dropped, cpu and memory floored at 0. A point carries the time of
 * its group's last snapshot.
 */
export function profilingChartPoints(
  snapshots: readonly ProfilingSnapshot[],
  groupSize = profilingGroupSize,
): ProfilingPoint[] {
  const points: ProfilingPoint[] = [];
  for (let start = 0; start + groupSize <= snapshots.length; start += groupSize) {
    const group = snapshots.slice(start, start + groupSize);
    const average = (pick: (snapshot: ProfilingSnapshot) => number) =>
      Math.max(0, group.reduce((sum, snapshot) => sum + pick(snapshot), 0) / groupSize);
    points.push({
      timestamp: group[groupSize - 1]!.timestamp,
      cpu: average((snapshot) => snapshot.cpuUsagePercent),
      memory: average((snapshot) => snapshot.memoryUsagePercent),
    });
  }
  return points;
}
