import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  formatStoreDateTime,
  formatStoreTimeOfSeconds,
  todayInStoreZone,
} from './store-clock';

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
});
