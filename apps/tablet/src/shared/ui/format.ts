import { deviceState } from '../device/device-state';
import { i18n } from '../i18n/i18n';

/*
 * Dates and times as the product shows them (spec 000 §1): dd/mm/yyyy and HH:MM, 24-hour, on
 * the store's clock (its zone), whatever the tablet's own zone and language.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    found = make();
    formatters.set(key, found);
  }
  return found;
}

function storeZone(zone?: string): string | undefined {
  return zone ?? deviceState().context?.store.timezone_name ?? undefined;
}

function numericParts(value: Date | string | number, zone: string | undefined) {
  const parts = formatter(
    `parts:${zone ?? ''}`,
    () =>
      new Intl.DateTimeFormat('en-GB', {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        ...(zone ? { timeZone: zone } : {}),
      }),
  ).formatToParts(new Date(value));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return {
    date: `${part('day')}/${part('month')}/${part('year')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/** HH:MM on the store's clock. */
export function formatTime(value: Date | string | number, zone?: string): string {
  return numericParts(value, storeZone(zone)).time;
}

/** dd/mm/yyyy, with HH:MM and the weekday's name (in the app's language) when asked. */
export function formatDate(
  value: Date | string | number,
  options: { withTime?: boolean; withWeekday?: boolean; zone?: string } = {},
): string {
  const zone = storeZone(options.zone);
  const { date, time } = numericParts(value, zone);
  const weekday = options.withWeekday
    ? `${formatter(
        `weekday:${i18n.language}:${zone ?? ''}`,
        () =>
          new Intl.DateTimeFormat(i18n.language, {
            weekday: 'long',
            ...(zone ? { timeZone: zone } : {}),
          }),
      ).format(new Date(value))} `
    : '';
  return `${weekday}${date}${options.withTime ? ` ${time}` : ''}`;
}
