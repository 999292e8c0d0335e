/** The product's languages (spec 000 §1): FR, EN, DE, PL, English as the fallback. */
export const languages = ['fr', 'en', 'de', 'pl'] as const;
export type Language = (typeof languages)[number];

export const fallbackLanguage: Language = 'en';
/** The stored choice (localStorage), shared by the back-office and the tablet app on one origin. */
export const languageStorageKey = 'mise.language';

/** Names shown in the language pickers, each in its own language. */
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
