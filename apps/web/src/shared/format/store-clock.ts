/*
 * Dates on the store's clock (spec 000 §1, spec 002 §1: dd/mm/yyyy, HH:MM): history, task
 * detail, the home panels and punch cards show and edit the store's wall time whatever the
 * browser's zone. An unknown zone name falls back to the browser's clock. Calendar days travel
 * as YYYY-MM-DD.
 */

type ClockParts = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    };
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      formatter = new Intl.DateTimeFormat('en-GB', options);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

function clockParts(instant: number, timeZone: string | undefined): ClockParts {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((item) => item.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

type InstantInput = Date | string | number | null | undefined;

function toInstant(value: InstantInput): number | null {
  if (value === null || value === undefined) return null;
  const instant =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isNaN(instant) ? null : instant;
}

/** 22/11/2026 09:05 on the store's clock; '' for a missing or unreadable instant. */
export function formatStoreDateTime(value: InstantInput, timeZone: string | undefined): string {
  const instant = toInstant(value);
  if (instant === null) return '';
  const parts = clockParts(instant, timeZone);
  return `${pad(parts.day)}/${pad(parts.month)}/${parts.year} ${pad(parts.hour)}:${pad(parts.minute)}`;
}

/** 22/11/2026 on the store's calendar; '' for a missing or unreadable instant. */
export function formatStoreDate(value: InstantInput, timeZone: string | undefined): string {
  const instant = toInstant(value);
  if (instant === null) return '';
  const parts = clockParts(instant, timeZone);
  return `${pad(parts.day)}/${pad(parts.month)}/${parts.year}`;
}

/** 09:05 on the store's clock; '' for a missing or unreadable instant. */
export function formatStoreTime(value: InstantInput, timeZone: string | undefined): string {
  const instant = toInstant(value);
  if (instant === null) return '';
  const parts = clockParts(instant, timeZone);
  return `${pad(parts.hour)}:${pad(parts.minute)}`;
}

/** A result timestamp (seconds since the epoch) on the store's clock, HH:MM. */
export function formatStoreTimeOfSeconds(
  seconds: number | null | undefined,
  timeZone: string | undefined,
): string {
  if (seconds === null || seconds === undefined) return '';
  return formatStoreTime(seconds * 1000, timeZone);
}

/** Today on the store's calendar (YYYY-MM-DD). */
export function todayInStoreZone(timeZone: string | undefined, now: Date = new Date()): string {
  const parts = clockParts(now.getTime(), timeZone);
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`;
}

/** A calendar day moved by whole days (YYYY-MM-DD in and out). */
export function addCalendarDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 22/11/2026 from a calendar day (YYYY-MM-DD); the input itself when it is not one. */
export function formatCalendarDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : day;
}

/** 22/11 from a calendar day (YYYY-MM-DD). */
export function formatDayMonth(day: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[2]}/${match[1]}` : day;
}

export function isCalendarDay(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** The week of `now` on the store's calendar, Monday to Sunday. */
export function currentWeek(
  timeZone: string,
  now: Date = new Date(),
): { start: string; end: string } {
  const today = todayInStoreZone(timeZone, now);
  // getUTCDay: 0 Sunday … 6 Saturday; Monday first.
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const start = addCalendarDays(today, -weekday);
  return { start, end: addCalendarDays(start, 6) };
}

/** Every day from start to end, both included (empty when end is before start). */
export function daysOfRange(start: string, end: string): string[] {
  const days: string[] = [];
  for (let day = start; day <= end; day = addCalendarDays(day, 1)) days.push(day);
  return days;
}

/** Days from start to end, both included. */
export function rangeLength(start: string, end: string): number {
  return (
    Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1
  );
}

/**
 * The instant (ISO, UTC) of a wall-clock time (HH:MM) on a day of the store's calendar. A time
 * skipped by a daylight-saving change lands on the instant an hour later, as clocks do.
 */
export function zonedInstant(day: string, time: string, timeZone: string): string | null {
  const dayMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const timeMatch = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!dayMatch || !timeMatch) return null;
  const hour = Number(timeMatch[1]);
  const minute = Number(timeMatch[2]);
  if (hour > 23 || minute > 59) return null;
  const wall = Date.UTC(
    Number(dayMatch[1]),
    Number(dayMatch[2]) - 1,
    Number(dayMatch[3]),
    hour,
    minute,
  );
  const offsetAt = (instant: number) => {
    const parts = clockParts(instant, timeZone);
    const asUtc = Date.UTC(
      parts.year,
      parts.month - 1,
      parts.day,
      parts.hour,
      parts.minute,
      parts.second,
    );
    return asUtc - Math.floor(instant / 1000) * 1000;
  };
  let instant = wall - offsetAt(wall);
  const corrected = wall - offsetAt(instant);
  if (corrected !== instant) instant = corrected;
  return new Date(instant).toISOString();
}
