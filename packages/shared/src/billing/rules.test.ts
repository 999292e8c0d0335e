import { describe, expect, it } from 'vitest';
import { billStore, licensedDays, licensedIntervals } from './rules';

const base = {
  monthlyPrice: 19,
  maximumDevices: 1,
  cycleMonths: 1,
  isLicensed: false,
  createdAt: '2026-01-01T00:00:00Z',
};
const on = (timestamp: string) => ({ timestamp, activated: true });
const off = (timestamp: string) => ({ timestamp, activated: false });

describe('billStore, monthly cycle', () => {
  it('bills the month of a mid-month activation in full, and each following licensed month', () => {
    const bill = billStore({
      ...base,
      events: [on('2026-03-17T10:00:00Z')],
      period: { start: '2026-03-01', end: '2026-05-31' },
    });
    expect(bill.termStarts).toEqual(['2026-03', '2026-04', '2026-05']);
    expect(bill.cost).toBe(57);
    expect(bill.licensedDays).toBe(15 + 30 + 31);
  });

  it('bills a month once however many times the licence is toggled in it', () => {
    const bill = billStore({
      ...base,
      events: [
        on('2026-03-02T08:00:00Z'),
        off('2026-03-05T08:00:00Z'),
        on('2026-03-20T08:00:00Z'),
        off('2026-03-21T08:00:00Z'),
        on('2026-03-30T08:00:00Z'),
        off('2026-03-31T12:00:00Z'),
      ],
      period: { start: '2026-03-01', end: '2026-04-30' },
    });
    expect(bill.termStarts).toEqual(['2026-03']);
    expect(bill.cost).toBe(19);
    // 2,3,4,5 + 20,21 + 30,31 (a day counts when the licence was on at some moment of it).
    expect(bill.licensedDays).toBe(8);
  });

  it('skips months with no licensed day, and bills the price times the maximum devices', () => {
    const bill = billStore({
      ...base,
      monthlyPrice: 25,
      maximumDevices: 3,
      events: [on('2026-01-10T00:00:00Z'), off('2026-02-01T00:00:00Z'), on('2026-04-01T00:00:00Z')],
      period: { start: '2026-01-01', end: '2026-04-30' },
    });
    expect(bill.termStarts).toEqual(['2026-01', '2026-04']);
    expect(bill.cost).toBe(150);
  });

  it('bills only the months inside the period', () => {
    const bill = billStore({
      ...base,
      events: [on('2025-06-01T00:00:00Z')],
      period: { start: '2026-02-01', end: '2026-02-28' },
    });
    expect(bill).toMatchObject({ cost: 19, billedMonths: 1, licensedDays: 28 });
  });

  it('bills nothing when the licence was never on', () => {
    const bill = billStore({
      ...base,
      events: [],
      period: { start: '2026-01-01', end: '2026-12-31' },
    });
    expect(bill).toEqual({ cost: 0, billedMonths: 0, termStarts: [], licensedDays: 0 });
  });

  it('takes a licence that is on without history as on since the store was created', () => {
    const bill = billStore({
      ...base,
      isLicensed: true,
      createdAt: '2026-02-14T09:00:00Z',
      events: [],
      period: { start: '2026-02-01', end: '2026-03-31' },
    });
    expect(bill.termStarts).toEqual(['2026-02', '2026-03']);
  });
});

describe('billStore, 60-month cycle', () => {
  const fiveYears = { ...base, cycleMonths: 60 };

  it('bills 60 months in the month the term starts and nothing more inside the term', () => {
    const first = billStore({
      ...fiveYears,
      events: [on('2026-03-17T10:00:00Z')],
      period: { start: '2026-03-01', end: '2026-03-31' },
    });
    expect(first).toMatchObject({ billedMonths: 60, cost: 60 * 19, termStarts: ['2026-03'] });
    const later = billStore({
      ...fiveYears,
      events: [on('2026-03-17T10:00:00Z'), off('2027-01-01T00:00:00Z'), on('2028-06-01T00:00:00Z')],
      period: { start: '2026-04-01', end: '2031-02-28' },
    });
    expect(later).toMatchObject({ billedMonths: 0, cost: 0 });
  });

  it('starts a new term in the first licensed month after the term ends', () => {
    const bill = billStore({
      ...fiveYears,
      events: [on('2026-03-17T10:00:00Z')],
      period: { start: '2031-01-01', end: '2031-12-31' },
    });
    expect(bill.termStarts).toEqual(['2031-03']);
    expect(bill.cost).toBe(1140);
  });

  it('starts the next term when the licence comes back after a gap past the term end', () => {
    const bill = billStore({
      ...fiveYears,
      events: [on('2026-01-05T00:00:00Z'), off('2030-12-15T00:00:00Z'), on('2031-09-02T00:00:00Z')],
      period: { start: '2031-01-01', end: '2031-12-31' },
    });
    expect(bill.termStarts).toEqual(['2031-09']);
  });
});

describe('licensedIntervals and licensedDays', () => {
  it('orders events, ignores repeated or unmatched toggles', () => {
    const intervals = licensedIntervals(
      [
        off('2026-01-01T00:00:00Z'),
        on('2026-01-10T00:00:00Z'),
        on('2026-01-12T00:00:00Z'),
        off('2026-01-15T00:00:00Z'),
      ],
      { isLicensed: false, since: '2026-01-01T00:00:00Z' },
    );
    expect(intervals).toEqual([
      { start: Date.parse('2026-01-10T00:00:00Z'), end: Date.parse('2026-01-15T00:00:00Z') },
    ]);
    expect(licensedDays(intervals, '2026-01-01', '2026-01-31')).toBe(5);
  });
});
