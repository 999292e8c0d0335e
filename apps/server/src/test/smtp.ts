import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** One message as the SMTP server received it, with the few fields tests read. */
export type ReceivedMessage = {
  /** Envelope recipients (RCPT TO). */
  envelopeTo: string[];
  envelopeFrom: string | null;
  raw: string;
  headers: Record<string, string>;
  subject: string;
  to: string;
  /** The text body, transfer encoding (quoted-printable, base64) undone. */
  body: string;
};

export type TestSmtpServer = {
  /** smtp://127.0.0.1:<port>: plain SMTP, no TLS offered, no authentication needed. */
  url: string;
  messages: ReceivedMessage[];
  waitForMessage(
    predicate: (message: ReceivedMessage) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMessage>;
  close(): Promise<void>;
};

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeQuotedPrintable(text: string): Buffer {
  const softBreaksRemoved = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < softBreaksRemoved.length; index++) {
    const char = softBreaksRemoved[index]!;
    const hex = softBreaksRemoved.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=), as nodemailer writes subjects. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_match, _charset: string, encoding: string, text: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeBody(body: string, transferEncoding: string | undefined): string {
  switch (transferEncoding?.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** Minimal parsing of a single-part message (what the product sends: text, optional html). */
export function parseMessage(
  raw: string,
  envelope: { from: string | null; to: string[] },
): ReceivedMessage {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const rest = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = parseHeaders(head);
  let body = decodeBody(rest, headers['content-transfer-encoding']);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (boundary) {
    // multipart/alternative: keep the text/plain part.
    const parts = rest.split(`--${boundary}`).slice(1, -1);
    const text = parts
      .map((part) => parseMessage(part.replace(/^\r?\n/, ''), envelope))
      .find((part) => (part.headers['content-type'] ?? 'text/plain').startsWith('text/plain'));
    body = text?.body ?? '';
  }
  return {
    envelopeTo: envelope.to,
    envelopeFrom: envelope.from,
    raw,
    headers,
    subject: decodeEncodedWords(headers.subject ?? ''),
    to: headers.to ?? '',
    body,
  };
}

/** A real SMTP server on loopback, random port, collecting every message it receives. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        messages.push(parseMessage(Buffer.concat(chunks).toString('utf8'), { from, to }));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching message within ${timeoutMs} ms (${messages.length} received)`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Registers a server for one test file (or describe block). Call it before useTestApp and
 * pass `mail.env` to it: SMTP_URL is filled before the app is built.
 */
export function useTestSmtpServer(): { env: Record<string, string>; server: TestSmtpServer } {
  const context = {
    env: {} as Record<string, string>,
    server: undefined as unknown as TestSmtpServer,
  };
  beforeAll(async () => {
    context.server = await startTestSmtpServer();
    context.env.SMTP_URL = context.server.url;
  });
  afterAll(async () => {
    await context.server?.close();
  });
  return context;
}
