import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

/** Allergens screen data, its PDF, and the stock image search. */
export const allergensRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
