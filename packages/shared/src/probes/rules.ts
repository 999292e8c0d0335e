import {
  batteryRange,
  probeWorkingMaxAgeMs,
  readingFutureToleranceMs,
  readingMaxAgeMs,
  temperatureRange,
} from './constants';

/**
 * Spec 000 §4: a probe is working only if it has a last temperature and that reading is less
 * than 2 hours old. Exactly 2 hours is no longer working.
 */
export function probeWorking(lastTimestamp: Date | string | null | undefined, now: Date): boolean {
  if (lastTimestamp === null || lastTimestamp === undefined) return false;
  const last = typeof lastTimestamp === 'string' ? new Date(lastTimestamp) : lastTimestamp;
  if (Number.isNaN(last.getTime())) return false;
  return now.getTime() - last.getTime() < probeWorkingMaxAgeMs;
}

/** Upload frequency: entered in minutes, stored in seconds (spec 000 §9, x60). */
export function minutesToSeconds(minutes: number): number {
  return Math.round(minutes * 60);
}

/** Upload frequency as shown: stored seconds back to minutes. */
export function secondsToMinutes(seconds: number): number {
  return seconds / 60;
}

export type ReadingRefusal =
  | 'probe/reading-in-future'
  | 'probe/reading-too-old'
  | 'probe/temperature-out-of-range'
  | 'probe/battery-out-of-range';

/** Why a reading is refused by ingestion, or null when it is accepted (bounds in constants.ts). */
export function readingRefusal(
  reading: { timestamp: Date; temperature: number; batteryLevel: number },
  now: Date,
): ReadingRefusal | null {
  const time = reading.timestamp.getTime();
  if (time > now.getTime() + readingFutureToleranceMs) return 'probe/reading-in-future';
  if (time < now.getTime() - readingMaxAgeMs) return 'probe/reading-too-old';
  if (
    !Number.isFinite(reading.temperature) ||
    reading.temperature < temperatureRange.min ||
    reading.temperature > temperatureRange.max
  ) {
    return 'probe/temperature-out-of-range';
  }
  if (
    !Number.isFinite(reading.batteryLevel) ||
    reading.batteryLevel < batteryRange.min ||
    reading.batteryLevel > batteryRange.max
  ) {
    return 'probe/battery-out-of-range';
  }
  return null;
}

/**
 * Width in whole seconds of the buckets that cut [start, end] (both included) into at most
 * `maxBuckets` buckets, the first starting at `start`.
 */
export function bucketSeconds(start: Date, end: Date, maxBuckets: number): number {
  const spanSeconds = Math.floor((end.getTime() - start.getTime()) / 1000) + 1;
  return Math.max(1, Math.ceil(spanSeconds / maxBuckets));
}
