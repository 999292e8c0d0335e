import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { buildUser, testPassword } from '../test/factories';
import { signIn, useTestApp } from '../test/harness';
import { registerErrorHandling } from './errors';

/** pino writes one JSON line per log record here. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: { level: 'trace', stream } };
}

const nul = '\u0000';

describe('a NUL character in free text (issue 13, point 11)', () => {
  const capture = logCapture();
  const context = useTestApp({ logger: capture.logger });

  it('answers 400 with a code for a signup name, and logs no SQL parameter nor hash', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        name: `Ni${nul}na`,
        surname: 'Nul',
        email: 'nul@example.test',
        password: 'Fresh-bread-2026',
        phone: '+33 6 00 00 00 00',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'validation/invalid-input',
      issues: [{ path: 'body.name', message: 'NUL characters are not allowed' }],
    });
    const created = await context.db.select({ email: users.email }).from(users);
    expect(created.map((row) => row.email)).not.toContain('nul@example.test');
    const log = capture.lines.join('');
    expect(log).not.toContain('$argon2');
    expect(log).not.toMatch(/params|parameters/);
    expect(log).not.toContain('"level":50');
  });

  it('answers 400 for a NUL in every list search, and in a key or a nested value', async () => {
    const admin = await buildUser(context.db, { role: 'admin' });
    const agent = await signIn(context.app, admin.email, testPassword);
    capture.lines.length = 0;
    for (const path of ['/api/users', '/api/stores', '/api/databases', '/api/distributors']) {
      const response = await agent.inject({ method: 'GET', url: `${path}?search=a%00b` });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.code, path).toBe('validation/invalid-input');
    }
    const login = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: `${testPassword}${nul}` },
    });
    expect(login.statusCode).toBe(400);
    const nested = await agent.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      payload: { version: admin.version, [`na${nul}me`]: 'x' },
    });
    expect(nested.statusCode).toBe(400);
    const log = capture.lines.join('');
    expect(log).not.toContain('$argon2');
    expect(log).not.toMatch(/params|parameters/);
    expect(log).not.toContain('"level":50');
  });
});

describe('database errors in the error handler and the logs', () => {
  async function appThrowing(error: Error) {
    const capture = logCapture();
    const app = Fastify({ logger: capture.logger });
    registerErrorHandling(app);
    app.get('/boom', async () => {
      throw error;
    });
    await app.ready();
    return { app, capture };
  }

  const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
  const failedQuery = (code: string, message: string) => {
    const cause = Object.assign(new Error(message), {
      code,
      query: 'insert into "users" ("email", "password_hash") values ($1, $2)',
      params: ['someone@example.test', hash],
      parameters: ['someone@example.test', hash],
    });
    return new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['someone@example.test', hash],
      cause,
    );
  };

  it('maps an "invalid byte sequence" (22021) to 400, without the parameters in the log', async () => {
    const { app, capture } = await appThrowing(
      failedQuery('22021', 'invalid byte sequence for encoding "UTF8": 0x00'),
    );
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation/invalid-input');
    const log = capture.lines.join('');
    expect(log).toContain('invalid byte sequence');
    expect(log).not.toContain('$argon2');
    expect(log).not.toContain('someone@example.test');
    await app.close();
  });

  it('logs any other failed query as a 500 with its code, never its parameters', async () => {
    const { app, capture } = await appThrowing(failedQuery('23502', 'null value in column'));
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toEqual({
      code: 'internal',
      message: 'An error occured.',
    });
    const log = capture.lines.join('');
    expect(log).toContain('"level":50');
    expect(log).toContain('23502');
    expect(log).toContain('Failed query: insert into');
    expect(log).not.toContain('$argon2');
    expect(log).not.toContain('someone@example.test');
    await app.close();
  });
});
