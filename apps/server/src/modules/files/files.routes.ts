import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { type Scope, scopeOf } from '../../platform/scope';
import { assertValidKey } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { findEmployeeInScope } from '../people/employees.service';
import { findStoreInScope } from '../stores/stores.service';
import { findUserInScope } from '../users/users.service';
import { contentTypeOf } from './uploads';

/** A file is visible to whoever can see the record its key starts with (404 otherwise). */
const findOwner: Record<string, (db: Database, scope: Scope, id: string) => Promise<unknown>> = {
  accounts: findUserInScope,
  distributors: findDistributorInScope,
  databases: findDatabaseInScope,
  stores: findStoreInScope,
  /** Employees' pictures: whoever sees one of the employee's stores. */
  employees: findEmployeeInScope,
};

/**
 * Whether a paired tablet may read a file of this owner (`area`/`ownerId` of its key). The
 * device module registers the answer at start (files does not depend on its users).
 */
export type DeviceFileAccess = (
  db: Database,
  device: { id: string; storeId: string },
  area: string,
  ownerId: string,
) => Promise<boolean>;
let deviceFileAccess: DeviceFileAccess | null = null;
export function registerDeviceFileAccess(check: DeviceFileAccess): void {
  deviceFileAccess = check;
}

/**
 * GET /api/files/<key>: a stored file, after checking the caller may see its owner: a signed-in
 * user by their scope, a paired tablet (device token) by registerDeviceFileAccess.
 */
export const filesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/files/*',
    { schema: { tags: ['files'], params: z.object({ '*': z.string().min(1).max(500) }) } },
    async (request, reply) => {
      const device = request.auth ? null : request.device;
      const user = device ? null : requireAuth(request).user;
      const key = request.params['*'];
      try {
        assertValidKey(key);
      } catch {
        throw notFound();
      }
      const [area, ownerId] = key.split('/');
      if (!area || !ownerId || !z.uuid().safeParse(ownerId).success) throw notFound();
      const find = Object.hasOwn(findOwner, area) ? findOwner[area] : undefined;
      if (!find) throw notFound();
      if (device) {
        if (!device.storeLicensed) throw new AppError('device/store-unlicensed');
        const isAllowed = await deviceFileAccess?.(deps.db, device, area, ownerId);
        if (!isAllowed) throw notFound();
      } else {
        await find(deps.db, await scopeOf(request, deps.db, user!), ownerId);
      }
      const file = await deps.storage.get(key);
      if (!file) throw notFound();
      return reply
        .header('content-type', contentTypeOf(key))
        .header('content-length', file.size)
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .send(file.stream);
    },
  );
};
