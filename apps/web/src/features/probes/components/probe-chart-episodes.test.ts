import { describe, expect, it } from 'vitest';
import { buildAlert } from '../../alerts/test/build-alert';
import { episodeShades } from './probe-chart-episodes';

const now = Date.parse('2026-11-24T12:00:00.000Z');

describe('episode shading', () => {
  it('shades an ongoing episode up to now, a resolved one to its end, no low battery', () => {
    const ongoing = buildAlert({ startedAt: '2026-11-24T11:00:00.000Z', resolvedAt: null });
    const resolved = buildAlert({
      kind: 'offline',
      startedAt: '2026-11-24T08:00:00.000Z',
      resolvedAt: '2026-11-24T09:00:00.000Z',
    });
    const battery = buildAlert({ kind: 'low_battery', resolvedAt: null });
    expect(episodeShades([ongoing, resolved, battery], now)).toEqual([
      {
        kind: 'out_of_range',
        start: Date.parse('2026-11-24T11:00:00.000Z') / 1000,
        end: now / 1000,
      },
      {
        kind: 'offline',
        start: Date.parse('2026-11-24T08:00:00.000Z') / 1000,
        end: Date.parse('2026-11-24T09:00:00.000Z') / 1000,
      },
    ]);
  });

  it('skips an episode whose end comes before its start', () => {
    const broken = buildAlert({
      startedAt: '2026-11-24T10:00:00.000Z',
      resolvedAt: '2026-11-24T09:00:00.000Z',
    });
    expect(episodeShades([broken], now)).toEqual([]);
  });

  it("cuts an episode to the chart's period", () => {
    const long = buildAlert({ startedAt: '2026-11-20T10:00:00.000Z', resolvedAt: null });
    const period = { start: Date.parse('2026-11-23T12:00:00.000Z'), end: now - 3_600_000 };
    expect(episodeShades([long], now, period)).toEqual([
      { kind: 'out_of_range', start: period.start / 1000, end: period.end / 1000 },
    ]);
  });
});
