import { randomUUID } from 'node:crypto';
import { outputLevels } from '@mise/shared/operations/schemas';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client';
import { serverInstanceReplies } from '../../db/schema';
import { AppError } from '../../platform/errors';

/*
 * Questions one server instance asks another (issue 20: the admin reads the output of any
 * instance, whichever instance the load balancer gave the request to), over PostgreSQL
 * LISTEN/NOTIFY:
 * 1. the asker NOTIFYs `mise_instance_ask` with {to, replyId, question};
 * 2. every instance LISTENs there; the one named `to` computes its answer, writes it in
 *    server_instance_replies (a NOTIFY payload is limited to 8,000 bytes, an answer is larger)
 *    and NOTIFYs `mise_instance_reply` with the reply id, in one statement;
 * 3. the asker, LISTENing on `mise_instance_reply`, takes the row (DELETE ... RETURNING) and
 *    answers its request; without a reply in `timeoutMs` (2 s) it answers 503
 *    'profiling/instance-unreachable'. Replies nobody took are pruned after a minute.
 * On PGlite the same NOTIFYs reach PGlite's in-process listeners (one process, usually one
 * instance, which answers itself without the relay).
 */

export const instanceAskChannel = 'mise_instance_ask';
export const instanceReplyChannel = 'mise_instance_reply';
export const defaultRelayTimeoutMs = 2_000;

export const instanceQuestionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('output'),
    after: z.number().int().min(0).optional(),
    level: z.enum(outputLevels).optional(),
  }),
]);
export type InstanceQuestion = z.infer<typeof instanceQuestionSchema>;

const askSchema = z.object({ to: z.uuid(), replyId: z.uuid(), question: instanceQuestionSchema });

type Logger = { warn(object: object, message: string): void };

export type InstanceRelay = {
  /** LISTENs on both channels (once; again after a lost connection). */
  listen(): Promise<void>;
  /** Asks another instance; rejects with 'profiling/instance-unreachable' after the timeout. */
  ask(to: string, question: InstanceQuestion): Promise<unknown>;
  close(): Promise<void>;
};

export function createInstanceRelay(options: {
  database: DatabaseHandle;
  instanceId: string;
  answer: (question: InstanceQuestion) => unknown;
  timeoutMs?: number;
  log?: Logger;
}): InstanceRelay {
  const { database, instanceId, log } = options;
  const { db } = database;
  const timeoutMs = options.timeoutMs ?? defaultRelayTimeoutMs;
  const pending = new Map<
    string,
    { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  >();
  let listening: Promise<void> | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  let isClosed = false;

  async function handleAsk(payload: string | undefined) {
    if (!payload) return;
    let ask: z.infer<typeof askSchema>;
    try {
      ask = askSchema.parse(JSON.parse(payload));
    } catch {
      log?.warn({}, 'unreadable instance question');
      return;
    }
    if (ask.to !== instanceId || isClosed) return;
    try {
      const body = JSON.stringify((await options.answer(ask.question)) ?? null);
      await db.execute(sql`
        with answered as (
          insert into ${serverInstanceReplies} (id, instance_id, body)
          values (${ask.replyId}, ${instanceId}, ${body}::jsonb)
          returning id
        )
        select pg_notify(${instanceReplyChannel}, id::text) from answered`);
    } catch (error) {
      log?.warn({ err: error }, 'instance question not answered');
    }
  }

  async function handleReply(payload: string | undefined) {
    const waiter = payload ? pending.get(payload) : undefined;
    if (!payload || !waiter) return;
    pending.delete(payload);
    try {
      const result = (await db.execute(sql`
        delete from ${serverInstanceReplies} where id = ${payload} returning body`)) as unknown as {
        rows: { body: unknown }[];
      };
      const row = result.rows[0];
      if (row) waiter.resolve(row.body);
      else waiter.reject(new AppError('profiling/instance-unreachable'));
    } catch (error) {
      waiter.reject(error);
    }
  }

  const dispatch = (channel: string, payload: string | undefined) => {
    if (channel === instanceAskChannel) void handleAsk(payload);
    else if (channel === instanceReplyChannel) void handleReply(payload);
  };

  async function listenOnPostgres(pool: pg.Pool): Promise<void> {
    const client = new pg.Client({ ...pool.options, application_name: 'mise-instance-relay' });
    client.on('notification', (message) => dispatch(message.channel, message.payload));
    client.on('error', (error) => {
      log?.warn({ err: error }, 'instance relay connection lost; reconnecting');
      listening = null;
      stopListening = null;
      client.end().catch(() => {});
      if (!isClosed) setTimeout(() => void listen().catch(() => {}), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${instanceAskChannel}`);
      await client.query(`LISTEN ${instanceReplyChannel}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    stopListening = () => client.end();
  }

  async function listenOnPglite(): Promise<void> {
    const pglite = database.pglite!;
    const stopAsk = await pglite.listen(instanceAskChannel, (payload) =>
      dispatch(instanceAskChannel, payload),
    );
    const stopReply = await pglite.listen(instanceReplyChannel, (payload) =>
      dispatch(instanceReplyChannel, payload),
    );
    stopListening = async () => {
      await stopAsk();
      await stopReply();
    };
  }

  function listen(): Promise<void> {
    if (isClosed) return Promise.resolve();
    listening ??= (database.pool ? listenOnPostgres(database.pool) : listenOnPglite()).catch(
      (error: unknown) => {
        listening = null;
        throw error;
      },
    );
    return listening;
  }

  return {
    listen,
    async ask(to, question) {
      if (isClosed) throw new AppError('profiling/instance-unreachable');
      try {
        await listen();
      } catch (error) {
        log?.warn({ err: error }, 'instance relay unavailable');
        throw new AppError('profiling/instance-unreachable');
      }
      const replyId = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const answered = new Promise<unknown>((resolve, reject) => {
        pending.set(replyId, { resolve, reject });
        timer = setTimeout(() => {
          pending.delete(replyId);
          reject(new AppError('profiling/instance-unreachable'));
        }, timeoutMs);
        timer.unref();
      });
      // Settled after the NOTIFY below at the earliest; a timeout meanwhile is not unhandled.
      answered.catch(() => {});
      try {
        await db.execute(
          sql`select pg_notify(${instanceAskChannel}, ${JSON.stringify({ to, replyId, question })})`,
        );
        return await answered;
      } finally {
        clearTimeout(timer);
        pending.delete(replyId);
      }
    },
    async close() {
      isClosed = true;
      for (const waiter of pending.values()) {
        waiter.reject(new AppError('profiling/instance-unreachable'));
      }
      pending.clear();
      await listening?.catch(() => {});
      await stopListening?.().catch(() => {});
      stopListening = null;
      listening = null;
    },
  };
}
