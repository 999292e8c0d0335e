import { randomBytes } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import {
  listUsersQuerySchema,
  listUsersResponseSchema,
  updateUserBodySchema,
  userResponseSchema,
  userStoresResponseSchema,
} from '@mise/shared/users/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { readImageUpload } from '../files/uploads';
import * as users from './users.service';

const tags = ['users'];
const params = z.strictObject({ id: idSchema });

export const usersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/users',
    {
      schema: {
        tags,
        querystring: listUsersQuerySchema,
        response: { 200: listUsersResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      return users.listUsers(db, await scopeOf(request, db, user), request.query);
    },
  );

  app.get(
    '/users/:id',
    { schema: { tags, params, response: { 200: userResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await users.findUserInScope(db, scope, request.params.id);
      return { user: await users.presentUser(db, row, scope) };
    },
  );

  app.patch(
    '/users/:id',
    { schema: { tags, params, body: updateUserBodySchema, response: { 200: userResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await users.updateUser(db, scope, request.params.id, request.body);
      return { user: await users.presentUser(db, row, scope) };
    },
  );

  app.get(
    '/users/:id/stores',
    { schema: { tags, params, response: { 200: userStoresResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return {
        items: await users.listUserStores(db, await scopeOf(request, db, user), request.params.id),
      };
    },
  );

  app.post(
    '/users/:id/illustration',
    {
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 200: userResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      // Scope and permission first: nothing is stored for an account the caller may not change.
      const target = await users.findUserInScope(db, scope, request.params.id);
      if (target.id !== user.id && scope.role !== 'admin' && scope.role !== 'distributor') {
        throw new AppError('permission/denied');
      }
      await users.assertActsWithinTenant(db, scope, target);
      const image = await readImageUpload(request);
      const key = `accounts/${target.id}/illustration-${randomBytes(8).toString('hex')}.${image.extension}`;
      await deps.storage.put(key, image.data);
      const { user: updated, previousUrl } = await users.setIllustration(
        db,
        scope,
        target.id,
        `/api/files/${key}`,
      );
      if (previousUrl?.startsWith('/api/files/')) {
        await deps.storage.delete(previousUrl.slice('/api/files/'.length)).catch(() => {});
      }
      return { user: await users.presentUser(db, updated, scope) };
    },
  );
};
