/**
 * The figures an upload shows besides its percentage: the speed over the last few seconds and
 * the time left at that speed. Pure, so they are computed the same way everywhere.
 */

/** Bytes sent at an instant (milliseconds, any clock that only moves forward). */
export type ProgressSample = { at: number; bytes: number };

/** The speed is measured over this window: long enough to smooth bursts, short enough to follow. */
export const speedWindowMs = 5000;
/** No speed (nor time left) is shown before this much time has been measured. */
export const minimumMeasureMs = 1000;

/**
 * The samples to keep once `sample` arrives: those inside the window (at least the one before
 * it, so there is always something to measure from). Bytes going backwards (an upload resumed from the server's
 * offset after a cut) start the measure again.
 */
export function addProgressSample(
  samples: readonly ProgressSample[],
  sample: ProgressSample,
  windowMs = speedWindowMs,
): ProgressSample[] {
  const last = samples.at(-1);
  if (last && (sample.bytes < last.bytes || sample.at < last.at)) return [sample];
  const inside = samples.filter((item) => sample.at - item.at <= windowMs);
  // A pause in the events longer than the window: measure from the sample before.
  if (inside.length === 0 && last) return [last, sample];
  return [...inside, sample];
}

export type ProgressFigures = {
  /** Bytes per second over the window; 0 while unknown. */
  speedBytesPerSecond: number;
  /** Whole seconds left at that speed; null while unknown. */
  secondsLeft: number | null;
};

/** The speed over the samples and the time left for the rest of `bytesTotal`. */
export function progressFigures(
  samples: readonly ProgressSample[],
  bytesTotal: number,
): ProgressFigures {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return { speedBytesPerSecond: 0, secondsLeft: null };
  const elapsedMs = last.at - first.at;
  const bytes = last.bytes - first.bytes;
  if (elapsedMs < minimumMeasureMs) {
    return { speedBytesPerSecond: 0, secondsLeft: last.bytes >= bytesTotal ? 0 : null };
  }
  const speedBytesPerSecond = (bytes * 1000) / elapsedMs;
  const remaining = Math.max(0, bytesTotal - last.bytes);
  if (remaining === 0) return { speedBytesPerSecond, secondsLeft: 0 };
  if (speedBytesPerSecond <= 0) return { speedBytesPerSecond: 0, secondsLeft: null };
  return { speedBytesPerSecond, secondsLeft: Math.ceil(remaining / speedBytesPerSecond) };
}

const kibibyte = 1024;
const mebibyte = 1024 * 1024;
const gibibyte = 1024 * 1024 * 1024;

function formatUnit(language: string, value: number, unit: string, fractionDigits: number) {
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/**
 * A size in the interface language, in binary multiples as the 500 MB limit counts them
 * ("12.5 MB", "12,5 Mo").
 */
export function formatBytes(bytes: number, language: string): string {
  if (bytes >= gibibyte) return formatUnit(language, bytes / gibibyte, 'gigabyte', 2);
  if (bytes >= mebibyte) return formatUnit(language, bytes / mebibyte, 'megabyte', 1);
  if (bytes >= kibibyte) return formatUnit(language, bytes / kibibyte, 'kilobyte', 0);
  return formatUnit(language, bytes, 'byte', 0);
}

/** A speed in KB/s below 1 MB/s, else in MB/s ("850 kB/s", "3,2 Mo/s"). */
export function formatSpeed(bytesPerSecond: number, language: string): string {
  if (bytesPerSecond >= mebibyte) {
    return formatUnit(language, bytesPerSecond / mebibyte, 'megabyte-per-second', 1);
  }
  return formatUnit(language, bytesPerSecond / kibibyte, 'kilobyte-per-second', 0);
}

/** A duration rounded up to what a person reads: "45 sec", "3 min", "1.5 hr". */
export function formatDuration(seconds: number, language: string): string {
  if (seconds < 60) return formatUnit(language, Math.max(1, Math.ceil(seconds)), 'second', 0);
  if (seconds < 3600) return formatUnit(language, Math.ceil(seconds / 60), 'minute', 0);
  return formatUnit(language, Math.ceil(seconds / 360) / 10, 'hour', 1);
}
