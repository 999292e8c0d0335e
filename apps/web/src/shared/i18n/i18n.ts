import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import fr from '../../locales/fr.json';
import pl from '../../locales/pl.json';

export const languages = ['fr', 'en', 'de', 'pl'] as const;
export type Language = (typeof languages)[number];

export const fallbackLanguage: Language = 'en';
export const languageStorageKey = 'mise.language';

/** Names shown in the language picker, each in its own language. */
export const languageNames: Record<Language, string> = {
  fr: 'Français',
  en: 'English',
  de: 'Deutsch',
  pl: 'Polski',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Stored choice, else the first browser language among ours, else English. */
export function detectInitialLanguage(
  stored: string | null,
  browserLanguages: readonly string[],
): Language {
  if (isLanguage(stored)) return stored;
  for (const browserLanguage of browserLanguages) {
    const base = browserLanguage.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return fallbackLanguage;
}

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

export const i18n = i18next.createInstance();

/** A missing translation shows its key in brackets (spec 000 §1). */
export function renderMissingKey(key: string, defaultValue?: string): string {
  return defaultValue ?? `[${key}]`;
}

export function initI18n(language?: Language): typeof i18n {
  if (i18n.isInitialized) {
    if (language && i18n.language !== language) void i18n.changeLanguage(language);
    return i18n;
  }
  const initialLanguage =
    language ?? detectInitialLanguage(readStoredLanguage(), browserLanguages());
  void i18n.use(initReactI18next).init({
    resources: {
      fr: { translation: fr },
      en: { translation: en },
      de: { translation: de },
      pl: { translation: pl },
    },
    lng: initialLanguage,
    fallbackLng: fallbackLanguage,
    supportedLngs: [...languages],
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    parseMissingKeyHandler: renderMissingKey,
    react: { useSuspense: false },
    showSupportNotice: false,
  });
  if (typeof document !== 'undefined') document.documentElement.lang = initialLanguage;
  return i18n;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(languageStorageKey, language);
  } catch {
    // The choice then lasts for this page only.
  }
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  const resolved = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(resolved) ? resolved : fallbackLanguage;
}
