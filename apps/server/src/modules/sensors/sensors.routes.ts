import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

export const sensorsRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
