import { Writable } from 'node:stream';
import { outputRingSize } from '@mise/shared/operations/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createOutputRing, levelName, teeToRing } from './output-ring';

/** A pino logger writing to a ring only (as buildApp's tee does beside stdout). */
function loggerOn(ring = createOutputRing()) {
  return { ring, log: pino({ level: 'trace' }, ring) };
}

describe('the output ring', () => {
  it(`keeps the last ${outputRingSize} lines, oldest dropped, seq increasing`, () => {
    const { ring, log } = loggerOn();
    for (let index = 1; index <= outputRingSize + 250; index++)
      log.info({ index }, `line ${index}`);
    const { items, last_seq } = ring.read();
    expect(items).toHaveLength(outputRingSize);
    expect(ring.size).toBe(outputRingSize);
    expect(last_seq).toBe(outputRingSize + 250);
    // The 250 oldest are gone; the rest in order.
    expect(items[0]!.msg).toBe('line 251');
    expect(items.at(-1)!.msg).toBe(`line ${outputRingSize + 250}`);
    expect(items.map((item) => item.seq)).toEqual(
      Array.from({ length: outputRingSize }, (_, index) => 251 + index),
    );
    expect(JSON.parse(items[0]!.line)).toMatchObject({ index: 251, msg: 'line 251', level: 30 });
  });

  it('answers the lines after a sequence number, and at a level or above', () => {
    const { ring, log } = loggerOn();
    log.debug('debug one');
    log.info('info one');
    log.warn('warn one');
    log.error('error one');
    log.fatal('fatal one');
    log.trace('trace one');
    const all = ring.read();
    expect(all.items.map((item) => [item.seq, item.level, item.msg])).toEqual([
      [1, 'debug', 'debug one'],
      [2, 'info', 'info one'],
      [3, 'warn', 'warn one'],
      [4, 'error', 'error one'],
      [5, 'fatal', 'fatal one'],
      [6, 'trace', 'trace one'],
    ]);
    expect(ring.read({ after: 3 }).items.map((item) => item.msg)).toEqual([
      'error one',
      'fatal one',
      'trace one',
    ]);
    expect(ring.read({ level: 'warn' }).items.map((item) => item.msg)).toEqual([
      'warn one',
      'error one',
      'fatal one',
    ]);
    expect(ring.read({ after: 4, level: 'error' }).items.map((item) => item.msg)).toEqual([
      'fatal one',
    ]);
    // Nothing new: no items, and the same last_seq to send again.
    expect(ring.read({ after: 6 })).toEqual({ items: [], last_seq: 6 });
    expect(createOutputRing().read()).toEqual({ items: [], last_seq: 0 });
  });

  it('stamps each line with its time and level name', () => {
    const { ring, log } = loggerOn();
    const before = Date.now();
    log.warn('careful');
    const [line] = ring.read().items;
    expect(new Date(line!.time).getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(new Date(line!.time).getTime()).toBeLessThanOrEqual(Date.now());
    expect(line!.level).toBe('warn');
    expect(levelName(35)).toBe('info');
    expect(levelName(70)).toBe('fatal');
    expect(levelName('error')).toBe('error');
  });

  it('redacts secrets in any key and inside URLs, messages and headers', () => {
    const { ring, log } = loggerOn();
    log.info(
      {
        req: {
          method: 'GET',
          url: '/api/auth?token=abcDEF123456&lang=fr',
          headers: {
            cookie: 'mise_session=s3cr3t-session',
            authorization: 'Bearer very-secret-bearer',
            'x-csrf-token': 'csrf-value-1',
            'user-agent': 'Vitest',
          },
        },
        body: { email: 'a@b.test', password: 'Hunter2-password', newPassword: 'Other-pass-99' },
        user: { apiKey: 'api-key-value', api_key: 'api-key-value-2', client_secret: 'cs-value' },
        sessionToken: 'session-token-value',
        S3_SECRET_ACCESS_KEY: 'aws-secret-value',
        databaseUrl: 'postgres://mise:db-password@db:5432/mise',
        list: [{ refresh_token: 'refresh-value' }],
      },
      'GET https://cdn.example/x.png?X-Amz-Signature=amz-sig-value&width=10 by Basic dXNlcjpwYXNz with $argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    );
    log.error({ err: { message: 'connect failed: postgres://mise:other-db-pass@10.0.0.1/mise' } });
    const lines = ring.read().items.map((item) => item.line);
    const text = lines.join('\n');
    for (const secret of [
      'abcDEF123456',
      's3cr3t-session',
      'very-secret-bearer',
      'csrf-value-1',
      'Hunter2-password',
      'Other-pass-99',
      'api-key-value',
      'cs-value',
      'session-token-value',
      'aws-secret-value',
      'db-password',
      'refresh-value',
      'amz-sig-value',
      'dXNlcjpwYXNz',
      '$argon2id',
      'aGFzaA',
      'other-db-pass',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    const first = JSON.parse(lines[0]!);
    // What is not secret stays readable.
    expect(first.req.url).toBe('/api/auth?token=[Redacted]&lang=fr');
    expect(first.req.headers['user-agent']).toBe('Vitest');
    expect(first.req.headers.cookie).toBe('[Redacted]');
    expect(first.body).toEqual({
      email: 'a@b.test',
      password: '[Redacted]',
      newPassword: '[Redacted]',
    });
    expect(first.msg).toContain('X-Amz-Signature=[Redacted]&width=10');
    expect(ring.read().items[0]!.msg).toContain('Basic [Redacted]');
    expect(JSON.parse(lines[1]!).err.message).toBe(
      'connect failed: postgres://mise:[Redacted]@10.0.0.1/mise',
    );
  });

  it('caps a long line at 4 KB and keeps it JSON', () => {
    const { ring, log } = loggerOn();
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`field${index}`, 'x'.repeat(900)]),
    );
    log.info({ ...many, huge: 'y'.repeat(100_000) }, 'a very long line');
    const [line] = ring.read().items;
    expect(line!.line.length).toBeLessThanOrEqual(4096);
    expect(JSON.parse(line!.line)).toMatchObject({
      truncated: true,
      level: 30,
      msg: 'a very long line',
    });
    log.info({ huge: 'z'.repeat(3000) }, 'one long field');
    const second = JSON.parse(ring.read({ after: 1 }).items[0]!.line);
    expect(second.huge).toHaveLength(1024 + '…[truncated]'.length);
  });

  it('feeds the ring beside the logger destination, which receives the same lines', () => {
    const ring = createOutputRing();
    const written: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, teeToRing(destination, ring));
    log.info({ password: 'never-shown' }, 'hello');
    expect(written).toHaveLength(1);
    // The destination is unchanged (the logger's own redact paths decide there).
    expect(JSON.parse(written[0]!)).toMatchObject({ msg: 'hello', password: 'never-shown' });
    expect(ring.read().items.map((item) => item.msg)).toEqual(['hello']);
    expect(ring.read().items[0]!.line).not.toContain('never-shown');
  });

  it('keeps a line that is not JSON as its message', () => {
    const ring = createOutputRing();
    ring.write('plain text with ?token=abc\n');
    expect(ring.read().items).toMatchObject([
      { seq: 1, level: 'info', msg: 'plain text with ?token=[Redacted]' },
    ]);
  });
});
