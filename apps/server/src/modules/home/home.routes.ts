import type { ServerResponse } from 'node:http';
import { idSchema } from '@mise/shared/auth/schemas';
import {
  bestStoresQuerySchema,
  bestStoresResponseSchema,
  storeHomeSchema,
} from '@mise/shared/history/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { storeEventName } from '../../platform/events';
import { scopeOf } from '../../platform/scope';
import { plainJsonSerializer } from '../elements/plain-serializer';
import { findStoreInScope, registerStoreScoreReader } from '../stores/stores.service';
import * as homeService from './home.service';

/** A comment line every 25 s keeps proxies from closing an idle stream. */
const heartbeatMs = 25_000;

/** The home dashboard (spec 000 §2) and its live updates. */
export const homeRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, database, events, now },
) => {
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);
  const params = z.strictObject({ storeId: idSchema });
  // The store API's `score` is the home's (stores does not depend on home: home tells it).
  registerStoreScoreReader((database, storeId) =>
    homeService.storeScoreOf(database, storeId, now()),
  );
  /** Open streams, ended when the server closes (they would hold it open). */
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    streams.clear();
  });

  app.get(
    '/stores/:storeId/home',
    {
      schema: { tags: ['home'], params, response: { 200: storeHomeSchema } },
      // Built in the schema's shape (home.service.ts): no second pass through zod.
      serializerCompiler: plainJsonSerializer,
    },
    async (request) =>
      homeService.storeHome(database, await scopeFor(request), request.params.storeId, now()),
  );

  app.get(
    '/home/best-stores',
    {
      schema: {
        tags: ['home'],
        querystring: bestStoresQuerySchema,
        response: { 200: bestStoresResponseSchema },
      },
    },
    async (request) => ({
      items: await homeService.bestStores(
        db,
        await scopeFor(request),
        request.query.databaseId,
        now(),
      ),
    }),
  );

  /**
   * Server-sent events of one store: a "task" event each time a tablet completes, corrects or
   * postpones one of its tasks (fanned out across instances by LISTEN/NOTIFY).
   */
  app.get(
    '/stores/:storeId/events',
    { schema: { tags: ['home'], params } },
    async (request, reply) => {
      const store = await findStoreInScope(db, await scopeFor(request), request.params.storeId);
      const raw = reply.raw;
      let unsubscribe: (() => void) | null = null;
      let heartbeat: NodeJS.Timeout | null = null;
      const stop = () => {
        streams.delete(raw);
        unsubscribe?.();
        unsubscribe = null;
        if (heartbeat) clearInterval(heartbeat);
      };
      request.raw.on('close', stop);
      unsubscribe = await events.subscribe(store.id, (event) => {
        raw.write(`event: ${storeEventName(event)}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      if (request.raw.destroyed) stop();
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      streams.add(raw);
      raw.write('retry: 3000\n: connected\n\n');
      heartbeat = setInterval(() => raw.write(': ping\n\n'), heartbeatMs);
      heartbeat.unref();
    },
  );
};
