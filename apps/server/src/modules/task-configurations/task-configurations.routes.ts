import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

/** Task types and database/store task configurations. */
export const taskConfigurationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
