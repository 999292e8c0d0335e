import type { MailLanguage } from '@mise/shared/organisation/invitation-mail';
import de from '../../../web/src/locales/de.json';
import en from '../../../web/src/locales/en.json';
import fr from '../../../web/src/locales/fr.json';
import pl from '../../../web/src/locales/pl.json';
import { fillTemplate } from './pdf/export-texts';

/*
 * The words of the server's e-mails live with every other text of the product, under the
 * top-level "mails" key of the web app's locale files (the server's bundle inlines the JSON).
 * A word missing in a language falls back to English.
 */

type InvitationTexts = typeof en.mails.invitation;

const byLanguage: Record<MailLanguage, Partial<InvitationTexts> | undefined> = {
  fr: fr.mails?.invitation,
  en: en.mails.invitation,
  de: de.mails?.invitation,
  pl: pl.mails?.invitation,
};

function invitationTexts(language: MailLanguage): InvitationTexts {
  return { ...en.mails.invitation, ...byLanguage[language] };
}

export type InvitationKind =
  | 'store-new-account'
  | 'store-existing-account'
  | 'database-existing-account';

/** Subject and text of an invitation e-mail (a store to own, a database to manage). */
export function invitationMail(
  language: MailLanguage,
  invitation: { kind: InvitationKind; place: string; link: string },
): { subject: string; text: string } {
  const texts = invitationTexts(language);
  const values = { place: invitation.place };
  const intro = {
    'store-new-account': texts.storeNewAccount,
    'store-existing-account': texts.storeExistingAccount,
    'database-existing-account': texts.databaseExistingAccount,
  }[invitation.kind];
  const action =
    invitation.kind === 'store-new-account' ? texts.createAccount : texts.acceptExisting;
  return {
    subject: fillTemplate(texts.subject, values),
    text: [
      texts.greeting,
      '',
      fillTemplate(intro, values),
      action,
      invitation.link,
      '',
      texts.ignore,
      '',
      'Mise',
    ].join('\n'),
  };
}
