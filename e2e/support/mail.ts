import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { mailDir } from './env';
import type { StoredMail } from './smtp';

/** A received message, decoded enough for tests: subject and text body. */
export type ReceivedMail = StoredMail & {
  headers: Record<string, string>;
  subject: string;
  text: string;
};

function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const hex = joined.slice(index + 1, index + 3);
    if (joined[index] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(joined[index]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_match, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** The text/plain content of a (possibly multipart) entity. */
function textOf(raw: string): string {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return decodeBody(body, headers['content-transfer-encoding']);
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const texts = parts.map((part) => {
    const partHead = parseHeaders(splitHead(part.replace(/^\r?\n/, '')).head);
    return {
      type: partHead['content-type'] ?? 'text/plain',
      text: textOf(part.replace(/^\r?\n/, '')),
    };
  });
  return (texts.find((part) => part.type.startsWith('text/plain')) ?? texts[0])?.text ?? '';
}

export function parseMail(stored: StoredMail): ReceivedMail {
  const headers = parseHeaders(splitHead(stored.raw).head);
  return {
    ...stored,
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: textOf(stored.raw),
  };
}

/** Every message received so far, oldest first. */
export function readMails(): ReceivedMail[] {
  const folder = mailDir();
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => parseMail(JSON.parse(readFileSync(join(folder, name), 'utf8')) as StoredMail));
}

/** Waits until a message to `recipient` arrives on the loopback SMTP server; the newest wins. */
export async function waitForMail(recipient: string, timeout = 10_000): Promise<ReceivedMail> {
  const address = recipient.toLowerCase();
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = readMails()
          .filter((mail) => mail.to.includes(address))
          .at(-1);
        return found !== undefined;
      },
      { message: `a mail to ${recipient} on the loopback SMTP server`, timeout },
    )
    .toBe(true);
  return found!;
}

/** The first link of a mail that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`${escaped}\\S+`).exec(mail.text)?.[0];
  if (!link) throw new Error(`no link starting with ${prefix} in the mail:\n${mail.text}`);
  return link;
}
