import { idSchema } from '@mise/shared/auth/schemas';
import {
  createDatabaseTaskConfigurationBodySchema,
  createStoreTaskConfigurationBodySchema,
  createTaskTypeBodySchema,
  listTaskConfigurationsQuerySchema,
  listTaskConfigurationsResponseSchema,
  listTaskTypesResponseSchema,
  taskConfigurationResponseSchema,
  taskElementChoicesQuerySchema,
  taskElementChoicesResponseSchema,
  taskTypeResponseSchema,
  updateTaskConfigurationBodySchema,
  updateTaskTypeBodySchema,
} from '@mise/shared/tasks/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { bulkConfigurationsRoutes } from './bulk-configurations.routes';
import * as configurations from './task-configurations.service';
import * as types from './task-types.service';

const tags = ['task-configurations'];
const params = z.strictObject({ id: idSchema });
const databaseParams = z.strictObject({ databaseId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });

/**
 * Task types and database/store task configurations (spec 001 §2.6, §3.6, §3.7); the paths
 * are listed in packages/shared/src/tasks/schemas.ts.
 */
export const taskConfigurationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  // Expert mode: GET/POST …/taskConfigurations/bulk (bulk-configurations.routes.ts), on this same instance.
  await bulkConfigurationsRoutes(app, deps);

  /* ---------- Task types ---------- */

  app.get(
    '/databases/:databaseId/taskTypes',
    { schema: { tags, params: databaseParams, response: { 200: listTaskTypesResponseSchema } } },
    async (request) => ({
      items: await types.listDatabaseTaskTypes(
        db,
        await scopeFor(request),
        request.params.databaseId,
      ),
    }),
  );

  app.post(
    '/databases/:databaseId/taskTypes',
    {
      schema: {
        tags,
        params: databaseParams,
        body: createTaskTypeBodySchema,
        response: { 200: taskTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.createDatabaseTaskType(
        db,
        await scopeFor(request),
        request.params.databaseId,
        request.body,
      ),
    }),
  );

  app.get(
    '/stores/:storeId/taskTypes',
    { schema: { tags, params: storeParams, response: { 200: listTaskTypesResponseSchema } } },
    async (request) => ({
      items: await types.listStoreTaskTypes(db, await scopeFor(request), request.params.storeId),
    }),
  );

  app.post(
    '/stores/:storeId/taskTypes',
    {
      schema: {
        tags,
        params: storeParams,
        body: createTaskTypeBodySchema,
        response: { 200: taskTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.createStoreTaskType(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      ),
    }),
  );

  app.patch(
    '/taskTypes/:id',
    {
      schema: {
        tags,
        params,
        body: updateTaskTypeBodySchema,
        response: { 200: taskTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.updateTaskType(
        db,
        await scopeFor(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  /* ---------- Element choices (the editors' pickers) ---------- */

  const choicesSchema = {
    tags,
    querystring: taskElementChoicesQuerySchema,
    response: { 200: taskElementChoicesResponseSchema },
  };
  app.get(
    '/databases/:databaseId/taskConfigurations/elements',
    { schema: { ...choicesSchema, params: databaseParams } },
    async (request) => ({
      items: await configurations.listElementChoices(
        db,
        await scopeFor(request),
        { databaseId: request.params.databaseId },
        request.query.module,
      ),
    }),
  );
  app.get(
    '/stores/:storeId/taskConfigurations/elements',
    { schema: { ...choicesSchema, params: storeParams } },
    async (request) => ({
      items: await configurations.listElementChoices(
        db,
        await scopeFor(request),
        { storeId: request.params.storeId },
        request.query.module,
      ),
    }),
  );

  /* ---------- Database configurations ---------- */

  app.get(
    '/databases/:databaseId/taskConfigurations',
    {
      schema: {
        tags,
        params: databaseParams,
        querystring: listTaskConfigurationsQuerySchema,
        response: { 200: listTaskConfigurationsResponseSchema },
      },
    },
    async (request) => ({
      items: await configurations.listDatabaseConfigurations(
        db,
        await scopeFor(request),
        request.params.databaseId,
        request.query,
      ),
    }),
  );

  app.post(
    '/databases/:databaseId/taskConfigurations',
    {
      schema: {
        tags,
        params: databaseParams,
        body: createDatabaseTaskConfigurationBodySchema,
        response: { 200: taskConfigurationResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.createDatabaseConfiguration(
        db,
        scope,
        request.params.databaseId,
        request.body,
      );
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.get(
    '/taskConfigurations/:id',
    { schema: { tags, params, response: { 200: taskConfigurationResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.findDatabaseConfiguration(db, scope, request.params.id);
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.patch(
    '/taskConfigurations/:id',
    {
      schema: {
        tags,
        params,
        body: updateTaskConfigurationBodySchema,
        response: { 200: taskConfigurationResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.updateDatabaseConfiguration(
        db,
        scope,
        request.params.id,
        request.body,
      );
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.post(
    '/taskConfigurations/:id/duplicate',
    { schema: { tags, params, response: { 200: taskConfigurationResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.duplicateDatabaseConfiguration(db, scope, request.params.id);
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  /* ---------- Store configurations ---------- */

  app.get(
    '/stores/:storeId/taskConfigurations',
    {
      schema: {
        tags,
        params: storeParams,
        querystring: listTaskConfigurationsQuerySchema,
        response: { 200: listTaskConfigurationsResponseSchema },
      },
    },
    async (request) => ({
      items: await configurations.listStoreConfigurations(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.query,
      ),
    }),
  );

  app.post(
    '/stores/:storeId/taskConfigurations',
    {
      schema: {
        tags,
        params: storeParams,
        body: createStoreTaskConfigurationBodySchema,
        response: { 200: taskConfigurationResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.createStoreConfiguration(
        db,
        scope,
        request.params.storeId,
        request.body,
      );
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.get(
    '/stores/:storeId/taskConfigurations/origin/:originId',
    {
      schema: {
        tags,
        params: z.strictObject({ storeId: idSchema, originId: idSchema }),
        response: { 200: taskConfigurationResponseSchema },
      },
    },
    async (request) => ({
      configuration: await configurations.presentOriginForStore(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.params.originId,
      ),
    }),
  );

  app.get(
    '/storeTaskConfigurations/:id',
    { schema: { tags, params, response: { 200: taskConfigurationResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.findStoreConfiguration(db, scope, request.params.id);
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.patch(
    '/storeTaskConfigurations/:id',
    {
      schema: {
        tags,
        params,
        body: updateTaskConfigurationBodySchema,
        response: { 200: taskConfigurationResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.updateStoreConfiguration(
        db,
        scope,
        request.params.id,
        request.body,
      );
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );

  app.post(
    '/storeTaskConfigurations/:id/duplicate',
    { schema: { tags, params, response: { 200: taskConfigurationResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await configurations.duplicateStoreConfiguration(db, scope, request.params.id);
      return { configuration: await configurations.presentConfiguration(db, scope, ref) };
    },
  );
};
