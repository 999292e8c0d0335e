import { idSchema } from '@mise/shared/auth/schemas';
import {
  communicationBodySchema,
  communicationResponseSchema,
  communicationStatsSchema,
  communicationsResponseSchema,
  deviceCommunicationResultBodySchema,
  deviceCommunicationResultResponseSchema,
  deviceCommunicationsResponseSchema,
  homeCommunicationsQuerySchema,
  homeCommunicationsResponseSchema,
  listCommunicationsQuerySchema,
  saveCommunicationBodySchema,
  statsStoreResultsResponseSchema,
  statsStoresQuerySchema,
  statsStoresResponseSchema,
} from '@mise/shared/communications/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { requireActor } from '../device/device-auth';
import * as service from './communications.service';

const databaseParams = z.strictObject({ databaseId: idSchema });
const communicationParams = z.strictObject({ communicationId: idSchema });
const storeParams = z.strictObject({ communicationId: idSchema, storeId: idSchema });
const tags = ['communications'];
const deviceTags = ['device'];

/** Communications (spec 002 §2–§8, issue 18): back-office and tablet. */
export const communicationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, now } = deps;
  const userScope = async (request: FastifyRequest) => {
    const { user } = requireAuth(request);
    return scopeOf(request, db, user);
  };

  app.get(
    '/databases/:databaseId/communications',
    {
      schema: {
        tags,
        params: databaseParams,
        querystring: listCommunicationsQuerySchema,
        response: { 200: communicationsResponseSchema },
      },
    },
    async (request) =>
      service.listCommunications(
        db,
        await userScope(request),
        request.params.databaseId,
        request.query,
        now(),
      ),
  );

  app.post(
    '/databases/:databaseId/communications',
    {
      schema: {
        tags,
        params: databaseParams,
        body: communicationBodySchema,
        response: { 200: communicationResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const name = `${user.name} ${user.surname}`.trim() || user.email;
      return service.createCommunication(
        deps,
        await userScope(request),
        { id: user.id, name },
        request.params.databaseId,
        request.body,
        now(),
      );
    },
  );

  app.get(
    '/databases/:databaseId/communications/home',
    {
      schema: {
        tags,
        params: databaseParams,
        querystring: homeCommunicationsQuerySchema,
        response: { 200: homeCommunicationsResponseSchema },
      },
    },
    async (request) =>
      service.homeCommunications(
        db,
        await userScope(request),
        request.params.databaseId,
        request.query,
        now(),
      ),
  );

  app.get(
    '/communications/:communicationId',
    {
      compress: {},
      schema: { tags, params: communicationParams, response: { 200: communicationResponseSchema } },
    },
    async (request) =>
      service.getCommunication(db, await userScope(request), request.params.communicationId, now()),
  );

  app.put(
    '/communications/:communicationId',
    {
      schema: {
        tags,
        params: communicationParams,
        body: saveCommunicationBodySchema,
        response: { 200: communicationResponseSchema },
      },
    },
    async (request) =>
      service.saveCommunication(
        deps,
        await userScope(request),
        request.params.communicationId,
        request.body,
        now(),
      ),
  );

  app.get(
    '/communications/:communicationId/stats',
    {
      schema: { tags, params: communicationParams, response: { 200: communicationStatsSchema } },
    },
    async (request) =>
      service.communicationStats(
        db,
        await userScope(request),
        request.params.communicationId,
        now(),
      ),
  );

  app.get(
    '/communications/:communicationId/stats/stores',
    {
      schema: {
        tags,
        params: communicationParams,
        querystring: statsStoresQuerySchema,
        response: { 200: statsStoresResponseSchema },
      },
    },
    async (request) =>
      service.communicationStatsStores(
        db,
        await userScope(request),
        request.params.communicationId,
        request.query,
      ),
  );

  app.get(
    '/communications/:communicationId/stats/stores/:storeId',
    {
      schema: { tags, params: storeParams, response: { 200: statsStoreResultsResponseSchema } },
    },
    async (request) =>
      service.communicationStatsStore(
        db,
        await userScope(request),
        request.params.communicationId,
        request.params.storeId,
      ),
  );

  app.get(
    '/device/communications',
    {
      compress: {},
      schema: { tags: deviceTags, response: { 200: deviceCommunicationsResponseSchema } },
    },
    async (request) => service.deviceCommunications(db, await requireActor(db, request), now()),
  );

  app.post(
    '/device/communications/:communicationId/result',
    {
      schema: {
        tags: deviceTags,
        params: communicationParams,
        body: deviceCommunicationResultBodySchema,
        response: { 200: deviceCommunicationResultResponseSchema },
      },
    },
    async (request) =>
      service.recordCommunicationStep(
        db,
        await requireActor(db, request),
        request.params.communicationId,
        request.body,
        now(),
      ),
  );
};
