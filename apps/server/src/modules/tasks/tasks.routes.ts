import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

/** A store's tasks, task generation and its events. */
export const tasksRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
