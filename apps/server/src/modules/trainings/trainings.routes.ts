import { idSchema } from '@mise/shared/auth/schemas';
import {
  statsStoreResultsResponseSchema,
  statsStoresQuerySchema,
  statsStoresResponseSchema,
} from '@mise/shared/communications/schemas';
import {
  createTrainingBodySchema,
  createTrainingCategoryBodySchema,
  deviceTrainingResultBodySchema,
  deviceTrainingResultResponseSchema,
  deviceTrainingsResponseSchema,
  homeTrainingsQuerySchema,
  homeTrainingsResponseSchema,
  listTrainingsQuerySchema,
  saveTrainingBodySchema,
  trainingCategoriesQuerySchema,
  trainingCategoriesResponseSchema,
  trainingCategoryResponseSchema,
  trainingResponseSchema,
  trainingStatsSchema,
  trainingsResponseSchema,
} from '@mise/shared/trainings/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { requireActor } from '../device/device-auth';
import * as service from './trainings.service';

const trainingParams = z.strictObject({ trainingId: idSchema });
const storeParams = z.strictObject({ trainingId: idSchema, storeId: idSchema });
const tags = ['trainings'];
const deviceTags = ['device'];

/** Trainings (spec 002 §2–§8, issue 18): back-office and tablet. */
export const trainingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, now } = deps;
  const userScope = async (request: FastifyRequest) => {
    const { user } = requireAuth(request);
    return scopeOf(request, db, user);
  };

  app.get(
    '/trainings',
    {
      schema: {
        tags,
        querystring: listTrainingsQuerySchema,
        response: { 200: trainingsResponseSchema },
      },
    },
    async (request) => service.listTrainings(db, await userScope(request), request.query),
  );

  app.post(
    '/trainings',
    {
      schema: { tags, body: createTrainingBodySchema, response: { 200: trainingResponseSchema } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const name = `${user.name} ${user.surname}`.trim() || user.email;
      return service.createTraining(
        deps,
        await userScope(request),
        { id: user.id, name },
        request.body,
        now(),
      );
    },
  );

  app.get(
    '/trainings/home',
    {
      schema: {
        tags,
        querystring: homeTrainingsQuerySchema,
        response: { 200: homeTrainingsResponseSchema },
      },
    },
    async (request) => service.homeTrainings(db, await userScope(request), request.query),
  );

  app.get(
    '/training-categories',
    {
      schema: {
        tags,
        querystring: trainingCategoriesQuerySchema,
        response: { 200: trainingCategoriesResponseSchema },
      },
    },
    async (request) => service.listCategories(db, await userScope(request), request.query),
  );

  app.post(
    '/training-categories',
    {
      schema: {
        tags,
        body: createTrainingCategoryBodySchema,
        response: { 200: trainingCategoryResponseSchema },
      },
    },
    async (request) => service.createCategory(db, await userScope(request), request.body),
  );

  app.get(
    '/trainings/:trainingId',
    {
      compress: {},
      schema: { tags, params: trainingParams, response: { 200: trainingResponseSchema } },
    },
    async (request) => service.getTraining(db, await userScope(request), request.params.trainingId),
  );

  app.put(
    '/trainings/:trainingId',
    {
      schema: {
        tags,
        params: trainingParams,
        body: saveTrainingBodySchema,
        response: { 200: trainingResponseSchema },
      },
    },
    async (request) =>
      service.saveTraining(
        deps,
        await userScope(request),
        request.params.trainingId,
        request.body,
        now(),
      ),
  );

  app.get(
    '/trainings/:trainingId/stats',
    { schema: { tags, params: trainingParams, response: { 200: trainingStatsSchema } } },
    async (request) =>
      service.trainingStats(db, await userScope(request), request.params.trainingId, now()),
  );

  app.get(
    '/trainings/:trainingId/stats/stores',
    {
      schema: {
        tags,
        params: trainingParams,
        querystring: statsStoresQuerySchema,
        response: { 200: statsStoresResponseSchema },
      },
    },
    async (request) =>
      service.trainingStatsStores(
        db,
        await userScope(request),
        request.params.trainingId,
        request.query,
      ),
  );

  app.get(
    '/trainings/:trainingId/stats/stores/:storeId',
    {
      schema: { tags, params: storeParams, response: { 200: statsStoreResultsResponseSchema } },
    },
    async (request) =>
      service.trainingStatsStore(
        db,
        await userScope(request),
        request.params.trainingId,
        request.params.storeId,
      ),
  );

  app.get(
    '/device/trainings',
    {
      compress: {},
      schema: { tags: deviceTags, response: { 200: deviceTrainingsResponseSchema } },
    },
    async (request) => service.deviceTrainings(db, await requireActor(db, request)),
  );

  app.post(
    '/device/trainings/:trainingId/result',
    {
      schema: {
        tags: deviceTags,
        params: trainingParams,
        body: deviceTrainingResultBodySchema,
        response: { 200: deviceTrainingResultResponseSchema },
      },
    },
    async (request) =>
      service.recordTrainingStep(
        db,
        await requireActor(db, request),
        request.params.trainingId,
        request.body,
        now(),
      ),
  );
};
