import de from '../../../web/src/locales/de.json';
import en from '../../../web/src/locales/en.json';
import fr from '../../../web/src/locales/fr.json';
import pl from '../../../web/src/locales/pl.json';

/*
 * The server's words (documents under "exports", e-mails under "mails") live with every other
 * text of the product in the web app's locale files (imported as JSON; the server's bundle
 * inlines them). This is the one loader: it picks the language, every missing word falling
 * back to English.
 */

export type TextLanguage = 'fr' | 'en' | 'de' | 'pl';
type ServerTextKey = 'exports' | 'mails';

const locales: Record<TextLanguage, Record<string, unknown>> = { fr, en, de, pl };

/** `fallback` with every value `preferred` has of the same kind put in its place. */
function withFallback<T>(preferred: unknown, fallback: T): T {
  if (typeof fallback === 'string')
    return (typeof preferred === 'string' ? preferred : fallback) as T;
  if (!fallback || typeof fallback !== 'object' || !preferred || typeof preferred !== 'object')
    return fallback;
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fallback)) {
    merged[key] = withFallback((preferred as Record<string, unknown>)[key], value);
  }
  return merged as T;
}

const cache = new Map<string, unknown>();

/** The words under `key` of the locale files in a language (English where a word is missing). */
export function localeTexts<K extends ServerTextKey>(
  key: K,
  language: TextLanguage,
): (typeof en)[K] {
  const cacheKey = `${key}:${language}`;
  let texts = cache.get(cacheKey) as (typeof en)[K] | undefined;
  if (!texts) {
    texts = language === 'en' ? en[key] : withFallback(locales[language][key], en[key]);
    cache.set(cacheKey, texts);
  }
  return texts;
}

/** Replaces each `{{name}}` of a template by its value. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
