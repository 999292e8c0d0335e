import { idSchema } from '@mise/shared/auth/schemas';
import {
  authenticateEmployeeBodySchema,
  authenticateEmployeeResponseSchema,
  dayQuerySchema,
  deviceTaskResponseSchema,
  listDeviceEmployeesResponseSchema,
  listDeviceTasksResponseSchema,
  pictureUploadResponseSchema,
  postponeBodySchema,
  submitResultBodySchema,
} from '@mise/shared/tasks/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../platform/deps';
import { readImageUpload } from '../files/uploads';
import {
  listDeviceDayTasks,
  postponeTask,
  saveTaskPicture,
  submitTaskResult,
} from '../tasks/task-results.service';
import { deviceAppRoutes } from './device-app.routes';
import { requireActor, requireDevice } from './device-auth';
import { authenticateEmployee, EmployeeLockedOut, listStoreEmployees } from './employees.service';
import { sentAtOf } from './sent-at';

const tags = ['device'];
const params = z.strictObject({ id: idSchema });

export { employeeTokenHeader, requireActor, requireDevice } from './device-auth';

/** What the tablet calls: employees, today's tasks, results, postponing, pictures. */
export const deviceRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, storage, events, now } = deps;
  // Context, elements, unscheduled tasks and back-office links (issue 14).
  // (The options carry this plugin's prefix, already applied to the child: left out.)
  const { prefix: _prefix, ...childDeps } = deps as AppDeps & { prefix?: string };
  await app.register(deviceAppRoutes, childDeps);

  /** Tells open home pages of the store; the record is already committed, so a failure is only logged. */
  const publishTaskEvent = async (
    task: { id: string; store_id: string },
    kind: 'completed' | 'corrected' | 'postponed',
  ) => {
    await events
      .publish({ store_id: task.store_id, task_id: task.id, kind })
      .catch((error) => app.log.warn({ err: error }, 'live event not published'));
  };

  app.get(
    '/device/employees',
    { schema: { tags, response: { 200: listDeviceEmployeesResponseSchema } } },
    async (request) => ({ items: await listStoreEmployees(db, requireDevice(request).storeId) }),
  );

  app.post(
    '/device/employees/:id/authenticate',
    {
      schema: {
        tags,
        params,
        body: authenticateEmployeeBodySchema,
        response: { 200: authenticateEmployeeResponseSchema },
      },
    },
    async (request, reply) => {
      const device = requireDevice(request);
      reply.header('cache-control', 'no-store');
      try {
        return await authenticateEmployee(db, device, request.params.id, request.body);
      } catch (error) {
        if (error instanceof EmployeeLockedOut) {
          reply.header('retry-after', String(error.retryAfterSeconds));
        }
        throw error;
      }
    },
  );

  app.get(
    '/device/tasks',
    {
      schema: {
        tags,
        querystring: dayQuerySchema,
        response: { 200: listDeviceTasksResponseSchema },
      },
    },
    async (request) =>
      listDeviceDayTasks(db, requireDevice(request).storeId, request.query.day, now()),
  );

  app.post(
    '/device/tasks/:id/result',
    {
      schema: {
        tags,
        params,
        body: submitResultBodySchema,
        response: { 200: deviceTaskResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(db, request);
      const task = await submitTaskResult(
        db,
        actor,
        request.params.id,
        request.body,
        now(),
        sentAtOf(request.headers['x-sent-at']),
      );
      await publishTaskEvent(task, request.body.reason ? 'corrected' : 'completed');
      return { task };
    },
  );

  app.post(
    '/device/tasks/:id/postpone',
    {
      schema: {
        tags,
        params,
        body: postponeBodySchema,
        response: { 200: deviceTaskResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(db, request);
      const task = await postponeTask(db, actor, request.params.id, request.body, now());
      await publishTaskEvent(task, 'postponed');
      return { task };
    },
  );

  /** A task picture: PNG, JPEG or WebP (5 MB), stored under a key the server builds. */
  app.post(
    '/device/pictures',
    { schema: { tags, response: { 200: pictureUploadResponseSchema } } },
    async (request) => {
      const actor = await requireActor(db, request);
      return saveTaskPicture(db, storage, actor.storeId, await readImageUpload(request));
    },
  );
};
