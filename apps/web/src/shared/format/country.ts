import { europeanCountries } from '@mise/shared/organisation/constants';

/** A country's name in the interface language (falls back to its code). */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The countries offered (spec 000 §9: those with a zone in Europe), sorted by name. */
export function europeanCountryOptions(language: string): { value: string; label: string }[] {
  return europeanCountries
    .map((country) => ({
      value: country.code as string,
      label: countryName(country.code, language),
    }))
    .sort((a, b) => a.label.localeCompare(b.label, language));
}
