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
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { readImageUpload } from '../files/uploads';
import {
  listDeviceDayTasks,
  postponeTask,
  saveTaskPicture,
  submitTaskResult,
  type TaskActor,
} from '../tasks/task-results.service';
import {
  authenticateEmployee,
  type DeviceIdentity,
  EmployeeLockedOut,
  findEmployeeOfToken,
  listStoreEmployees,
} from './employees.service';

const tags = ['device'];
const params = z.strictObject({ id: idSchema });
export const employeeTokenHeader = 'x-employee-token';

/**
 * Device-only routes: a paired tablet's Bearer device token. A browser or script session,
 * or no token, answers 401 (a user is never a device). A tablet of an inactive or unlicensed
 * store answers 403 'device/store-unlicensed' (tablet services stop with the licence).
 */
export function requireDevice(request: FastifyRequest): DeviceIdentity {
  if (!request.device) throw new AppError('auth/unauthenticated');
  if (!request.device.storeLicensed) throw new AppError('device/store-unlicensed');
  return { id: request.device.id, storeId: request.device.storeId };
}

/** The device and the employee identified on it (`x-employee-token`), or 401. */
export async function requireActor(db: Database, request: FastifyRequest): Promise<TaskActor> {
  const device = requireDevice(request);
  const header = request.headers[employeeTokenHeader];
  const employee = await findEmployeeOfToken(
    db,
    device,
    typeof header === 'string' ? header : undefined,
  );
  return { deviceId: device.id, storeId: device.storeId, employee };
}

/** What the tablet calls: employees, today's tasks, results, postponing, pictures. */
export const deviceRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, storage, events, now },
) => {
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
      const task = await submitTaskResult(db, actor, request.params.id, request.body, now());
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
