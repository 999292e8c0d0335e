/**
 * The languages of the server's e-mails: the four of the interface, English the fallback
 * (spec 000). Their words are in the web app's locale files (key "mails").
 */
export const mailLanguages = ['fr', 'en', 'de', 'pl'] as const;
export type MailLanguage = (typeof mailLanguages)[number];

/**
 * The mail language from an Accept-Language header: the first supported language by
 * preference (q values), English otherwise.
 */
export function mailLanguageOf(acceptLanguage: string | undefined | null): MailLanguage {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const quality = parameters
        .map((parameter) => parameter.trim())
        .find((parameter) => parameter.startsWith('q='));
      const q = quality ? Number(quality.slice(2)) : 1;
      return { language: tag.toLowerCase().split('-')[0]!, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) =>
    (mailLanguages as readonly string[]).includes(entry.language),
  );
  return (found?.language as MailLanguage | undefined) ?? 'en';
}
