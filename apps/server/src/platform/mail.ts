import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { outbox } from '../db/schema';

export type MailMessage = { to: string[]; subject: string; text: string; html?: string };

export type Mailer = { send(message: MailMessage): Promise<void> };

/**
 * Sends through SMTP when SMTP_URL is set; otherwise every message is logged (recipient
 * and subject only: bodies carry links) and kept in the outbox table, which is then the
 * way to read it. With SMTP the body is not kept: mailed links are secrets.
 */
export function createMailer(options: {
  db: Database;
  from: string;
  smtpUrl?: string;
  logger: FastifyBaseLogger;
}): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    async send(message) {
      const [row] = await options.db
        .insert(outbox)
        .values({
          sender: options.from,
          recipients: message.to,
          subject: message.subject,
          body: transport ? '[sent by SMTP, body not kept]' : message.text,
          html: transport ? null : (message.html ?? null),
          status: transport ? 'pending' : 'logged',
        })
        .returning({ id: outbox.id });
      if (!transport) {
        options.logger.info(
          { to: message.to, subject: message.subject },
          'mail kept in the outbox',
        );
        return;
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        await options.db
          .update(outbox)
          .set({ status: 'sent', sent_at: new Date() })
          .where(eq(outbox.id, row!.id));
      } catch (error) {
        options.logger.error(
          { to: message.to, subject: message.subject, err: error },
          'mail failed',
        );
        await options.db
          .update(outbox)
          .set({ status: 'failed', error: String(error) })
          .where(eq(outbox.id, row!.id));
        throw error;
      }
    },
  };
}
