import {
  databaseOptionsResponseSchema,
  distributorOptionsResponseSchema,
  storeOptionsResponseSchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import * as organisation from './organisation.service';

export const organisationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/distributors',
    { schema: { tags: ['distributors'], response: { 200: distributorOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return {
        items: await organisation.listDistributorOptions(db, await scopeOf(request, db, user)),
      };
    },
  );
  app.get(
    '/databases',
    { schema: { tags: ['databases'], response: { 200: databaseOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return {
        items: await organisation.listDatabaseOptions(db, await scopeOf(request, db, user)),
      };
    },
  );
  app.get(
    '/stores',
    { schema: { tags: ['stores'], response: { 200: storeOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return { items: await organisation.listStoreOptions(db, await scopeOf(request, db, user)) };
    },
  );
};
