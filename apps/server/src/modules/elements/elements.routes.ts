import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../platform/deps';

/** Catalogue: database and store elements, element types, labels, attachments. */
export const elementsRoutes: FastifyPluginAsyncZod<AppDeps> = async (_app, _deps) => {};
