import { describe, expect, it } from 'vitest';
import { todayInZone } from './store-day-tasks';

describe('todayInZone', () => {
  it("answers the store's calendar day, not the UTC one", () => {
    // 23:30 UTC on 22 November is already 23 November in Paris (UTC+1).
    const lateEvening = new Date('2026-11-22T23:30:00Z');
    expect(todayInZone('Europe/Paris', lateEvening)).toBe('2026-11-23');
    expect(todayInZone('America/New_York', lateEvening)).toBe('2026-11-22');
    expect(todayInZone('UTC', lateEvening)).toBe('2026-11-22');
  });

  it("falls back to the browser's calendar for an unknown or missing zone", () => {
    const noon = new Date('2026-11-22T12:00:00Z');
    expect(todayInZone('Not/AZone', noon)).toMatch(/^2026-11-2[12]$/);
    expect(todayInZone(undefined, noon)).toMatch(/^2026-11-2[12]$/);
  });
});
