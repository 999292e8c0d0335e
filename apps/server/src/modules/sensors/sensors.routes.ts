import {
  sensorCredentialsBodySchema,
  sensorCredentialsResponseSchema,
  sensorImportBodySchema,
  sensorImportResponseSchema,
  sensorSessionQuerySchema,
  sensorSessionResponseSchema,
  sensorTagsQuerySchema,
  sensorTagsResponseSchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import * as sensors from './sensors.service';

const tags = ['sensors'];

/** The sensor provider (Koovea, spec 000 §7). Credentials never leave the server. */
export const sensorsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const provider = () => deps.integrations.sensorProvider;

  app.post(
    '/koovea/validCredentials',
    {
      schema: {
        tags,
        body: sensorCredentialsBodySchema,
        response: { 200: sensorCredentialsResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return sensors.validCredentials(db, provider(), scope, request.body);
    },
  );

  app.post(
    '/koovea/import',
    {
      schema: {
        tags,
        body: sensorImportBodySchema,
        response: { 200: sensorImportResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return sensors.importProviderProbes(db, provider(), scope, request.body.storeId);
    },
  );

  app.get(
    '/koovea/session',
    {
      schema: {
        tags,
        querystring: sensorSessionQuerySchema,
        response: { 200: sensorSessionResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return sensors.sensorSession(db, provider(), scope, request.query.storeId);
    },
  );

  app.get(
    '/koovea/tags',
    {
      schema: {
        tags,
        querystring: sensorTagsQuerySchema,
        response: { 200: sensorTagsResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return sensors.sensorTags(db, provider(), scope, request.query.storeId);
    },
  );
};
