import de from '../../../../web/src/locales/de.json';
import en from '../../../../web/src/locales/en.json';
import fr from '../../../../web/src/locales/fr.json';
import pl from '../../../../web/src/locales/pl.json';

/*
 * The words of the server's documents (history PDF and CSV, punch-card PDF, allergens PDF)
 * live with every other text of the product, under the top-level "exports" key of the web
 * app's locale files (imported as JSON; the server's bundle inlines them). This is the one
 * loader: it picks the language, every missing word falling back to English.
 */

export type ExportLanguage = 'fr' | 'en' | 'de' | 'pl';
export type ExportTexts = typeof en.exports;

const byLanguage: Record<ExportLanguage, unknown> = {
  fr: fr.exports,
  en: en.exports,
  de: de.exports,
  pl: pl.exports,
};

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

const cache = new Map<ExportLanguage, ExportTexts>();

/** The document words of a language (English where a word is missing). */
export function exportTexts(lang: ExportLanguage): ExportTexts {
  let texts = cache.get(lang);
  if (!texts) {
    texts = lang === 'en' ? en.exports : withFallback(byLanguage[lang], en.exports);
    cache.set(lang, texts);
  }
  return texts;
}

/** Replaces each `{{name}}` of a template by its value. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
