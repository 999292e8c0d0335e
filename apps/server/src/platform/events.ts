import type { TaskEvent } from '@mise/shared/history/schemas';
import type { AlertEvent } from '@mise/shared/probes/alerts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DatabaseHandle } from '../db/client';

/*
 * Live updates across server instances (ARCHITECTURE.md): a change is published with
 * PostgreSQL NOTIFY on one channel; every instance LISTENs (one connection, opened when its
 * first browser subscribes) and hands the event to its own subscribers of that store, which
 * stream it as server-sent events. On PGlite (one process) the same NOTIFY reaches PGlite's
 * own listener.
 */

export const eventsChannel = 'mise_events';

/** A tablet's task change, or a probe alert's opening, escalation, resolution, acknowledgement. */
export type StoreEvent = TaskEvent | AlertEvent;

export type StoreEventListener = (event: StoreEvent) => void;

/** The server-sent event name of a store event. */
export function storeEventName(event: StoreEvent): 'task' | 'alert' {
  return 'task_id' in event ? 'task' : 'alert';
}

export type EventBus = {
  /** NOTIFY every instance; resolves once PostgreSQL took it. */
  publish(event: StoreEvent): Promise<void>;
  /** Listen to one store's events; returns the unsubscribe function. */
  subscribe(storeId: string, listener: StoreEventListener): Promise<() => void>;
  /** Subscribers on this instance (for tests and metrics). */
  subscriberCount(): number;
  close(): Promise<void>;
};

type Logger = { warn(object: unknown, message?: string): void };

export function createEventBus(database: DatabaseHandle, logger?: Logger): EventBus {
  const listeners = new Map<string, Set<StoreEventListener>>();
  let listening: Promise<void> | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  let isClosed = false;

  const dispatch = (payload: string | undefined) => {
    if (!payload) return;
    try {
      const event = JSON.parse(payload) as StoreEvent;
      for (const listener of listeners.get(event.store_id) ?? []) listener(event);
    } catch (error) {
      logger?.warn({ err: error }, 'unreadable live event');
    }
  };

  async function listenOnPostgres(pool: pg.Pool): Promise<void> {
    const connect = async (): Promise<void> => {
      const client = new pg.Client(pool.options);
      client.on('notification', (message) => {
        if (message.channel === eventsChannel) dispatch(message.payload);
      });
      client.on('error', (error) => {
        logger?.warn({ err: error }, 'live events connection lost; reconnecting');
        stopListening = null;
        client.end().catch(() => {});
        if (!isClosed) setTimeout(() => void connect().catch(() => {}), 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${eventsChannel}`);
      stopListening = () => client.end();
    };
    await connect();
  }

  async function startListening(): Promise<void> {
    if (database.pool) return listenOnPostgres(database.pool);
    if (database.pglite) {
      const unsubscribe = await database.pglite.listen(eventsChannel, dispatch);
      stopListening = unsubscribe;
    }
  }

  return {
    async publish(event) {
      await database.db.execute(sql`select pg_notify(${eventsChannel}, ${JSON.stringify(event)})`);
    },
    async subscribe(storeId, listener) {
      listening ??= startListening().catch((error) => {
        listening = null;
        throw error;
      });
      await listening;
      const set = listeners.get(storeId) ?? new Set();
      set.add(listener);
      listeners.set(storeId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(storeId);
      };
    },
    subscriberCount() {
      let total = 0;
      for (const set of listeners.values()) total += set.size;
      return total;
    },
    async close() {
      isClosed = true;
      listeners.clear();
      await stopListening?.().catch(() => {});
      stopListening = null;
    },
  };
}
