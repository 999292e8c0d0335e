import { idSchema } from '@mise/shared/auth/schemas';
import { allergensPdfMaxElements, allergensPdfPerMinute } from '@mise/shared/catalogue/constants';
import { allergensQuerySchema, allergenTableSchema } from '@mise/shared/catalogue/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { renderAllergensPdf } from '../../platform/pdf/allergens';
import { scopeOf } from '../../platform/scope';
import { plainJsonSerializer } from '../elements/plain-serializer';
import { allergenTable } from './allergens.service';

const pdfLanguages = ['fr', 'en', 'de', 'pl'] as const;

const pdfQuerySchema = z
  .strictObject({
    databaseId: idSchema.optional(),
    storeId: idSchema.optional(),
    lang: z.enum(pdfLanguages).default('en'),
  })
  .refine((query) => Boolean(query.databaseId) !== Boolean(query.storeId), {
    message: 'Give either databaseId or storeId.',
  });

/**
 * The allergens screen's data and its PDF (spec 001 §2.8). The stock image search is
 * GET /api/stockImages (modules/stock-images).
 */
export const allergensRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/allergens',
    {
      schema: {
        tags: ['allergens'],
        querystring: allergensQuerySchema,
        response: { 200: allergenTableSchema },
      },
      serializerCompiler: plainJsonSerializer,
    },
    async (request) => allergenTable(db, await scopeFor(request), request.query),
  );

  app.get(
    '/pdf/allergens',
    {
      schema: { tags: ['allergens'], querystring: pdfQuerySchema },
      config: { rateLimit: { max: allergensPdfPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const table = await allergenTable(db, await scopeFor(request), request.query);
      const count = table.groups.reduce((total, group) => total + group.elements.length, 0);
      if (count > allergensPdfMaxElements) {
        throw new AppError(
          'validation/invalid-input',
          `Too many elements for one PDF (${count}, at most ${allergensPdfMaxElements}).`,
          [{ path: 'elements', message: `At most ${allergensPdfMaxElements} elements.` }],
        );
      }
      const pdf = await renderAllergensPdf(table, {
        lang: request.query.lang,
        generatedAt: new Date(),
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="allergens.pdf"')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .send(pdf);
    },
  );
};
