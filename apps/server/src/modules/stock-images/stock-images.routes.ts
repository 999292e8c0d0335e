import { stockImagesQuerySchema, stockImagesResponseSchema } from '@mise/shared/catalogue/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';

const tags = ['stock-images'];

/**
 * Stock image search for element illustrations (spec 001 §2.5, §7). Signed-in users only;
 * without a configured provider the answer is `configured: false` and no item. Rate-limited
 * per address: every call spends the provider's quota.
 */
export const stockImagesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/stockImages',
    {
      schema: {
        tags,
        querystring: stockImagesQuerySchema,
        response: { 200: stockImagesResponseSchema },
      },
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request) => {
      requireAuth(request);
      const { stockImages } = deps.integrations;
      if (!stockImages.configured) return { configured: false, items: [] };
      try {
        return { configured: true, items: await stockImages.search(request.query.query) };
      } catch (error) {
        request.log.warn({ err: error }, 'stock image search failed');
        throw new AppError('stock-images/failed');
      }
    },
  );
};
