import {
  createInspectorPackBodySchema,
  inspectorPackItemParamsSchema,
  inspectorPackListResponseSchema,
  inspectorPackParamsSchema,
  inspectorPackResponseSchema,
} from '@mise/shared/records/pack';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { fileSlug } from './build-pack';
import { packRunnerOf } from './inspector-pack.jobs';
import * as packs from './inspector-pack.service';

/** Packs asked for per minute and address at most: each is a heavy job. */
const packsPerMinute = 10;

/** The inspector pack of a store's history (issue 21): ask, follow, list, download. */
export const inspectorPackRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, storage } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);
  const runner = packRunnerOf(deps, app.log);
  app.addHook('onClose', async () => {
    await runner.close();
  });
  const tags = ['inspector-pack'];

  app.post(
    '/stores/:storeId/inspector-packs',
    {
      schema: {
        tags,
        params: inspectorPackParamsSchema,
        body: createInspectorPackBodySchema,
        response: { 201: inspectorPackResponseSchema },
      },
      config: { rateLimit: { max: packsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const pack = await packs.requestPack(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      );
      // Built in the background, here at once; the recurring job covers a restart.
      void runner.kick();
      return reply.code(201).send({ pack });
    },
  );

  app.get(
    '/stores/:storeId/inspector-packs',
    {
      schema: {
        tags,
        params: inspectorPackParamsSchema,
        response: { 200: inspectorPackListResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        items: await packs.listPacks(db, await scopeFor(request), request.params.storeId),
      };
    },
  );

  app.get(
    '/stores/:storeId/inspector-packs/:id',
    {
      schema: {
        tags,
        params: inspectorPackItemParamsSchema,
        response: { 200: inspectorPackResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        pack: await packs.getPack(
          db,
          await scopeFor(request),
          request.params.storeId,
          request.params.id,
        ),
      };
    },
  );

  app.get(
    '/stores/:storeId/inspector-packs/:id/download',
    { schema: { tags, params: inspectorPackItemParamsSchema } },
    async (request, reply) => {
      const { pack, key, storeName } = await packs.packDownload(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.params.id,
      );
      const file = await storage.get(key);
      if (!file) throw notFound();
      const name = `inspector-pack-${fileSlug(storeName)}-${pack.period_start}-${pack.period_end}.zip`;
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
};
