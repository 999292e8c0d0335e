import { idSchema } from '@mise/shared/auth/schemas';
import {
  bulkTaskConfigurationsResponseSchema,
  bulkTaskConfigurationsSaveBodySchema,
  bulkTaskConfigurationsSaveResponseSchema,
} from '@mise/shared/catalogue/bulk';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { plainJsonSerializer } from '../elements/plain-serializer';
import * as bulk from './bulk-configurations';

const tags = ['task-configurations'];
const databaseParams = z.strictObject({ databaseId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });
/** A save of up to 2 000 rows (maxBulkRows); Action tasks carry their actions. */
const bodyLimit = 8 * 1024 * 1024;

/**
 * Expert mode, task configurations (spec 001 §2.9, §4; packages/shared/src/catalogue/bulk.ts):
 * the grid's read and save at database and store level, answered through plain JSON (rows
 * built in the schema's shape, elements/plain-serializer.ts), compressed when the client accepts it.
 */
export const bulkConfigurationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/databases/:databaseId/taskConfigurations/bulk',
    {
      schema: {
        tags,
        params: databaseParams,
        response: { 200: bulkTaskConfigurationsResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
    },
    async (request) =>
      bulk.readDatabaseBulk(db, await scopeFor(request), request.params.databaseId),
  );

  app.post(
    '/databases/:databaseId/taskConfigurations/bulk',
    {
      schema: {
        tags,
        params: databaseParams,
        body: bulkTaskConfigurationsSaveBodySchema,
        response: { 200: bulkTaskConfigurationsSaveResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
      bodyLimit,
    },
    async (request) => ({
      rows: await bulk.saveDatabaseBulk(
        db,
        await scopeFor(request),
        request.params.databaseId,
        request.body,
      ),
    }),
  );

  app.get(
    '/stores/:storeId/taskConfigurations/bulk',
    {
      schema: {
        tags,
        params: storeParams,
        response: { 200: bulkTaskConfigurationsResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
    },
    async (request) => bulk.readStoreBulk(db, await scopeFor(request), request.params.storeId),
  );

  app.post(
    '/stores/:storeId/taskConfigurations/bulk',
    {
      schema: {
        tags,
        params: storeParams,
        body: bulkTaskConfigurationsSaveBodySchema,
        response: { 200: bulkTaskConfigurationsSaveResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
      compress: {},
      bodyLimit,
    },
    async (request) => ({
      rows: await bulk.saveStoreBulk(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      ),
    }),
  );
};
