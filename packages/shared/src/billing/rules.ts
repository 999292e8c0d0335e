/**
 * Store licence billing (pricing model: docs/decisions.md, "Billing").
 *
 * - A store's monthly amount is its effective licence price × its maximum devices.
 * - The distributor's billing cycle (1 or 60 months) is the length of a term. A term starts
 *   in the first calendar month (UTC) in which the licence is on for at least one day, and
 *   is billed whole in that month: cycle × monthly amount. The next term starts in the
 *   first licensed month after the previous term ends. Switching off and on again inside a
 *   paid term bills nothing more; a month with no licensed day starts nothing.
 * - So with the monthly cycle, every calendar month with at least one licensed day is
 *   billed once (activating mid-month bills the current month, as the screen warns), and
 *   with the 5-year cycle, 60 months are billed when a term starts.
 * - A summary over a period bills the terms that start inside it; it also reports the
 *   licensed days inside the period.
 */
export type LicenceEvent = { timestamp: string; activated: boolean };

/** A calendar day, YYYY-MM-DD. */
export type Day = string;

type Interval = { start: number; end: number };

const dayMs = 24 * 3600 * 1000;

function dayStart(day: Day): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** Periods when the licence was on, from the activation history ([start, end) in ms). */
export function licensedIntervals(
  events: LicenceEvent[],
  fallback: { isLicensed: boolean; since: string },
): Interval[] {
  const sorted = [...events]
    .map((event) => ({ at: Date.parse(event.timestamp), activated: event.activated }))
    .filter((event) => Number.isFinite(event.at))
    .sort((a, b) => a.at - b.at);
  if (sorted.length === 0) {
    return fallback.isLicensed ? [{ start: Date.parse(fallback.since), end: Infinity }] : [];
  }
  const intervals: Interval[] = [];
  let openedAt: number | null = null;
  for (const event of sorted) {
    if (event.activated && openedAt === null) openedAt = event.at;
    if (!event.activated && openedAt !== null) {
      if (event.at > openedAt) intervals.push({ start: openedAt, end: event.at });
      openedAt = null;
    }
  }
  if (openedAt !== null) intervals.push({ start: openedAt, end: Infinity });
  return intervals;
}

function isLicensedBetween(intervals: Interval[], from: number, to: number): boolean {
  return intervals.some((interval) => interval.start < to && interval.end > from);
}

/** Days of [from, to] (both included) on which the licence was on at some moment. */
export function licensedDays(intervals: Interval[], from: Day, to: Day): number {
  let count = 0;
  for (let day = dayStart(from); day <= dayStart(to); day += dayMs) {
    if (isLicensedBetween(intervals, day, day + dayMs)) count++;
  }
  return count;
}

function monthIndex(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

function monthBounds(index: number): { start: number; end: number } {
  const year = Math.floor(index / 12);
  const month = index % 12;
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

export type StoreBillingInput = {
  monthlyPrice: number;
  maximumDevices: number;
  cycleMonths: number;
  events: LicenceEvent[];
  isLicensed: boolean;
  createdAt: string;
  period: { start: Day; end: Day };
};

export type StoreBill = {
  cost: number;
  /** Months paid for by the terms starting inside the period. */
  billedMonths: number;
  /** Start months (YYYY-MM) of the terms billed inside the period. */
  termStarts: string[];
  licensedDays: number;
};

export function billStore(input: StoreBillingInput): StoreBill {
  const intervals = licensedIntervals(input.events, {
    isLicensed: input.isLicensed,
    since: input.createdAt,
  });
  const periodFrom = monthIndex(dayStart(input.period.start));
  const periodTo = monthIndex(dayStart(input.period.end));
  const firstLicensed = intervals.length ? monthIndex(intervals[0]!.start) : null;
  const termStarts: string[] = [];
  let billedMonths = 0;
  if (firstLicensed !== null) {
    let termEnd = -Infinity;
    for (let month = firstLicensed; month <= periodTo; month++) {
      const bounds = monthBounds(month);
      if (month < termEnd || !isLicensedBetween(intervals, bounds.start, bounds.end)) continue;
      termEnd = month + input.cycleMonths;
      if (month >= periodFrom) {
        billedMonths += input.cycleMonths;
        termStarts.push(`${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`);
      }
    }
  }
  const cost = roundCents(billedMonths * input.monthlyPrice * input.maximumDevices);
  return {
    cost,
    billedMonths,
    termStarts,
    licensedDays: licensedDays(intervals, input.period.start, input.period.end),
  };
}

export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}
