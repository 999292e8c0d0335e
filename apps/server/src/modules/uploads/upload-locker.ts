import { createHash } from 'node:crypto';
import { ERRORS, type Lock, type Locker, MemoryLocker, type RequestRelease } from '@tus/server';
import pg from 'pg';
import type { DatabaseHandle } from '../../db/client';

/*
 * The tus server's lock on an upload (one request at a time writes it, reads its offset or
 * removes it), shared by every instance behind the load balancer: a PostgreSQL advisory lock
 * (docs/decisions.md "Issue 17: a shared tus locker").
 *
 * - The lock is `pg_try_advisory_lock(<64-bit hash of the upload's datastore key>)`, taken on a
 *   connection of the locker's own small pool and kept by that connection until unlock: the
 *   session holds it, so a crashed instance or a lost connection releases it by itself.
 * - A request that finds the lock taken asks its holder to let go (tus' requestRelease: the
 *   holder's request is cancelled after the server's lockDrainTimeout, as with MemoryLocker) by
 *   NOTIFY on `uploadLockReleaseChannel` with the key; every instance LISTENs and calls the
 *   requestRelease of the holders it has. It tries again with a short backoff until the
 *   acquire timeout (tus' ERR_LOCK_TIMEOUT, 500) or until its own request is aborted.
 * - PGlite is one process: MemoryLocker.
 */

/** The channel on which a waiting request asks the holder of an upload's lock to release it. */
export const uploadLockReleaseChannel = 'mise_upload_lock_release';

/** As MemoryLocker: how long a request waits for an upload's lock. */
export const defaultLockAcquireTimeoutMs = 30_000;

/** The advisory lock key of a datastore key: the first 64 bits of its SHA-256, signed. */
export function uploadLockKey(id: string): bigint {
  return createHash('sha256').update(`tus-upload:${id}`).digest().readBigInt64BE(0);
}

type Logger = { warn(object: object, message: string): void };

export type UploadLocker = Locker & {
  /** Stops listening and closes the lock connections (once the server has no request left). */
  close(): Promise<void>;
};

export type PostgresLockerOptions = {
  /** How long lock() waits before failing with ERR_LOCK_TIMEOUT (default 30 s, as tus). */
  acquireTimeoutMs?: number;
  /** The longest pause between two attempts (they start at 10 ms and double). */
  maxPollMs?: number;
  /** How often a waiting request asks the holder again (a new holder may have come). */
  askAgainMs?: number;
  /** Connections for locks held or awaited at once on this instance (default the pool's size). */
  maxConnections?: number;
  log?: Logger;
};

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** The tus locker of an app: advisory locks on PostgreSQL, MemoryLocker on PGlite. */
export function createUploadLocker(database: DatabaseHandle, log?: Logger): UploadLocker {
  if (database.pool) return createPostgresLocker(database.pool, { log });
  const locker = new MemoryLocker({ acquireLockTimeout: defaultLockAcquireTimeoutMs });
  return { newLock: (id) => locker.newLock(id), close: async () => {} };
}

export function createPostgresLocker(
  pool: pg.Pool,
  options: PostgresLockerOptions = {},
): UploadLocker {
  const acquireTimeoutMs = options.acquireTimeoutMs ?? defaultLockAcquireTimeoutMs;
  const maxPollMs = options.maxPollMs ?? 200;
  const askAgainMs = options.askAgainMs ?? 1000;
  const connection = { ...pool.options, application_name: 'mise-upload-locks' };
  const lockPool = new pg.Pool({
    ...connection,
    max: options.maxConnections ?? pool.options.max ?? 10,
    idleTimeoutMillis: 10_000,
    // Waiting for a free connection counts in the acquire timeout.
    connectionTimeoutMillis: acquireTimeoutMs,
  });
  lockPool.on('error', () => {
    // An idle connection was lost; the pool opens another on next use.
  });

  /** The requestRelease of each lock this instance holds, by key. */
  const holders = new Map<string, Set<RequestRelease>>();
  let listening: Promise<void> | null = null;
  let listener: pg.Client | null = null;
  let isClosed = false;

  const askHolders = (key: string) => {
    for (const requestRelease of holders.get(key) ?? []) {
      Promise.resolve()
        .then(requestRelease)
        .catch(() => {});
    }
  };

  /** The LISTEN connection, opened on first use and again after a loss. */
  function listen(): Promise<void> {
    listening ??= (async () => {
      const client = new pg.Client(connection);
      client.on('notification', (message) => {
        if (message.channel === uploadLockReleaseChannel && message.payload) {
          askHolders(message.payload);
        }
      });
      client.on('error', (error) => {
        options.log?.warn({ err: error }, 'upload lock listener lost; reconnecting');
        listening = null;
        listener = null;
        client.end().catch(() => {});
        if (!isClosed) setTimeout(() => void listen().catch(() => {}), 1000).unref();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${uploadLockReleaseChannel}`);
      } catch (error) {
        client.end().catch(() => {});
        throw error;
      }
      listener = client;
    })().catch((error: unknown) => {
      listening = null;
      throw error;
    });
    return listening;
  }

  class PostgresLock implements Lock {
    private held: {
      client: pg.PoolClient;
      requestRelease: RequestRelease;
      onError: () => void;
    } | null = null;
    private readonly key: string;

    constructor(id: string) {
      this.key = uploadLockKey(id).toString();
    }

    async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
      if (this.held) throw new Error('This lock is already held.');
      const deadline = Date.now() + acquireTimeoutMs;
      // A holder must hear the requests to let go; without the listener the lock still excludes.
      await listen().catch((error: unknown) => {
        options.log?.warn({ err: error }, 'upload lock listener unavailable');
      });
      let client: pg.PoolClient;
      try {
        client = await lockPool.connect();
      } catch (error) {
        if (error instanceof Error && /timeout/i.test(error.message)) throw ERRORS.ERR_LOCK_TIMEOUT;
        throw error;
      }
      // A connection lost while the lock is held frees the lock: its request is asked to stop.
      let isBroken = false;
      const onError = () => {
        isBroken = true;
        if (this.held?.client === client)
          Promise.resolve()
            .then(requestRelease)
            .catch(() => {});
      };
      client.on('error', onError);
      const giveBack = (error?: Error) => {
        client.removeListener('error', onError);
        client.release(error ?? isBroken);
      };
      try {
        let delay = 10;
        let askedAt = 0;
        for (;;) {
          if (stopSignal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
          const { rows } = await client.query<{ locked: boolean }>(
            'select pg_try_advisory_lock($1::bigint) as locked',
            [this.key],
          );
          if (rows[0]?.locked) {
            if (stopSignal.aborted) {
              await client.query('select pg_advisory_unlock($1::bigint)', [this.key]);
              throw ERRORS.ERR_LOCK_TIMEOUT;
            }
            // From now on the connection belongs to the lock until unlock().
            this.held = { client, requestRelease, onError };
            const set = holders.get(this.key) ?? new Set();
            set.add(requestRelease);
            holders.set(this.key, set);
            return;
          }
          const now = Date.now();
          if (now >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          if (now - askedAt >= askAgainMs) {
            // Every instance hears it (this one too): the holder's request is cancelled.
            await client.query('select pg_notify($1, $2)', [uploadLockReleaseChannel, this.key]);
            askedAt = now;
          }
          await pause(Math.min(delay, deadline - now), stopSignal);
          delay = Math.min(delay * 2, maxPollMs);
        }
      } catch (error) {
        giveBack(error instanceof Error ? error : undefined);
        throw error;
      }
    }

    async unlock(): Promise<void> {
      const held = this.held;
      if (!held) throw new Error('Releasing an unlocked lock!');
      this.held = null;
      const set = holders.get(this.key);
      set?.delete(held.requestRelease);
      if (set?.size === 0) holders.delete(this.key);
      const { client, onError } = held;
      let failure: Error | undefined;
      try {
        await client.query('select pg_advisory_unlock($1::bigint)', [this.key]);
      } catch (error) {
        // The connection is dropped: its session ends, and its advisory locks with it.
        failure = error instanceof Error ? error : new Error(String(error));
      }
      client.removeListener('error', onError);
      client.release(failure);
    }
  }

  return {
    newLock: (id) => new PostgresLock(id),
    async close() {
      isClosed = true;
      holders.clear();
      await listener?.end().catch(() => {});
      listener = null;
      await lockPool.end().catch(() => {});
    },
  };
}
