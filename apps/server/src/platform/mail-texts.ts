import type { MailLanguage } from '@mise/shared/organisation/invitation-mail';
import { fillTemplate, localeTexts } from './locale-texts';

/*
 * The words of the server's e-mails: the "mails" key of the locale files, read through the one
 * loader (platform/locale-texts), a word missing in a language falling back to English.
 */

export type InvitationKind =
  | 'store-new-account'
  | 'store-existing-account'
  | 'database-existing-account';

/** Subject and text of an invitation e-mail (a store to own, a database to manage). */
export function invitationMail(
  language: MailLanguage,
  invitation: { kind: InvitationKind; place: string; link: string },
): { subject: string; text: string } {
  const texts = localeTexts('mails', language).invitation;
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

/**
 * Subject and text of a records seal e-mail (issue 21): the store's checkpoints not sent yet,
 * each a day, its count of entries and its full head hash, then the store page's link.
 */
export function recordsCheckpointMail(
  language: MailLanguage,
  seal: {
    store: string;
    checkpoints: readonly { day: string; seq: number; head_hash: string }[];
    link: string;
  },
): { subject: string; text: string } {
  const texts = localeTexts('mails', language).recordsCheckpoint;
  const latest = seal.checkpoints.at(-1);
  return {
    subject: fillTemplate(texts.subject, { store: seal.store, day: latest?.day ?? '' }),
    text: [
      texts.greeting,
      '',
      fillTemplate(texts.intro, { store: seal.store }),
      '',
      ...seal.checkpoints.map((checkpoint) =>
        fillTemplate(texts.line, {
          day: checkpoint.day,
          entries: checkpoint.seq,
          hash: checkpoint.head_hash,
        }),
      ),
      '',
      texts.open,
      seal.link,
      '',
      'Mise',
    ].join('\n'),
  };
}
