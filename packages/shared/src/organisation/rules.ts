import { defaultLicencePrice } from './constants';

type Price = number | string | null | undefined;

const toNumber = (value: Price): number | null =>
  value === null || value === undefined || value === '' ? null : Number(value);

/**
 * The licence price of a store (spec 000 §9, 001 §9): the store's override, else its
 * database's price, else its distributor's, else the default 19. The most specific level
 * that is set wins.
 */
export function effectiveLicencePrice(levels: {
  store?: Price;
  database?: Price;
  distributor?: Price;
}): number {
  return (
    toNumber(levels.store) ??
    toNumber(levels.database) ??
    toNumber(levels.distributor) ??
    defaultLicencePrice
  );
}

/** The UTC offset of a time zone at an instant, in hours (e.g. Europe/Paris in winter: 1). */
export function timezoneOffsetHours(zone: string, at: Date = new Date()): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((item) => item.type === 'timeZoneName')?.value;
  const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(part ?? '');
  if (!match?.[1]) return 0;
  const hours = Number(match[2]) + Number(match[3]) / 60;
  return match[1] === '-' ? -hours : hours;
}

export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Billing cycle label (spec 000 §9): below 12 it is months ("1 mois"), otherwise years ("5 ans"). */
export function billingCycleLabel(months: number): { value: number; unit: 'months' | 'years' } {
  return months < 12 ? { value: months, unit: 'months' } : { value: months / 12, unit: 'years' };
}

/** Two stores clash (form.store.invalid.exists) on the same name, or the same full address. */
export function isSameStore(
  a: { name: string; address: string; postal_code: string; city: string; country: string },
  b: { name: string; address: string; postal_code: string; city: string; country: string },
): boolean {
  const key = (value: string) => value.trim().toLocaleLowerCase().replace(/\s+/g, ' ');
  if (key(a.name) === key(b.name)) return true;
  return (
    key(a.address) === key(b.address) &&
    key(a.postal_code) === key(b.postal_code) &&
    key(a.city) === key(b.city) &&
    key(a.country) === key(b.country)
  );
}
