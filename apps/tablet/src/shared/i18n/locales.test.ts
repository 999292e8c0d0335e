import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import fr from '../../locales/fr.json';
import pl from '../../locales/pl.json';
import * as sharedEn from '../../locales/shared-en';
import * as sharedFr from '../../locales/shared-fr';

/** Every key of a locale file, plural forms folded into their base key (Polish has more). */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null)
    return [prefix.replace(/_(one|few|many|other)$/, '')];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('tablet locales', () => {
  it('French, German and Polish have every English text of the tablet, none empty', () => {
    const english = new Set(keys(en));
    for (const [language, texts] of Object.entries({ fr, de, pl })) {
      expect(new Set(keys(texts)), language).toEqual(english);
      const values = JSON.stringify(texts).match(/":""/g);
      expect(values, `${language} has empty texts`).toBeNull();
    }
  });

  it("takes the back-office's shared sections under the same keys", () => {
    expect(Object.keys(sharedEn).sort()).toEqual(['allergenNames', 'errors', 'label', 'modules']);
    expect(sharedFr.errors['invalid-password']).toBe(
      'Mot de passe invalide. Veuillez saisir un code PIN à 4 chiffres.',
    );
  });
});
