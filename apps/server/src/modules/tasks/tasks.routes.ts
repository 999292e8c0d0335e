import { idSchema } from '@mise/shared/auth/schemas';
import {
  dayQuerySchema,
  listTasksResponseSchema,
  taskGenerationRunBodySchema,
  taskGenerationRunResponseSchema,
  taskGenerationSearchBodySchema,
  taskGenerationSearchResponseSchema,
} from '@mise/shared/tasks/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import * as tasksService from './tasks.service';

/** A store's tasks, task generation and its events. */
export const tasksRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, now } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/stores/:storeId/tasks',
    {
      schema: {
        tags: ['tasks'],
        params: z.strictObject({ storeId: idSchema }),
        querystring: dayQuerySchema,
        response: { 200: listTasksResponseSchema },
      },
    },
    async (request) =>
      tasksService.listStoreTasks(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.query.day,
        now(),
      ),
  );

  app.post(
    '/task_generation/search',
    {
      schema: {
        tags: ['task generation'],
        body: taskGenerationSearchBodySchema,
        response: { 200: taskGenerationSearchResponseSchema },
      },
    },
    async (request) =>
      tasksService.searchGenerationEvents(db, await scopeFor(request), request.body),
  );

  app.post(
    '/task_generation/run',
    {
      schema: {
        tags: ['task generation'],
        body: taskGenerationRunBodySchema,
        response: { 200: taskGenerationRunResponseSchema },
      },
    },
    async (request) =>
      tasksService.runGeneration(db, await scopeFor(request), request.body, { now: now() }),
  );
};
