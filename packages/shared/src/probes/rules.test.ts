import { describe, expect, it } from 'vitest';
import { maxChartPoints, readingMaxAgeMs } from './constants';
import {
  bucketSeconds,
  minutesToSeconds,
  probeWorking,
  readingRefusal,
  secondsToMinutes,
} from './rules';

const now = new Date('2026-11-24T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const hour = 60 * 60 * 1000;

describe('probeWorking: a last reading under 2 hours old (spec 000 §4)', () => {
  it('is working with a reading 1 h 59 min 59.999 s old', () => {
    expect(probeWorking(ago(2 * hour - 1), now)).toBe(true);
  });
  it('is not working at exactly 2 hours', () => {
    expect(probeWorking(ago(2 * hour), now)).toBe(false);
  });
  it('is not working beyond 2 hours, nor without any reading', () => {
    expect(probeWorking(ago(3 * hour), now)).toBe(false);
    expect(probeWorking(null, now)).toBe(false);
    expect(probeWorking(undefined, now)).toBe(false);
  });
  it('reads ISO strings as the API sends them', () => {
    expect(probeWorking('2026-11-24T10:30:00Z', now)).toBe(true);
    expect(probeWorking('2026-11-24T10:00:00Z', now)).toBe(false);
    expect(probeWorking('not a date', now)).toBe(false);
  });
});

describe('posting interval: entered in minutes, stored in seconds (x60)', () => {
  it.each([
    [1, 60],
    [5, 300],
    [15, 900],
    [1440, 86_400],
  ])('%i min <-> %i s', (minutes, seconds) => {
    expect(minutesToSeconds(minutes)).toBe(seconds);
    expect(secondsToMinutes(seconds)).toBe(minutes);
  });
  it('shows a stored 90 s as 1.5 minutes', () => {
    expect(secondsToMinutes(90)).toBe(1.5);
  });
});

describe('readingRefusal', () => {
  const reading = { timestamp: now, temperature: 4, batteryLevel: 80 };
  it('accepts a plausible reading, up to 5 minutes ahead', () => {
    expect(readingRefusal(reading, now)).toBeNull();
    expect(
      readingRefusal({ ...reading, timestamp: new Date(now.getTime() + 300_000) }, now),
    ).toBeNull();
  });
  it('refuses the future beyond 5 minutes and the past beyond the bound', () => {
    expect(readingRefusal({ ...reading, timestamp: new Date(now.getTime() + 300_001) }, now)).toBe(
      'probe/reading-in-future',
    );
    expect(readingRefusal({ ...reading, timestamp: ago(readingMaxAgeMs) }, now)).toBeNull();
    expect(readingRefusal({ ...reading, timestamp: ago(readingMaxAgeMs + 1) }, now)).toBe(
      'probe/reading-too-old',
    );
  });
  it('refuses temperatures outside -80…300 °C and batteries outside 0…100 %', () => {
    expect(readingRefusal({ ...reading, temperature: -80 }, now)).toBeNull();
    expect(readingRefusal({ ...reading, temperature: 300 }, now)).toBeNull();
    expect(readingRefusal({ ...reading, temperature: -80.1 }, now)).toBe(
      'probe/temperature-out-of-range',
    );
    expect(readingRefusal({ ...reading, temperature: 300.5 }, now)).toBe(
      'probe/temperature-out-of-range',
    );
    expect(readingRefusal({ ...reading, batteryLevel: 0 }, now)).toBeNull();
    expect(readingRefusal({ ...reading, batteryLevel: 100 }, now)).toBeNull();
    expect(readingRefusal({ ...reading, batteryLevel: 101 }, now)).toBe(
      'probe/battery-out-of-range',
    );
    expect(readingRefusal({ ...reading, batteryLevel: -1 }, now)).toBe(
      'probe/battery-out-of-range',
    );
  });
});

describe('bucketSeconds: at most maxChartPoints buckets over [start, end]', () => {
  it('cuts a year of 5-minute readings into at most 1,000 buckets', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const end = new Date('2026-12-31T23:59:59Z');
    const width = bucketSeconds(start, end, maxChartPoints);
    expect(width).toBe(31_536);
    const spanSeconds = (end.getTime() - start.getTime()) / 1000;
    expect(Math.floor(spanSeconds / width) + 1).toBeLessThanOrEqual(maxChartPoints);
  });
  it('never answers less than one second', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    expect(bucketSeconds(start, start, maxChartPoints)).toBe(1);
  });
});
