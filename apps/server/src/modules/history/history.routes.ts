import { idSchema } from '@mise/shared/auth/schemas';
import {
  archiveBodySchema,
  archiveResponseSchema,
  type HistoryResponse,
  historyExportBodySchema,
  historyProbesQuerySchema,
  historyProbesResponseSchema,
  historyQuerySchema,
  historyResponseSchema,
  historyStoresQuerySchema,
  historyStoresResponseSchema,
  taskDetailResponseSchema,
} from '@mise/shared/history/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { renderTasksPdf, taskExportTexts, zonedClock } from '../../platform/pdf/tasks';
import { scopeOf } from '../../platform/scope';
import * as historyService from './history.service';
import { renderTasksCsv } from './history-csv';
import { searchHistoryJson } from './history-page';
import { loadResultThumbnails } from './history-pictures';
import { findHistoryProbes, probeRecordsOfStore } from './history-probes';
import { probeExportTables } from './history-probes-export';

/** Exports are heavier than reads: at most this many a minute per address. */
const exportsPerMinute = 20;

/** File names carry only safe characters (the store name may hold anything). */
const fileSlug = (value: string) =>
  value
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'store';

/** History, task detail and the history exports (spec 002 §2, §5, §7). */
export const historyRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, database, storage },
) => {
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/history/stores',
    {
      schema: {
        tags: ['history'],
        querystring: historyStoresQuerySchema,
        response: { 200: historyStoresResponseSchema },
      },
    },
    async (request) => ({
      items: await historyService.listHistoryStores(
        db,
        await scopeFor(request),
        request.query.search,
      ),
    }),
  );

  app.get(
    '/stores/:storeId/history',
    {
      schema: {
        tags: ['history'],
        params: z.strictObject({ storeId: idSchema }),
        querystring: historyQuerySchema,
        response: { 200: historyResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await searchHistoryJson(
        database,
        await scopeFor(request),
        request.params.storeId,
        request.query,
      );
      // The schema documents the answer; the service writes its JSON bytes (history-page.ts),
      // which Fastify sends as they are (no serializer runs for a Buffer), hence the cast.
      return reply.type('application/json; charset=utf-8').send(json as unknown as HistoryResponse);
    },
  );

  app.get(
    '/stores/:storeId/history/probes',
    {
      schema: {
        tags: ['history'],
        params: z.strictObject({ storeId: idSchema }),
        querystring: historyProbesQuerySchema,
        response: { 200: historyProbesResponseSchema },
      },
    },
    async (request) =>
      findHistoryProbes(db, await scopeFor(request), request.params.storeId, request.query),
  );

  app.get(
    '/tasks/:id',
    {
      schema: {
        tags: ['history'],
        params: z.strictObject({ id: idSchema }),
        response: { 200: taskDetailResponseSchema },
      },
    },
    async (request) => ({
      task: await historyService.findTaskDetail(db, await scopeFor(request), request.params.id),
    }),
  );

  const exportInput = async (
    request: Parameters<typeof requireAuth>[0],
    body: z.infer<typeof historyExportBodySchema>,
  ) => {
    const now = new Date();
    const scope = await scopeFor(request);
    const content = await historyService.historyExport(db, scope, body, now);
    // The probe records of the period (issue 15) follow the tasks, whatever the filter.
    const probes = await probeRecordsOfStore(db, scope, content.store, body.start, body.end);
    const lang = body.lang ?? 'en';
    return {
      store: content.store,
      input: {
        probes,
        tables: probeExportTables(
          probes,
          lang,
          zonedClock(content.store.timezone_name),
          taskExportTexts[lang].locale,
        ),
        store: { name: content.store.name, timezone_name: content.store.timezone_name },
        start: body.start,
        end: body.end,
        filter: body.filter,
        generatedAt: now,
        lang,
        sections: content.sections,
      },
    };
  };

  app.post(
    '/pdf/tasks',
    {
      schema: { tags: ['history'], body: historyExportBodySchema },
      config: { rateLimit: { max: exportsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { store, input } = await exportInput(request, request.body);
      // The PDF also prints each task's corrections and its pictures as thumbnails.
      const tasks = input.sections.flatMap((section) => section.items);
      const [revisions, thumbnails] = await Promise.all([
        // Only a task written more than once can carry a correction.
        historyService.revisionsOf(
          db,
          store.id,
          tasks.filter((task) => task.revision > 1).map((task) => task.id),
        ),
        loadResultThumbnails(storage, store.id, tasks),
      ]);
      const pdf = await renderTasksPdf({ ...input, revisions, thumbnails });
      const name = `history-${fileSlug(store.name)}-${request.body.start}-${request.body.end}.pdf`;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', pdf.length)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.post(
    '/csv/tasks',
    {
      schema: { tags: ['history'], body: historyExportBodySchema },
      config: { rateLimit: { max: exportsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { store, input } = await exportInput(request, request.body);
      const csv = renderTasksCsv(input);
      const name = `history-${fileSlug(store.name)}-${request.body.start}-${request.body.end}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    '/archive/tasks',
    {
      schema: {
        tags: ['history'],
        body: archiveBodySchema,
        response: { 200: archiveResponseSchema },
      },
      config: { rateLimit: { max: exportsPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => historyService.archiveTasks(db, await scopeFor(request), request.body),
  );
};
