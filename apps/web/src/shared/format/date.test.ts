import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeWithSeconds, toCalendarDay } from './date';

describe('date formatting', () => {
  const instant = new Date(2026, 0, 5, 8, 7, 9);

  it('shows a day as dd/mm/yyyy', () => {
    expect(formatDate(instant)).toBe('05/01/2026');
    expect(formatDate('2026-11-22')).toBe('22/11/2026');
  });

  it('shows a time as dd/mm/yyyy HH:MM, 24-hour clock', () => {
    expect(formatDateTime(instant)).toBe('05/01/2026 08:07');
    expect(formatDateTime(new Date(2026, 11, 31, 23, 59, 59))).toBe('31/12/2026 23:59');
  });

  it('shows seconds when asked', () => {
    expect(formatDateTimeWithSeconds(instant)).toBe('05/01/2026 08:07:09');
  });

  it('accepts ISO strings with an offset and epoch milliseconds', () => {
    const iso = new Date(2026, 10, 22, 8, 0, 0).toISOString();
    expect(formatDateTime(iso)).toBe('22/11/2026 08:00');
    expect(formatDate(instant.getTime())).toBe('05/01/2026');
  });

  it('shows nothing for a missing or invalid value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('turns a date into the API calendar day', () => {
    expect(toCalendarDay(instant)).toBe('2026-01-05');
    expect(toCalendarDay(null)).toBeNull();
  });
});
