import { describe, expect, it } from 'vitest';
import { createInspectorPackBodySchema, previousMonth, validatePackPeriod } from './pack';

describe('inspector pack period', () => {
  it('takes up to 31 days, both ends included, and every whole calendar month', () => {
    expect(validatePackPeriod('2026-11-01', '2026-11-01')).toBeNull();
    expect(validatePackPeriod('2026-01-01', '2026-01-31')).toBeNull();
    expect(validatePackPeriod('2026-02-01', '2026-02-28')).toBeNull();
    expect(validatePackPeriod('2028-02-01', '2028-02-29')).toBeNull();
    expect(validatePackPeriod('2026-01-15', '2026-02-14')).toBeNull();
  });

  it('refuses 32 days and more as too long, an end before the start as invalid', () => {
    expect(validatePackPeriod('2026-01-15', '2026-02-15')).toBe('date-range-too-long');
    expect(validatePackPeriod('2026-01-01', '2026-02-01')).toBe('date-range-too-long');
    expect(validatePackPeriod('2026-02-15', '2026-02-01')).toBe('validation/invalid-input');
    expect(validatePackPeriod('2026-02-30', '2026-03-01')).toBe('validation/invalid-input');
  });

  it("gives the calendar month before today's", () => {
    expect(previousMonth('2026-03-15')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(previousMonth('2026-01-01')).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(previousMonth('2028-03-31')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
  });

  it('accepts only the two days in the request body', () => {
    expect(
      createInspectorPackBodySchema.safeParse({
        period_start: '2026-01-01',
        period_end: '2026-01-31',
      }).success,
    ).toBe(true);
    expect(
      createInspectorPackBodySchema.safeParse({
        period_start: '2026-01-01',
        period_end: '2026-01-31',
        store_id: 'x',
      }).success,
    ).toBe(false);
  });
});
