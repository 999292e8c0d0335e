import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

/*
 * What one profiling snapshot measures (spec 002 §3; docs/decisions.md "Issue 20: server
 * instances, profiling and output"):
 * - cpuUsagePercent: the CPU time this process used (user + system, process.cpuUsage) since the
 *   previous sample, divided by the wall time elapsed and by the CPUs it may use (the container's
 *   CPU quota when one is set, else os.availableParallelism()), 0 to 100;
 * - memoryUsagePercent: this process's resident set size (RSS) over the memory it may use (the
 *   container's cgroup memory limit when one is set and lower, else os.totalmem()), 0 to 100.
 */

export type ProcessSample = { cpuUsagePercent: number; memoryUsagePercent: number };

export type ProcessSampler = {
  /** The usage since the previous call (the first: since the sampler was made). */
  sample(): ProcessSample;
};

const clampPercent = (value: number) =>
  Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value * 100) / 100)) : 0;

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The folders of this process's cgroup (v2 unified hierarchy), its own first, then the root. */
function cgroupFolders(): string[] {
  const line = readText('/proc/self/cgroup')
    ?.split('\n')
    .find((entry) => entry.startsWith('0::'));
  const own = line ? `/sys/fs/cgroup${line.slice(3)}`.replace(/\/$/, '') : null;
  return own && own !== '/sys/fs/cgroup' ? [own, '/sys/fs/cgroup'] : ['/sys/fs/cgroup'];
}

/** The cgroup memory limit in bytes, or null when there is none. */
export function cgroupMemoryLimit(): number | null {
  const limits: number[] = [];
  for (const folder of cgroupFolders()) {
    const value = readText(`${folder}/memory.max`);
    if (value && value !== 'max' && Number(value) > 0) limits.push(Number(value));
  }
  // cgroup v1.
  const v1 = Number(readText('/sys/fs/cgroup/memory/memory.limit_in_bytes'));
  if (v1 > 0) limits.push(v1);
  return limits.length ? Math.min(...limits) : null;
}

/** The CPU quota in CPUs (e.g. 1.5), or null when there is none. */
export function cgroupCpuLimit(): number | null {
  const limits: number[] = [];
  for (const folder of cgroupFolders()) {
    const [quota, period] = (readText(`${folder}/cpu.max`) ?? 'max').split(' ');
    if (quota && quota !== 'max' && Number(quota) > 0 && Number(period) > 0) {
      limits.push(Number(quota) / Number(period));
    }
  }
  const quota = Number(readText('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
  const period = Number(readText('/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
  if (quota > 0 && period > 0) limits.push(quota / period);
  return limits.length ? Math.min(...limits) : null;
}

export function createProcessSampler(
  options: { cpus?: number; memoryLimitBytes?: number } = {},
): ProcessSampler {
  const cpus = options.cpus ?? Math.min(availableParallelism(), cgroupCpuLimit() ?? Infinity);
  const memoryLimit =
    options.memoryLimitBytes ?? Math.min(totalmem(), cgroupMemoryLimit() ?? Infinity);
  let previousCpu = process.cpuUsage();
  let previousAt = process.hrtime.bigint();
  return {
    sample() {
      const cpu = process.cpuUsage(previousCpu);
      const at = process.hrtime.bigint();
      const elapsedMicroseconds = Number(at - previousAt) / 1000;
      previousCpu = process.cpuUsage();
      previousAt = at;
      const used = cpu.user + cpu.system;
      return {
        cpuUsagePercent: clampPercent(
          elapsedMicroseconds > 0 ? (used / elapsedMicroseconds / Math.max(cpus, 0.01)) * 100 : 0,
        ),
        memoryUsagePercent: clampPercent((process.memoryUsage.rss() / memoryLimit) * 100),
      };
    },
  };
}
