import { describe, expect, it } from 'vitest';
import { mailLanguageOf } from './invitation-mail';

describe('mailLanguageOf', () => {
  it('takes the first supported language by preference, English otherwise', () => {
    expect(mailLanguageOf('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(mailLanguageOf('es-ES,de;q=0.7,pl;q=0.9')).toBe('pl');
    expect(mailLanguageOf('DE')).toBe('de');
    expect(mailLanguageOf('fr;q=0,en;q=0.5')).toBe('en');
    expect(mailLanguageOf('es')).toBe('en');
    expect(mailLanguageOf(undefined)).toBe('en');
  });
});
