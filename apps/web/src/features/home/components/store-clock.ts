/*
 * Instants on the store's clock (spec 000 §1: dd/mm/yyyy, HH:MM): the home panels show the
 * store's wall time whatever the browser's zone. An unknown zone name falls back to the
 * browser's clock.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
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
      formatter = new Intl.DateTimeFormat('en-GB', options);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type ClockParts = { year: string; month: string; day: string; hour: string; minute: string };

function clockParts(value: string | number | Date, timeZone: string): ClockParts | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
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

/** 09:05 on the store's clock; '' for a missing or unreadable instant. */
export function formatStoreTime(value: string | number | Date | null, timeZone: string): string {
  if (value === null) return '';
  const parts = clockParts(value, timeZone);
  return parts ? `${parts.hour}:${parts.minute}` : '';
}

/** 22/11/2026 on the store's calendar; '' for a missing or unreadable instant. */
export function formatStoreDate(value: string | number | Date | null, timeZone: string): string {
  if (value === null) return '';
  const parts = clockParts(value, timeZone);
  return parts ? `${parts.day}/${parts.month}/${parts.year}` : '';
}

/** 22/11/2026 from a calendar day (YYYY-MM-DD); the input itself when it is not one. */
export function formatCalendarDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : day;
}
