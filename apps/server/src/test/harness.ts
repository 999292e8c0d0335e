import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, type DatabaseHandle, openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import type { Integrations } from '../platform/integrations';
import type { Mailer } from '../platform/mail';
import type { PushSender } from '../platform/push';
import { adminDatabaseUrl, withDatabase } from './pg-urls';

export type TestContext = {
  app: FastifyInstance;
  db: Database;
  database: DatabaseHandle;
  config: Config;
};

/** A fresh database for one test file: a clone of the migrated template (pg) or in-memory PGlite. */
async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'pg') {
    const handle = await openDatabase({ driver: 'pglite' });
    await runMigrations(handle);
    return { handle, drop: async () => {} };
  }
  const name = `${inject('pgRunPrefix')}${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('pgTemplate')}"`);
  await admin.end();
  const handle = await openDatabase({ driver: 'pg', url: withDatabase(name), poolSize: 5 });
  return {
    handle,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminDatabaseUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await client.end();
    },
  };
}

export type TestAppOptions = {
  env?: Record<string, string>;
  mailer?: Mailer;
  integrations?: Partial<Integrations>;
  /** The server's clock (AppDeps.now), e.g. a test's settable time; default the system clock. */
  now?: () => Date;
  /** pino options (e.g. a stream to capture the log lines); default none. */
  logger?: object;
  /** Web Push made from the test's configuration (e.g. trusting a loopback push service). */
  push?: (config: Config) => PushSender | null;
};

/** Registers beforeAll/afterAll for a test file; the returned context is filled before tests run. */
export function useTestApp(options: TestAppOptions = {}): TestContext {
  const context = {} as TestContext;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-test-')),
      PUBLIC_URL: 'http://mise.test',
      ...options.env,
    });
    const app = await buildApp({
      config,
      database: opened.handle,
      logger: options.logger ?? false,
      isServingWeb: false,
      mailer: options.mailer,
      integrations: options.integrations,
      now: options.now,
      push: options.push?.(config),
    });
    await app.ready();
    Object.assign(context, { app, db: opened.handle.db, database: opened.handle, config });
  });
  afterAll(async () => {
    await context.app?.close();
    await context.database?.close();
    await drop();
  });
  return context;
}

export type Agent = {
  cookie: string;
  csrf: string;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
};

function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie : [setCookie ?? ''];
  const found = header.find((value) => value.startsWith('mise_session='));
  if (!found) throw new Error('no session cookie was set');
  return found.split(';')[0]!;
}

/** Signs in through POST /api/auth/login and returns an agent that sends cookie and CSRF token. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<Agent> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
  }
  return agentFromCookie(app, sessionCookieOf(response.headers['set-cookie']));
}

export async function agentFromCookie(app: FastifyInstance, cookie: string): Promise<Agent> {
  const csrfResponse = await app.inject({
    method: 'GET',
    url: '/api/auth/csrf',
    headers: { cookie },
  });
  const csrf = csrfResponse.json().csrfToken as string;
  return {
    cookie,
    csrf,
    inject: (options) =>
      app.inject({
        ...options,
        headers: { cookie, 'x-csrf-token': csrf, ...(options.headers ?? {}) },
      }),
  };
}

export { sessionCookieOf };
