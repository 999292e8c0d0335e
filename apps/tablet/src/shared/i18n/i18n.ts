import {
  detectInitialLanguage,
  isLanguage,
  type Language,
  languageStorageKey,
  languages,
} from '@mise/shared/i18n/languages';
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

type Loader = () => Promise<ResourceKey>;
/** The shared sections, with the tablet's own keys added inside them (one level deep). */
function merge(own: { default: ResourceKey }, shared: object): ResourceKey {
  const result: Record<string, unknown> = { ...shared };
  for (const [key, value] of Object.entries(own.default as object)) {
    const base = result[key];
    result[key] =
      base && typeof base === 'object' && value && typeof value === 'object'
        ? { ...base, ...value }
        : value;
  }
  return result as ResourceKey;
}
/** One chunk per language (the tablet's texts and the shared sections), loaded when used. */
const loaders: Record<Language, Loader> = {
  fr: async () =>
    merge(await import('../../locales/fr.json'), await import('../../locales/shared-fr')),
  en: async () =>
    merge(await import('../../locales/en.json'), await import('../../locales/shared-en')),
  de: async () =>
    merge(await import('../../locales/de.json'), await import('../../locales/shared-de')),
  pl: async () =>
    merge(await import('../../locales/pl.json'), await import('../../locales/shared-pl')),
};

const backend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    if (!isLanguage(language)) {
      callback(null, {});
      return;
    }
    loaders[language]().then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export const i18n = i18next.createInstance();

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}

/** Starts i18next and resolves once the language's texts are loaded (render after it). */
export async function initI18n(language?: Language): Promise<typeof i18n> {
  if (i18n.isInitialized) {
    if (language && i18n.language !== language) await i18n.changeLanguage(language);
    return i18n;
  }
  const browser =
    typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? [navigator.language])];
  const initial = language ?? detectInitialLanguage(readStoredLanguage(), browser);
  if (typeof document !== 'undefined') document.documentElement.lang = initial;
  await i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: initial,
      fallbackLng: false,
      supportedLngs: [...languages],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      // A missing translation shows its key in brackets (spec 000 §1).
      parseMissingKeyHandler: (key: string, defaultValue?: string) => defaultValue ?? `[${key}]`,
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
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

/** The text of a server refusal or a local check: the translated code, else the server's words. */
export function errorText(code: string, fallback?: string): string {
  return i18n.t(`errors.${code}`, { defaultValue: fallback ?? i18n.t('errors.unknown') });
}
