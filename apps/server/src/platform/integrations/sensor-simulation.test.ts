import { describe, expect, it } from 'vitest';
import {
  failingCycle,
  failingOnceMs,
  simulatedReading,
  simulatedReadings,
  simulationProfileOf,
} from './sensor-simulation';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const midnight = Date.parse('2026-11-20T00:00:00Z');
const at = (ms: number) => new Date(ms);
const temperatures = (tagId: string, from: number, to: number) =>
  simulatedReadings(tagId, at(from), at(to)).map((reading) => reading.temperature);
/** The longest run of consecutive 5-minute readings above `limit`, in minutes. */
function longestRunAbove(values: number[], limit: number): number {
  let longest = 0;
  let run = 0;
  for (const value of values) {
    run = value > limit ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest * 5;
}

describe('simulated readings: determinism and steps', () => {
  it('gives the same reading for the same tag and instant, whenever it is asked', () => {
    const instant = at(midnight + 7 * hour + 35 * minute);
    expect(simulatedReading('tag-fridge-1', instant)).toEqual(
      simulatedReading('tag-fridge-1', new Date(instant.getTime())),
    );
    const wide = simulatedReadings('tag-walk-in', at(midnight), at(midnight + day));
    const part = simulatedReadings('tag-walk-in', at(midnight + 6 * hour), at(midnight + 7 * hour));
    expect(part).toEqual(
      wide.filter(
        (reading) =>
          reading.timestamp.getTime() > midnight + 6 * hour &&
          reading.timestamp.getTime() <= midnight + 7 * hour,
      ),
    );
    expect(simulatedReading('tag-fridge-1', instant).temperature).not.toBe(
      simulatedReading('tag-fridge-2', instant).temperature,
    );
  });

  it('answers one reading every 5 minutes on the 5-minute marks of (since, until]', () => {
    const readings = simulatedReadings(
      'tag-fridge-1',
      at(midnight + 2 * minute),
      at(midnight + 20 * minute),
    );
    expect(readings.map((reading) => reading.timestamp.toISOString())).toEqual([
      '2026-11-20T00:05:00.000Z',
      '2026-11-20T00:10:00.000Z',
      '2026-11-20T00:15:00.000Z',
      '2026-11-20T00:20:00.000Z',
    ]);
    expect(simulatedReadings('tag-fridge-1', at(midnight), at(midnight))).toEqual([]);
    expect(simulatedReadings('tag-fridge-1', at(midnight), at(midnight + 5 * minute))).toHaveLength(
      1,
    );
  });
});

describe('simulated profiles', () => {
  it('reads profiles from the tag id: base, scenario, onset', () => {
    expect(simulationProfileOf('tag-freezer')).toEqual({
      base: 'freezer',
      scenario: 'normal',
      onset: null,
    });
    expect(simulationProfileOf('tag-walk-in')).toMatchObject({
      base: 'cold-room',
      scenario: 'failing',
    });
    expect(simulationProfileOf('tag-freezer:failing:1795000000')).toEqual({
      base: 'freezer',
      scenario: 'failing',
      onset: new Date(1_795_000_000_000),
    });
    expect(simulationProfileOf('any-tag:door')).toMatchObject({ base: 'fridge', scenario: 'door' });
    expect(simulationProfileOf('Congelateur-3')).toMatchObject({ base: 'freezer' });
  });

  it('a fridge cycles between 2 and 5 °C about every 40 minutes outside its door openings', () => {
    // 00:00 to 10:00 UTC: no delivery (the fridge's doors open at 10:30 and 17:45).
    const values = temperatures('tag-fridge-1', midnight, midnight + 10 * hour);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(1.85);
    expect(Math.max(...values)).toBeLessThanOrEqual(5.15);
    for (let start = midnight; start < midnight + 9 * hour; start += 40 * minute) {
      const cycle = temperatures('tag-fridge-1', start, start + 40 * minute);
      expect(Math.max(...cycle) - Math.min(...cycle)).toBeGreaterThan(1.5);
    }
  });

  it('a freezer holds −22…−18 °C outside its delivery, a cold room 1…3.3 °C', () => {
    const freezer = temperatures('tag-freezer', midnight, midnight + 6 * hour);
    expect(Math.min(...freezer)).toBeGreaterThanOrEqual(-22.15);
    expect(Math.max(...freezer)).toBeLessThan(-18);
    const coldRoom = temperatures('tag-fridge-x:cold-room', midnight, midnight + 6 * hour);
    expect(Math.min(...coldRoom)).toBeGreaterThanOrEqual(0.85);
    expect(Math.max(...coldRoom)).toBeLessThan(3.5);
  });

  it('a delivery opens the door: a short rise, back in range within 20 minutes', () => {
    const opening = midnight + 10 * hour + 30 * minute;
    const before = simulatedReading('tag-fridge-1', at(opening)).temperature;
    const open = simulatedReading('tag-fridge-1', at(opening + 3 * minute)).temperature;
    expect(open - before).toBeGreaterThan(3);
    const after = temperatures('tag-fridge-1', opening + 20 * minute, opening + 2 * hour);
    expect(Math.max(...after)).toBeLessThanOrEqual(5.3);
    // Too short to alert after a 15-minute delay.
    const around = temperatures('tag-fridge-1', opening - hour, opening + hour);
    expect(longestRunAbove(around, 8)).toBeLessThanOrEqual(10);
  });

  it('a door left open (":door:<onset>") stays out of range 20 minutes or more, then recovers', () => {
    const onset = midnight + 3 * hour;
    const tag = `tag-kitchen:door:${onset / 1000}`;
    expect(Math.max(...temperatures(tag, onset - 2 * hour, onset))).toBeLessThanOrEqual(5.15);
    expect(longestRunAbove(temperatures(tag, onset, onset + hour), 8)).toBeGreaterThanOrEqual(20);
    expect(
      Math.max(...temperatures(tag, onset + 70 * minute, onset + 3 * hour)),
    ).toBeLessThanOrEqual(5.3);
  });

  it('a failing freezer (":failing:<onset>") drifts above −18 °C for hours, then is repaired', () => {
    const onset = midnight + 5 * hour;
    const tag = `tag-freezer:failing:${onset / 1000}`;
    expect(Math.max(...temperatures(tag, onset - 3 * hour, onset))).toBeLessThan(-18);
    const failing = temperatures(tag, onset + 45 * minute, onset + failingOnceMs);
    expect(Math.min(...failing)).toBeGreaterThan(-18);
    // It climbs over hours: the last hour is warmer than the first.
    const firstHour = temperatures(tag, onset, onset + hour);
    const lastHour = temperatures(tag, onset + failingOnceMs - hour, onset + failingOnceMs);
    expect(Math.max(...lastHour)).toBeGreaterThan(Math.max(...firstHour) + 5);
    const repaired = temperatures(
      tag,
      onset + failingOnceMs + hour,
      onset + failingOnceMs + 5 * hour,
    );
    expect(Math.max(...repaired)).toBeLessThan(-18);
  });

  it('the walk-in (tag-walk-in) fails every 8 hours: above 8 °C for over an hour, fine in between', () => {
    const cycle = Math.ceil(midnight / failingCycle.periodMs) * failingCycle.periodMs;
    for (const start of [cycle, cycle + failingCycle.periodMs, cycle + 5 * failingCycle.periodMs]) {
      const values = temperatures('tag-walk-in', start, start + failingCycle.periodMs);
      expect(longestRunAbove(values, 8)).toBeGreaterThanOrEqual(60);
      const fine = temperatures('tag-walk-in', start, start + failingCycle.fineMs);
      expect(Math.max(...fine)).toBeLessThanOrEqual(8);
    }
  });

  it('a battery drains: the normal one slowly, ":battery" crosses 20 % and is replaced', () => {
    const normal = [0, 1, 2, 3].map(
      (days) => simulatedReading('tag-freezer', at(midnight + days * 10 * day)).batteryLevel,
    );
    expect(Math.min(...normal)).toBeGreaterThanOrEqual(55);
    const onset = midnight + 2 * day;
    const tag = `tag-x:battery:${onset / 1000}`;
    const levels = [-3 * day, -2 * hour, 2 * hour, 3 * day].map(
      (offset) => simulatedReading(tag, at(onset + offset)).batteryLevel,
    );
    expect(levels[0]).toBeGreaterThan(levels[1]!);
    expect(levels[1]).toBeGreaterThan(20);
    expect(levels[2]).toBeLessThan(20);
    expect(levels[3]).toBeLessThan(levels[2]!);
    // tag-cold-room: within each 8-day cycle the battery only falls, and falls below 20 %.
    const days = Array.from(
      { length: 17 },
      (_, index) => simulatedReading('tag-cold-room', at(index * (day / 2))).batteryLevel,
    );
    expect(days[0]).toBe(100);
    for (let index = 1; index < 16; index++) {
      expect(days[index]!).toBeLessThan(days[index - 1]!);
    }
    expect(days[15]!).toBeLessThan(20);
    expect(days[16]).toBe(100);
  });
});
