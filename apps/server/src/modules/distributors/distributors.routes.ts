import { randomBytes } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import {
  createDistributorBodySchema,
  distributorResponseSchema,
  listDistributorsQuerySchema,
  listDistributorsResponseSchema,
  updateDistributorBodySchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { readImageUpload } from '../files/uploads';
import * as distributors from './distributors.service';

const tags = ['distributors'];
const params = z.strictObject({ id: idSchema });

export const distributorsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/distributors',
    {
      schema: {
        tags,
        querystring: listDistributorsQuerySchema,
        response: { 200: listDistributorsResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return { items: await distributors.listDistributors(db, scope, request.query) };
    },
  );

  app.post(
    '/distributors',
    {
      schema: {
        tags,
        body: createDistributorBodySchema,
        response: { 200: distributorResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await distributors.createDistributor(db, scope, request.body);
      return { distributor: await distributors.presentDistributor(db, scope, row) };
    },
  );

  app.get(
    '/distributors/:id',
    { schema: { tags, params, response: { 200: distributorResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await distributors.findDistributorInScope(db, scope, request.params.id);
      return { distributor: await distributors.presentDistributor(db, scope, row) };
    },
  );

  app.patch(
    '/distributors/:id',
    {
      schema: {
        tags,
        params,
        body: updateDistributorBodySchema,
        response: { 200: distributorResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await distributors.updateDistributor(db, scope, request.params.id, request.body);
      return { distributor: await distributors.presentDistributor(db, scope, row) };
    },
  );

  app.post(
    '/distributors/:id/logo',
    {
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 200: distributorResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const id = request.params.id;
      // Scope and permission first: nothing is stored for a distributor the caller may not change.
      await distributors.assertCanSetLogo(db, scope, id);
      const image = await readImageUpload(request);
      const key = `distributors/${id}/logo-${randomBytes(8).toString('hex')}.${image.extension}`;
      await deps.storage.put(key, image.data);
      const { distributor, previousUrl } = await distributors.setLogo(
        db,
        scope,
        id,
        `/api/files/${key}`,
      );
      if (previousUrl?.startsWith('/api/files/')) {
        await deps.storage.delete(previousUrl.slice('/api/files/'.length)).catch(() => {});
      }
      return { distributor: await distributors.presentDistributor(db, scope, distributor) };
    },
  );
};
