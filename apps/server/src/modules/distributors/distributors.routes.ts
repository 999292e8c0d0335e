import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

export const distributorsRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
