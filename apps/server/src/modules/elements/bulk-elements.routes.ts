import { idSchema } from '@mise/shared/auth/schemas';
import {
  bulkElementsResponseSchema,
  bulkElementsSaveBodySchema,
  bulkElementsSaveResponseSchema,
} from '@mise/shared/catalogue/bulk';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import * as bulk from './bulk-elements';
import { plainJsonSerializer } from './plain-serializer';

const tags = ['elements'];
const databaseParams = z.strictObject({ databaseId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });
/** A save of up to 2 000 rows (maxBulkRows) of about 1 KB each. */
const bodyLimit = 4 * 1024 * 1024;

/**
 * Expert mode, elements (spec 001 §2.9, §4; packages/shared/src/catalogue/bulk.ts): the grid's
 * read and save at database and store level. Large answers go out through plain JSON (rows
 * built in the schema's shape, plain-serializer.ts), compressed when the client accepts it.
 */
export const bulkElementsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/databases/:databaseId/elements/bulk',
    {
      schema: { tags, params: databaseParams, response: { 200: bulkElementsResponseSchema } },
      serializerCompiler: plainJsonSerializer,
      compress: {},
    },
    async (request) =>
      bulk.readDatabaseBulk(db, await scopeFor(request), request.params.databaseId),
  );

  app.post(
    '/databases/:databaseId/elements/bulk',
    {
      schema: {
        tags,
        params: databaseParams,
        body: bulkElementsSaveBodySchema,
        response: { 200: bulkElementsSaveResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
      bodyLimit,
    },
    async (request) => ({
      rows: await bulk.saveDatabaseBulk(
        deps,
        await scopeFor(request),
        request.params.databaseId,
        request.body,
      ),
    }),
  );

  app.get(
    '/stores/:storeId/elements/bulk',
    {
      schema: { tags, params: storeParams, response: { 200: bulkElementsResponseSchema } },
      serializerCompiler: plainJsonSerializer,
      compress: {},
    },
    async (request) => bulk.readStoreBulk(db, await scopeFor(request), request.params.storeId),
  );

  app.post(
    '/stores/:storeId/elements/bulk',
    {
      schema: {
        tags,
        params: storeParams,
        body: bulkElementsSaveBodySchema,
        response: { 200: bulkElementsSaveResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
      bodyLimit,
    },
    async (request) => ({
      rows: await bulk.saveStoreBulk(
        deps,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      ),
    }),
  );
};
