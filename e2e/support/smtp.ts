import { randomUUID } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

declare global {
  /** Kept by the runner between globalSetup and globalTeardown (same process). */
  var miseMailCatcher: SMTPServer | undefined;
}

/** What the loopback SMTP server writes for each message: envelope and raw RFC 822 text. */
export type StoredMail = {
  receivedAt: string;
  from: string | null;
  to: string[];
  raw: string;
};

/**
 * A real SMTP server on loopback: plain SMTP (no STARTTLS), no authentication. Each
 * message lands in `folder` as one JSON file, written then renamed so a reader never
 * sees half a message.
 */
export async function startMailCatcher(options: {
  port: number;
  folder: string;
}): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail: StoredMail = {
          receivedAt: new Date().toISOString(),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        const name = `${Date.now()}-${randomUUID()}`;
        const temporary = join(options.folder, `${name}.tmp`);
        try {
          writeFileSync(temporary, JSON.stringify(mail));
          renameSync(temporary, join(options.folder, `${name}.json`));
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function stopMailCatcher(server: SMTPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
