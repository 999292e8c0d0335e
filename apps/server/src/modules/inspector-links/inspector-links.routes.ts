import { taskDetailResponseSchema } from '@mise/shared/history/schemas';
import {
  createInspectorLinkBodySchema,
  createInspectorLinkResponseSchema,
  inspectionHistoryQuerySchema,
  inspectionHistoryResponseSchema,
  inspectionResponseSchema,
  inspectionTaskParamsSchema,
  inspectorAuthScheme,
  inspectorLinkItemParamsSchema,
  inspectorLinkListResponseSchema,
  inspectorLinkParamsSchema,
  inspectorLinkResponseSchema,
} from '@mise/shared/records/links';
import { inspectorPackSchema } from '@mise/shared/records/pack';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import {
  currentInspectionPack,
  inspectionPackFile,
  requestInspectionPack,
} from './inspection-pack';
import * as links from './inspector-links.service';

const tags = ['inspector-links'];

/** Requests per minute and address on the inspector's routes (a day, a task at a time). */
const inspectorReadsPerMinute = 120;
/** Pack requests per minute and address: each is a heavy job. */
const inspectorPacksPerMinute = 5;

const packResponseSchema = z.object({ pack: inspectorPackSchema.nullable() });

/**
 * Read-only inspector links (issue 21): the owner's side under /stores/:storeId, the
 * inspector's under /inspect, authenticated by the link's token in `Authorization: Inspector`
 * (never a URL: the web page keeps it in the fragment). Contract in
 * packages/shared/src/records/links.ts.
 */
export const inspectorLinksRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config } = deps;
  const scopeFor = (request: FastifyRequest) => scopeOf(request, db, requireAuth(request).user);

  /* ---------- The owner's side ---------- */

  app.post(
    '/stores/:storeId/inspector-links',
    {
      schema: {
        tags,
        params: inspectorLinkParamsSchema,
        body: createInspectorLinkBodySchema,
        response: { 201: createInspectorLinkResponseSchema },
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const created = await links.createLink(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body,
        { publicUrl: config.PUBLIC_URL, now: deps.now() },
      );
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.get(
    '/stores/:storeId/inspector-links',
    {
      schema: {
        tags,
        params: inspectorLinkParamsSchema,
        response: { 200: inspectorLinkListResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        items: await links.listLinks(
          db,
          await scopeFor(request),
          request.params.storeId,
          deps.now(),
        ),
      };
    },
  );

  app.delete(
    '/stores/:storeId/inspector-links/:id',
    {
      schema: {
        tags,
        params: inspectorLinkItemParamsSchema,
        response: { 200: inspectorLinkResponseSchema },
      },
    },
    async (request) => ({
      link: await links.revokeLink(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.params.id,
        deps.now(),
      ),
    }),
  );

  /* ---------- The inspector's side ---------- */

  const openLinks = new WeakMap<FastifyRequest, links.LinkRow>();

  /**
   * Every inspector route: the link the token opens (else 401 'inspector/link-invalid', the
   * same answer for an unknown, expired or revoked link), and the use logged.
   */
  const authenticateInspector = async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const prefix = `${inspectorAuthScheme} `;
    const token = header.startsWith(prefix) ? header.slice(prefix.length).trim() : '';
    const now = deps.now();
    const link = token ? await links.findOpenLink(db, token, now) : null;
    if (!link) throw new AppError('inspector/link-invalid');
    openLinks.set(request, link);
    await links.recordUse(db, link.id, {
      action: `${request.method} ${request.routeOptions.url ?? ''}`,
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
      at: now,
    });
  };
  const linkOf = (request: FastifyRequest) => {
    const link = openLinks.get(request);
    if (!link) throw new AppError('inspector/link-invalid');
    return link;
  };
  const inspectorRoute = (max = inspectorReadsPerMinute) => ({
    onRequest: authenticateInspector,
    config: { rateLimit: { max, timeWindow: '1 minute' } },
  });
  const inspectorTags = ['inspector-links'];
  const packParams = z.strictObject({ id: inspectionTaskParamsSchema.shape.id });

  app.get(
    '/inspect',
    {
      ...inspectorRoute(),
      schema: { tags: inspectorTags, response: { 200: inspectionResponseSchema } },
    },
    async (request, reply) => {
      const link = linkOf(request);
      const store = await links.inspectionStore(db, link);
      reply.header('cache-control', 'no-store');
      return {
        inspection: {
          label: link.label,
          store: {
            name: store.name,
            address: store.address,
            city: store.city,
            timezone_name: store.timezone_name,
            hidden_modules: store.hidden_modules,
          },
          period_start: link.period_start,
          period_end: link.period_end,
          expires_at: link.expires_at.toISOString(),
          is_pack_available: true,
        },
      };
    },
  );

  app.get(
    '/inspect/history',
    {
      ...inspectorRoute(),
      schema: {
        tags: inspectorTags,
        querystring: inspectionHistoryQuerySchema,
        response: { 200: inspectionHistoryResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return links.inspectionHistory(db, linkOf(request), request.query, deps.now());
    },
  );

  app.get(
    '/inspect/tasks/:id',
    {
      ...inspectorRoute(),
      schema: {
        tags: inspectorTags,
        params: inspectionTaskParamsSchema,
        response: { 200: taskDetailResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        task: await links.inspectionTask(db, linkOf(request), request.params.id, deps.now()),
      };
    },
  );

  app.get(
    '/inspect/pack',
    {
      ...inspectorRoute(),
      schema: { tags: inspectorTags, response: { 200: packResponseSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { pack: await currentInspectionPack(deps, linkOf(request)) };
    },
  );

  app.post(
    '/inspect/pack',
    {
      ...inspectorRoute(inspectorPacksPerMinute),
      schema: { tags: inspectorTags, response: { 200: packResponseSchema } },
    },
    async (request) => ({ pack: await requestInspectionPack(deps, linkOf(request), app.log) }),
  );

  app.get(
    '/inspect/packs/:id/download',
    {
      ...inspectorRoute(),
      schema: { tags: inspectorTags, params: packParams },
    },
    async (request, reply) => {
      const { file, name } = await inspectionPackFile(deps, linkOf(request), request.params.id);
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
