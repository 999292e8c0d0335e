/*
 * Dates on the store's clock (spec 002 §1: dd/mm/yyyy, HH:MM). History and task detail show
 * the store's wall time, whatever the browser's zone.
 */

type Parts = { year: string; month: string; day: string; hour: string; minute: string };

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
      hourCycle: 'h23',
    };
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      // An unknown zone name: the browser's clock.
      formatter = new Intl.DateTimeFormat('en-GB', options);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function partsOf(value: Date | string | number, timeZone: string | undefined): Parts | null {
  const date = toDate(value);
  if (!date) return null;
  const parts = formatterFor(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((item) => item.type === type)?.value ?? '';
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
  };
}

/** 22/11/2026 09:00 on the store's clock; '' for a missing or unreadable instant. */
export function formatStoreDateTime(
  value: Date | string | number | null | undefined,
  timeZone: string | undefined,
): string {
  if (value === null || value === undefined) return '';
  const parts = partsOf(value, timeZone);
  return parts ? `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}` : '';
}

/** 22/11/2026 on the store's calendar. */
export function formatStoreDate(
  value: Date | string | number | null | undefined,
  timeZone: string | undefined,
): string {
  if (value === null || value === undefined) return '';
  const parts = partsOf(value, timeZone);
  return parts ? `${parts.day}/${parts.month}/${parts.year}` : '';
}

/** 09:00 on the store's clock. */
export function formatStoreTime(
  value: Date | string | number | null | undefined,
  timeZone: string | undefined,
): string {
  if (value === null || value === undefined) return '';
  const parts = partsOf(value, timeZone);
  return parts ? `${parts.hour}:${parts.minute}` : '';
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
  const parts = partsOf(now, timeZone);
  if (!parts) return now.toISOString().slice(0, 10);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A calendar day moved by whole days (YYYY-MM-DD in, YYYY-MM-DD out). */
export function addCalendarDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A duration in seconds as "1 h 05 min", "12 min 30 s" or "1 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (rest === 0) return `${minutes} min`;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

/** 4.5 °C, or '' when there is no value. */
export function formatTemperature(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return `${Math.round(value * 100) / 100} °C`;
}
