import { storeOptionsResponseSchema } from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { listStoreOptions } from './stores.service';

export const storesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/stores',
    { schema: { tags: ['stores'], response: { 200: storeOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return { items: await listStoreOptions(db, await scopeOf(request, db, user)) };
    },
  );
};
