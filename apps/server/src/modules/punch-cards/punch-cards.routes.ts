import { idSchema } from '@mise/shared/auth/schemas';
import {
  devicePunchBodySchema,
  devicePunchResponseSchema,
  lastPunchResponseSchema,
  punchCardsPdfBodySchema,
  punchCardsResponseSchema,
  punchRangeQuerySchema,
  savePunchCardsBodySchema,
  scheduleQuerySchema,
  scheduleResponseSchema,
  selfieUploadResponseSchema,
} from '@mise/shared/people/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { renderPunchCardsPdf } from '../../platform/pdf/punch-cards';
import { scopeOf } from '../../platform/scope';
import { requireActor } from '../device/device.routes';
import { sentAtOf } from '../device/sent-at';
import { readImageUpload } from '../files/uploads';
import * as punchCardsService from './punch-cards.service';

/** Exports are heavier than reads: at most this many a minute per address. */
const exportsPerMinute = 20;

/**
 * Punch cards (spec 000 §2 Punch cards and the home's employee schedule, §4, §5, §7, §9):
 * the back-office table, its save and PDF, and the tablet's selfies and clocking.
 */
export const punchCardsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, storage }) => {
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);
  const params = z.strictObject({ storeId: idSchema });
  const tags = ['punch-cards'];

  app.get(
    '/stores/:storeId/punchCards',
    {
      schema: {
        tags,
        params,
        querystring: punchRangeQuerySchema,
        response: { 200: punchCardsResponseSchema },
      },
    },
    async (request) =>
      punchCardsService.getPunchCards(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.query,
      ),
  );

  app.put(
    '/stores/:storeId/punchCards',
    {
      schema: {
        tags,
        params,
        body: savePunchCardsBodySchema,
        response: { 200: punchCardsResponseSchema },
      },
      // 20 000 entries of the contract's maximum do not fit in the default 1 MB.
      bodyLimit: 8 * 1024 * 1024,
    },
    async (request) =>
      punchCardsService.savePunchCards(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      ),
  );

  app.post(
    '/pdf/punch_cards',
    {
      schema: { tags, body: punchCardsPdfBodySchema },
      config: { rateLimit: { max: exportsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { storeId, start, end, lang } = request.body;
      const cards = await punchCardsService.getPunchCards(db, await scopeFor(request), storeId, {
        start,
        end,
      });
      const pdf = await renderPunchCardsPdf(cards, {
        lang: lang ?? 'en',
        generatedAt: new Date(),
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="punch_cards.pdf"')
        .header('content-length', pdf.length)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    '/stores/:storeId/schedule',
    {
      schema: {
        tags,
        params,
        querystring: scheduleQuerySchema,
        response: { 200: scheduleResponseSchema },
      },
    },
    async (request) =>
      punchCardsService.getSchedule(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.query.day,
      ),
  );

  /** A selfie taken when clocking: PNG, JPEG or WebP (5 MB), under a key the server builds. */
  app.post(
    '/device/selfies',
    { schema: { tags: ['device'], response: { 200: selfieUploadResponseSchema } } },
    async (request) => {
      const actor = await requireActor(db, request);
      return punchCardsService.saveSelfie(
        db,
        storage,
        actor.storeId,
        await readImageUpload(request),
      );
    },
  );

  /** The identified employee's latest entry: the tablet proposes the next one from it. */
  app.get(
    '/device/punches/last',
    { schema: { tags: ['device'], response: { 200: lastPunchResponseSchema } } },
    async (request, reply) => {
      const actor = await requireActor(db, request);
      reply.header('cache-control', 'no-store');
      return { entry: await punchCardsService.lastEntry(db, actor) };
    },
  );

  /** The identified employee clocks in or out on the device's store (idempotent by key). */
  app.post(
    '/device/punches',
    {
      schema: {
        tags: ['device'],
        body: devicePunchBodySchema,
        response: { 200: devicePunchResponseSchema },
      },
    },
    async (request) => ({
      entry: await punchCardsService.clockEmployee(
        db,
        await requireActor(db, request),
        request.body,
        new Date(),
        sentAtOf(request.headers['x-sent-at']),
      ),
    }),
  );
};
