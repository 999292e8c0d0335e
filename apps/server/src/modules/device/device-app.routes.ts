import {
  backOfficeLinkBodySchema,
  backOfficeLinkResponseSchema,
  createUnscheduledTaskBodySchema,
  createUnscheduledTaskResponseSchema,
  deviceContextSchema,
  listDeviceElementsResponseSchema,
} from '@mise/shared/device/schemas';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stores } from '../../db/schema';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { listDeviceElements } from '../elements/device-elements';
import { registerDeviceFileAccess } from '../files/files.routes';
import { createUnscheduledTask } from '../tasks/unscheduled-tasks.service';
import { createBackOfficeLink } from './back-office-link.service';
import { requireActor, requireDevice } from './device-auth';
import { deviceContext } from './device-context.service';
import { deviceFileAccess } from './device-files';
import { sentAtOf } from './sent-at';

const tags = ['device'];

/**
 * What the tablet app reads and creates beyond the day's tasks (issue 14): its store's
 * context, the store's elements, unscheduled tasks, back-office links. Registered by
 * deviceRoutes (same prefix).
 */
export const deviceAppRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, events, now }) => {
  // Tablets read their store's, database's and employees' files under /api/files.
  registerDeviceFileAccess(deviceFileAccess);
  app.get(
    '/device/context',
    { schema: { tags, response: { 200: deviceContextSchema } } },
    async (request) => deviceContext(db, requireDevice(request), now()),
  );

  app.get(
    '/device/elements',
    { schema: { tags, response: { 200: listDeviceElementsResponseSchema } } },
    async (request) => {
      const device = requireDevice(request);
      const [store] = await db
        .select({ id: stores.id, database_id: stores.database_id })
        .from(stores)
        .where(eq(stores.id, device.storeId))
        .limit(1);
      if (!store) throw notFound();
      return { items: await listDeviceElements(db, store) };
    },
  );

  app.post(
    '/device/tasks',
    {
      schema: {
        tags,
        body: createUnscheduledTaskBodySchema,
        response: { 200: createUnscheduledTaskResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(db, request);
      const task = await createUnscheduledTask(
        db,
        actor,
        request.body,
        now(),
        sentAtOf(request.headers['x-sent-at']),
      );
      // The record is committed: a failed notification is only logged.
      await events
        .publish({ store_id: task.store_id, task_id: task.id, kind: 'completed' })
        .catch((error) => app.log.warn({ err: error }, 'live event not published'));
      return { task };
    },
  );

  app.post(
    '/device/back-office-link',
    {
      schema: {
        tags,
        body: backOfficeLinkBodySchema,
        response: { 200: backOfficeLinkResponseSchema },
      },
    },
    async (request, reply) => {
      const device = requireDevice(request);
      reply.header('cache-control', 'no-store');
      return createBackOfficeLink(db, device, request.body.page);
    },
  );
};
