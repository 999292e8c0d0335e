import {
  detectInitialLanguage,
  fallbackLanguage,
  isLanguage,
  type Language,
  languageNames,
  languageStorageKey,
  languages,
} from '@mise/shared/i18n/languages';
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

export {
  detectInitialLanguage,
  fallbackLanguage,
  isLanguage,
  type Language,
  languageNames,
  languageStorageKey,
  languages,
};

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}

/**
 * The stored choice as a cookie too: the server reads it to preload that language's
 * translations with the page (apps/server/src/platform/web-app.ts), as it cannot read
 * localStorage.
 */
export const languageCookieName = 'mise_language';

function writeLanguageCookie(language: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari before 18.4 and older Firefox
  document.cookie = `${languageCookieName}=${language}; path=/; max-age=31536000; samesite=lax`;
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * One chunk per language, fetched when that language is used: the first screen downloads the
 * active language only (each file is about 12 KB compressed).
 */
const translationLoaders: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  fr: () => import('../../locales/fr.json'),
  en: () => import('../../locales/en.json'),
  de: () => import('../../locales/de.json'),
  pl: () => import('../../locales/pl.json'),
};

const translationBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    if (!isLanguage(language)) {
      callback(null, {});
      return;
    }
    translationLoaders[language]().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export const i18n = i18next.createInstance();

/** A missing translation shows its key in brackets (spec 000 §1). */
export function renderMissingKey(key: string, defaultValue?: string): string {
  return defaultValue ?? `[${key}]`;
}

/**
 * Starts i18next on the stored or browser language and resolves once its translations are
 * loaded (render after it, or the first frame shows keys). Every locale file holds every key
 * (i18n.test.tsx checks it), so no second language is loaded as a fallback: English stands
 * in for a language we do not offer (detectInitialLanguage).
 */
export async function initI18n(language?: Language): Promise<typeof i18n> {
  if (i18n.isInitialized) {
    if (language && i18n.language !== language) await i18n.changeLanguage(language);
    return i18n;
  }
  const storedLanguage = readStoredLanguage();
  const initialLanguage = language ?? detectInitialLanguage(storedLanguage, browserLanguages());
  if (typeof document !== 'undefined') {
    document.documentElement.lang = initialLanguage;
    if (isLanguage(storedLanguage)) writeLanguageCookie(storedLanguage);
  }
  await i18n
    .use(translationBackend)
    .use(initReactI18next)
    .init({
      lng: initialLanguage,
      fallbackLng: false,
      supportedLngs: [...languages],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      parseMissingKeyHandler: renderMissingKey,
      react: { useSuspense: false },
      showSupportNotice: false,
    });
  return i18n;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(languageStorageKey, language);
  } catch {
    // The choice then lasts for this page only.
  }
  writeLanguageCookie(language);
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  const resolved = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(resolved) ? resolved : fallbackLanguage;
}
