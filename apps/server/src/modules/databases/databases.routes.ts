import { databaseOptionsResponseSchema } from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { listDatabaseOptions } from './databases.service';

export const databasesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/databases',
    { schema: { tags: ['databases'], response: { 200: databaseOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return { items: await listDatabaseOptions(db, await scopeOf(request, db, user)) };
    },
  );
};
