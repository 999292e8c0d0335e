import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

/** What the tablet calls: employees, today's tasks, results, postponing, pictures. */
export const deviceRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
