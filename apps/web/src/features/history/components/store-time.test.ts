import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  formatDuration,
  formatStoreDateTime,
  formatStoreTimeOfSeconds,
  formatTemperature,
  todayInStoreZone,
} from './store-time';

describe('store time', () => {
  it("formats instants on the store's clock, whatever the browser's zone", () => {
    expect(formatStoreDateTime('2026-11-22T23:30:00Z', 'Europe/Paris')).toBe('23/11/2026 00:30');
    expect(formatStoreDateTime('2026-07-01T06:05:00Z', 'Europe/Warsaw')).toBe('01/07/2026 08:05');
    expect(formatStoreDateTime(null, 'Europe/Paris')).toBe('');
    expect(formatStoreDateTime('not a date', 'Europe/Paris')).toBe('');
    expect(formatStoreTimeOfSeconds(1_795_000_000, 'Europe/Paris')).toBe(
      formatStoreDateTime(1_795_000_000_000, 'Europe/Paris').slice(11),
    );
  });

  it("gives the store's today and moves calendar days across months", () => {
    expect(todayInStoreZone('Europe/Paris', new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-23');
    expect(todayInStoreZone('Europe/Paris', new Date('2026-11-22T22:59:00Z'))).toBe('2026-11-22');
    expect(addCalendarDays('2026-03-02', -6)).toBe('2026-02-24');
    expect(addCalendarDays('2026-12-29', 6)).toBe('2027-01-04');
  });

  it('writes durations and temperatures', () => {
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(750)).toBe('12 min 30 s');
    expect(formatDuration(3900)).toBe('1 h 05 min');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatTemperature(-18)).toBe('-18 °C');
    expect(formatTemperature(3.456)).toBe('3.46 °C');
    expect(formatTemperature(null)).toBe('');
  });
});
