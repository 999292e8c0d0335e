import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { buildDatabaseElement, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { encodeMetadata } from './test-support';
import {
  createPostgresLocker,
  createUploadLocker,
  type UploadLocker,
  uploadLockKey,
} from './upload-locker';

const isPostgres = process.env.TEST_DB === 'pg';
const megabyte = 1024 * 1024;

/** tus' lock timeout error, as @tus/utils defines it (the server answers it as a 500). */
const lockTimeout = { status_code: 500, body: 'failed to acquire lock before timeout' };

const newId = () => randomBytes(16).toString('hex');

/** A promise that settles, and whether it has yet. */
function track<T>(promise: Promise<T>) {
  const state = { isSettled: false, error: null as unknown };
  const settled = promise.then(
    (value) => {
      state.isSettled = true;
      return value;
    },
    (error: unknown) => {
      state.isSettled = true;
      state.error = error;
      throw error;
    },
  );
  settled.catch(() => {});
  return { promise: settled, state };
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(isPostgres)('the upload locker on PGlite', () => {
  const context = useTestApp();

  it('is the in-process MemoryLocker: one request at a time', async () => {
    const locker = createUploadLocker(context.database);
    const id = newId();
    const first = locker.newLock(id);
    let releaseAsked = 0;
    await first.lock(new AbortController().signal, () => {
      releaseAsked += 1;
    });
    const second = track(locker.newLock(id).lock(new AbortController().signal, () => {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.state.isSettled).toBe(false);
    expect(releaseAsked).toBeGreaterThan(0);
    await first.unlock();
    await second.promise;
    await locker.close();
  });
});

describe.skipIf(!isPostgres)('the upload locker on PostgreSQL (advisory locks)', () => {
  const context = useTestApp();
  const lockers: UploadLocker[] = [];
  /** A locker as another instance has one: its own connections and listener. */
  const instance = (options: Parameters<typeof createPostgresLocker>[1] = {}) => {
    const locker = createPostgresLocker(context.database.pool!, options);
    lockers.push(locker);
    return locker;
  };
  afterAll(async () => {
    for (const locker of lockers) await locker.close();
  });

  /** Sessions holding the advisory lock of a datastore key, as PostgreSQL reports them. */
  async function holdersOf(id: string): Promise<number> {
    const key = BigInt.asUintN(64, uploadLockKey(id));
    const result = (await context.db.execute(sql`
      select count(*)::int as count from pg_locks
      where locktype = 'advisory' and granted and objsubid = 1
        and database = (select oid from pg_database where datname = current_database())
        and classid = ${Number(key >> 32n)}::bigint::oid
        and objid = ${Number(key & 0xffffffffn)}::bigint::oid`)) as unknown as {
      rows: { count: number }[];
    };
    return result.rows[0]!.count;
  }

  it('makes a request on another instance wait, asks the holder to let go, then grants it', async () => {
    const [a, b] = [instance(), instance()];
    const id = newId();
    const held = b.newLock(id);
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked += 1;
      // The holder's request ends a little later (tus cancels it after its drain timeout).
      if (asked === 1) setTimeout(() => void held.unlock(), 300);
    });
    expect(await holdersOf(id)).toBe(1);

    const started = Date.now();
    const waiting = a.newLock(id);
    const acquired = track(waiting.lock(new AbortController().signal, () => {}));
    await waitFor(() => asked > 0);
    expect(acquired.state.isSettled).toBe(false);
    await acquired.promise;
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5000);
    // One session holds it: the new one.
    expect(await holdersOf(id)).toBe(1);
    await waiting.unlock();
    expect(await holdersOf(id)).toBe(0);
  });

  it('refuses with tus ERR_LOCK_TIMEOUT when the holder does not let go in time', async () => {
    const [a, b] = [instance({ acquireTimeoutMs: 800 }), instance()];
    const id = newId();
    const held = b.newLock(id);
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked += 1;
    });
    const started = Date.now();
    await expect(a.newLock(id).lock(new AbortController().signal, () => {})).rejects.toEqual(
      lockTimeout,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    expect(asked).toBeGreaterThanOrEqual(1);
    // Still the holder's; the refused request left nothing behind.
    expect(await holdersOf(id)).toBe(1);
    await held.unlock();
    expect(await holdersOf(id)).toBe(0);
  });

  it('stops waiting when its own request is aborted, and keeps locks of other uploads apart', async () => {
    const [a, b] = [instance(), instance()];
    const id = newId();
    const held = b.newLock(id);
    await held.lock(new AbortController().signal, () => {});
    // Another upload is free meanwhile.
    const other = a.newLock(newId());
    await other.lock(new AbortController().signal, () => {});
    await other.unlock();

    const stop = new AbortController();
    const waiting = track(a.newLock(id).lock(stop.signal, () => {}));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    stop.abort();
    await expect(waiting.promise).rejects.toEqual(lockTimeout);
    expect(Date.now() - started).toBeLessThan(500);
    await held.unlock();
    await expect(held.unlock()).rejects.toThrow('Releasing an unlocked lock!');
  });

  describe('two app instances on one database', () => {
    let second: { app: FastifyInstance; database: DatabaseHandle };
    let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
    let manager: Agent;
    const base = { a: '', b: '' };

    const listen = async (app: FastifyInstance) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      return `http://127.0.0.1:${address.port}`;
    };

    beforeAll(async () => {
      // Instance B: the same configuration (DATA_DIR: a shared volume), its own connections.
      const { connectionString } = context.database.pool!.options as { connectionString: string };
      const database = await openDatabase({ driver: 'pg', url: connectionString, poolSize: 5 });
      const app = await buildApp({
        config: context.config,
        database,
        logger: false,
        isServingWeb: false,
      });
      second = { app, database };
      tenants = await buildTwoTenants(context.db);
      manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
      base.a = await listen(context.app);
      base.b = await listen(app);
    });
    /** Requests a failed test may have left open (they would hold the apps' close). */
    const openRequests: { destroy(): void }[] = [];
    afterAll(async () => {
      for (const request of openRequests) request.destroy();
      await second?.app.close();
      await second?.database.close();
    });

    const headers = () => ({
      'tus-resumable': '1.0.0',
      cookie: manager.cookie,
      'x-csrf-token': manager.csrf,
    });

    it('a PATCH on A while B writes the upload: B is cancelled, A waits for the lock, then tus 409', async () => {
      const element = await buildDatabaseElement(context.db, {
        database_id: tenants.a.database.id,
      });
      const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3 * megabyte - 9)]);
      const created = await fetch(`${base.a}/api/uploads`, {
        method: 'POST',
        headers: {
          ...headers(),
          'upload-length': String(file.length),
          'upload-metadata': encodeMetadata({
            purpose: 'database-element-attachment',
            owner: element.id,
            filename: 'Fiche.pdf',
            filetype: 'application/pdf',
          }),
        },
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      const id = location.split('/').pop()!;

      // On B: a PATCH that sends 1 MB, then stalls (a client on a dying network).
      const stalled = httpRequest(`${base.b}${location}`, {
        method: 'PATCH',
        agent: false,
        headers: {
          ...headers(),
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(file.length),
        },
      });
      openRequests.push(stalled);
      const stalledAnswer = new Promise<{ status: number; offset: string | null; at: number }>(
        (resolve, reject) => {
          stalled.on('response', (response) => {
            response.resume();
            resolve({
              status: response.statusCode ?? 0,
              offset: (response.headers['upload-offset'] as string | undefined) ?? null,
              at: Date.now(),
            });
          });
          stalled.on('error', reject);
        },
      );
      stalled.write(file.subarray(0, megabyte));
      // B holds the upload's lock in PostgreSQL (the local driver's datastore key is the id).
      await waitFor(async () => (await holdersOf(id)) === 1);
      await new Promise((resolve) => setTimeout(resolve, 200));

      // On A: the same upload from offset 0 (the client retried elsewhere).
      const started = Date.now();
      const patch = await fetch(`${base.a}${location}`, {
        method: 'PATCH',
        headers: {
          ...headers(),
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(file),
      });
      const answeredAt = Date.now();
      // B was asked to let go: its request ends after tus' drain time (3 s), answering what it
      // had written; only then did A get the lock, and find the upload no longer at 0.
      const fromB = await stalledAnswer;
      stalled.destroy();
      expect(fromB.status).toBe(204);
      const written = Number(fromB.offset);
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThanOrEqual(megabyte);
      expect(fromB.at).toBeLessThanOrEqual(answeredAt);
      expect(answeredAt - started).toBeGreaterThanOrEqual(2500);
      expect(patch.status).toBe(409);

      // The client asks the offset (on either instance) and goes on from there.
      const head = await fetch(`${base.b}${location}`, { method: 'HEAD', headers: headers() });
      expect(head.headers.get('upload-offset')).toBe(String(written));
      const rest = await fetch(`${base.a}${location}`, {
        method: 'PATCH',
        headers: {
          ...headers(),
          'upload-offset': String(written),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(file.subarray(written)),
      });
      expect(rest.status).toBe(204);
      const status = await fetch(`${base.b}${location}`, { headers: headers() });
      expect(await status.json()).toMatchObject({ status: 'completed', size: file.length });
      // Every request let go of its lock.
      expect(await holdersOf(id)).toBe(0);
    }, 30_000);
  });
});
