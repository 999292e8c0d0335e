import { describe, expect, it } from 'vitest';
import {
  type AlertReading,
  escalationTime,
  isLowBattery,
  isOffline,
  rangeDecision,
} from './alerts';

const minute = 60_000;
const t0 = Date.parse('2026-11-27T22:00:00Z');
const at = (minutes: number) => t0 + minutes * minute;
const rule = { minimum: 0, maximum: 4, delayMs: 15 * minute };

/** One reading every 5 minutes from minute `from`, with the given temperatures. */
function every5(from: number, temperatures: number[]): AlertReading[] {
  return temperatures.map((temperature, index) => ({ time: at(from + index * 5), temperature }));
}

describe('rangeDecision: open once the condition lasts the delay (15 min)', () => {
  const readings = every5(0, [3, 3, 6, 7, 8, 9]); // out of range from minute 10
  it('does not open before the delay', () => {
    expect(rangeDecision(readings.slice(0, 5), rule, at(24), false)).toEqual({ action: 'none' });
  });
  it('opens at exactly the delay, started at the first reading out of range', () => {
    expect(rangeDecision(readings.slice(0, 5), rule, at(25), false)).toEqual({
      action: 'open',
      startedAt: at(10),
      worst: 8,
      last: 8,
    });
  });
  it('a door opened for a delivery (10 min warm, then back) opens nothing', () => {
    const door = every5(0, [3, 7, 8, 3, 3, 3, 3]);
    for (let now = 0; now <= 35; now += 1) {
      const seen = door.filter((reading) => reading.time <= at(now));
      expect(rangeDecision(seen, rule, at(now), false).action).toBe('none');
    }
  });
  it('below the minimum counts too, the worst is the furthest away', () => {
    const cold = every5(0, [-1, -3, -2, -2]);
    expect(rangeDecision(cold, rule, at(15), false)).toMatchObject({ action: 'open', worst: -3 });
  });
  it('no bounds, no episode', () => {
    expect(
      rangeDecision(readings, { minimum: null, maximum: null, delayMs: 0 }, at(60), false),
    ).toEqual({ action: 'none' });
  });
});

describe('rangeDecision: an open episode holds, then resolves after the delay back in range', () => {
  it('flapping values hold the one episode (no flood)', () => {
    const flapping = every5(0, [9, 3, 9, 3, 9, 3, 9]);
    for (let now = 30; now <= 40; now += 1) {
      const seen = flapping.filter((reading) => reading.time <= at(now));
      expect(rangeDecision(seen, rule, at(now), true).action).toBe('hold');
    }
  });
  it('a gap of readings holds the last known state', () => {
    const gap = [...every5(0, [9, 9, 9, 9]), { time: at(120), temperature: 9 }];
    expect(rangeDecision(gap, rule, at(119), true).action).toBe('hold');
    expect(rangeDecision(gap.slice(0, 4), rule, at(100), true)).toMatchObject({ action: 'hold' });
  });
  it('recovery: resolves only once back in range for the delay, at the first reading back', () => {
    const recovery = every5(0, [9, 9, 3, 3, 3, 3]);
    expect(rangeDecision(recovery.slice(0, 5), rule, at(24), true).action).toBe('hold');
    expect(rangeDecision(recovery, rule, at(25), true)).toEqual({
      action: 'resolve',
      resolvedAt: at(10),
      last: 3,
    });
  });
});

describe('offline and battery', () => {
  it('offline after 2 posting intervals without a reading, counted from registration', () => {
    expect(isOffline(at(0), at(-60), 300, at(9))).toBe(false);
    expect(isOffline(at(0), at(-60), 300, at(10))).toBe(true);
    expect(isOffline(null, at(0), 300, at(9))).toBe(false);
    expect(isOffline(null, at(0), 300, at(10))).toBe(true);
  });
  it('low battery strictly below 20 %', () => {
    expect(isLowBattery(19)).toBe(true);
    expect(isLowBattery(20)).toBe(false);
    expect(isLowBattery(null)).toBe(false);
  });
});

describe('escalation timing: owners at opening, managers after N min, distributor after 2N', () => {
  it('climbs one level every N minutes up to the distributor', () => {
    expect(escalationTime('out_of_range', at(0), 0, 30)).toBe(at(0));
    expect(escalationTime('out_of_range', at(0), 1, 30)).toBe(at(30));
    expect(escalationTime('offline', at(0), 2, 45)).toBe(at(90));
    expect(escalationTime('out_of_range', at(0), 3, 30)).toBeNull();
  });
  it('a low battery is told to the owners only', () => {
    expect(escalationTime('low_battery', at(0), 0, 30)).toBe(at(0));
    expect(escalationTime('low_battery', at(0), 1, 30)).toBeNull();
  });
});
