/** Business constants of the organisation area (spec 000 §9, spec 001 §9). */
export const defaultLicencePrice = 19;
export const billingCycles = [1, 60] as const;
export type BillingCycle = (typeof billingCycles)[number];
export const maximumDevicesRange = { min: 1, max: 30 } as const;
export const weekStartRange = { min: 0, max: 6 } as const;
export const defaultCountry = 'FR';
export const defaultTimezoneName = 'Europe/Paris';

export const moduleKeys = [
  'temperatures',
  'oils',
  'traceability',
  'preparations',
  'labels',
  'actions',
  'temperature_control',
  'encyclopedia',
] as const;
export type ModuleKey = (typeof moduleKeys)[number];

export const extensionKeys = [
  'documents',
  'history',
  'settings',
  'storage',
  'auditing',
  'training',
  'shop',
  'employees',
  'planning',
] as const;
export type ExtensionKey = (typeof extensionKeys)[number];

/**
 * A module key as sent to the API: the legacy cleaning module is actions (spec 000 §3). The
 * schemas then refuse any other unknown key (400 'validation/invalid-input').
 */
export function legacyModuleKey(key: unknown): unknown {
  return key === 'cleaning' ? 'actions' : key;
}

/**
 * Countries offered for a store: those with a time zone in Europe (spec 000 §9), with the
 * zone a new store of that country gets by default.
 */
export const europeanCountries = [
  { code: 'AD', zone: 'Europe/Andorra' },
  { code: 'AL', zone: 'Europe/Tirane' },
  { code: 'AT', zone: 'Europe/Vienna' },
  { code: 'BA', zone: 'Europe/Sarajevo' },
  { code: 'BE', zone: 'Europe/Brussels' },
  { code: 'BG', zone: 'Europe/Sofia' },
  { code: 'BY', zone: 'Europe/Minsk' },
  { code: 'CH', zone: 'Europe/Zurich' },
  { code: 'CY', zone: 'Asia/Nicosia' },
  { code: 'CZ', zone: 'Europe/Prague' },
  { code: 'DE', zone: 'Europe/Berlin' },
  { code: 'DK', zone: 'Europe/Copenhagen' },
  { code: 'EE', zone: 'Europe/Tallinn' },
  { code: 'ES', zone: 'Europe/Madrid' },
  { code: 'FI', zone: 'Europe/Helsinki' },
  { code: 'FR', zone: 'Europe/Paris' },
  { code: 'GB', zone: 'Europe/London' },
  { code: 'GG', zone: 'Europe/Guernsey' },
  { code: 'GI', zone: 'Europe/Gibraltar' },
  { code: 'GR', zone: 'Europe/Athens' },
  { code: 'HR', zone: 'Europe/Zagreb' },
  { code: 'HU', zone: 'Europe/Budapest' },
  { code: 'IE', zone: 'Europe/Dublin' },
  { code: 'IM', zone: 'Europe/Isle_of_Man' },
  { code: 'IS', zone: 'Atlantic/Reykjavik' },
  { code: 'IT', zone: 'Europe/Rome' },
  { code: 'JE', zone: 'Europe/Jersey' },
  { code: 'LI', zone: 'Europe/Vaduz' },
  { code: 'LT', zone: 'Europe/Vilnius' },
  { code: 'LU', zone: 'Europe/Luxembourg' },
  { code: 'LV', zone: 'Europe/Riga' },
  { code: 'MC', zone: 'Europe/Monaco' },
  { code: 'MD', zone: 'Europe/Chisinau' },
  { code: 'ME', zone: 'Europe/Podgorica' },
  { code: 'MK', zone: 'Europe/Skopje' },
  { code: 'MT', zone: 'Europe/Malta' },
  { code: 'NL', zone: 'Europe/Amsterdam' },
  { code: 'NO', zone: 'Europe/Oslo' },
  { code: 'PL', zone: 'Europe/Warsaw' },
  { code: 'PT', zone: 'Europe/Lisbon' },
  { code: 'RO', zone: 'Europe/Bucharest' },
  { code: 'RS', zone: 'Europe/Belgrade' },
  { code: 'RU', zone: 'Europe/Moscow' },
  { code: 'SE', zone: 'Europe/Stockholm' },
  { code: 'SI', zone: 'Europe/Ljubljana' },
  { code: 'SK', zone: 'Europe/Bratislava' },
  { code: 'SM', zone: 'Europe/San_Marino' },
  { code: 'TR', zone: 'Europe/Istanbul' },
  { code: 'UA', zone: 'Europe/Kyiv' },
  { code: 'VA', zone: 'Europe/Vatican' },
] as const;
export const europeanCountryCodes = europeanCountries.map((country) => country.code);
