import { mailLanguages } from '@mise/shared/organisation/invitation-mail';
import { describe, expect, it } from 'vitest';
import de from '../../../web/src/locales/de.json';
import en from '../../../web/src/locales/en.json';
import fr from '../../../web/src/locales/fr.json';
import pl from '../../../web/src/locales/pl.json';
import { invitationMail } from './mail-texts';

describe('invitation e-mails from the locale files', () => {
  it('has every word of the invitation in the four languages', () => {
    const keys = Object.keys(en.mails.invitation).sort();
    for (const locale of [fr, de, pl])
      expect(Object.keys(locale.mails.invitation).sort()).toEqual(keys);
  });

  it('fills the place and the link, in each language', () => {
    const subjects = mailLanguages.map(
      (language) =>
        invitationMail(language, { kind: 'store-existing-account', place: 'Bistro', link: 'L' })
          .subject,
    );
    expect(subjects).toEqual([
      'Invitation : Bistro',
      'Invitation: Bistro',
      'Einladung: Bistro',
      'Zaproszenie: Bistro',
    ]);
    const mail = invitationMail('fr', {
      kind: 'database-existing-account',
      place: 'Base',
      link: 'http://x',
    });
    expect(mail.text).toContain('Vous êtes invité à gérer la base de données « Base » sur Mise.');
    expect(mail.text).toContain('http://x');
  });
});
