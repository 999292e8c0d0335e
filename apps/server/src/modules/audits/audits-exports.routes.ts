import { auditCsvFileName, auditResultsCsv } from '@mise/shared/audits/csv';
import { parseAuditResultPath } from '@mise/shared/audits/rules';
import {
  auditCsvQuerySchema,
  auditPdfBodySchema,
  auditPdfResponseSchema,
} from '@mise/shared/audits/schemas';
import { idSchema } from '@mise/shared/auth/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import type { TextLanguage } from '../../platform/locale-texts';
import {
  auditCsvTexts,
  auditPdfInputOf,
  closeAuditPdfWorker,
  renderAuditPdf,
} from '../../platform/pdf/audit';
import { scopeOf } from '../../platform/scope';
import * as results from './audit-results.service';

/*
 * Audit results as documents (spec 002 §7, issue 16): the PDF, rendered off the event loop and
 * stored once (POST /api/pdf/audit renders it again only when it is missing), and the CSV of
 * chosen results (every answer, semicolon, UTF-8 with BOM, the product's one CSV writer).
 */

const languages = new Set<string>(['fr', 'en', 'de', 'pl']);
export const languageOf = (value: string | null | undefined): TextLanguage =>
  value && languages.has(value) ? (value as TextLanguage) : 'en';

/** A store's language from its country (FR, BE, CH, LU, MC → French; DE, AT → German; PL). */
export function languageOfCountry(country: string | null | undefined): TextLanguage {
  switch ((country ?? '').toUpperCase()) {
    case 'FR':
    case 'BE':
    case 'CH':
    case 'LU':
    case 'MC':
      return 'fr';
    case 'DE':
    case 'AT':
      return 'de';
    case 'PL':
      return 'pl';
    default:
      return 'en';
  }
}

const pdfKeyOf = (resultId: string) => `audit-results/${resultId}/audit.pdf`;

/** Renders and stores results' PDFs; one render at a time per result in this instance. */
export function createAuditPdfs(deps: AppDeps) {
  const { db, storage } = deps;
  const running = new Map<string, Promise<string>>();

  const render = async (resultId: string, language: TextLanguage): Promise<string> => {
    const row = await results.loadSubmitted(db, resultId);
    const presented = await results.presentResult(db, row.result, row.storeName);
    const pdf = await renderAuditPdf(
      auditPdfInputOf(presented.result, {
        language,
        timeZone: row.timeZone,
        databaseName: row.databaseName,
      }),
    );
    const key = pdfKeyOf(resultId);
    await storage.put(key, pdf);
    await results.setPdfKey(db, resultId, key);
    return key;
  };

  /** The stored PDF's key, rendering it when it is missing. */
  const ensure = async (resultId: string, storedKey: string | null, language: TextLanguage) => {
    if (storedKey) {
      const file = await storage.get(storedKey);
      if (file) {
        file.stream.destroy();
        return storedKey;
      }
    }
    let pending = running.get(resultId);
    if (!pending) {
      pending = render(resultId, language).finally(() => running.delete(resultId));
      running.set(resultId, pending);
    }
    return pending;
  };

  return {
    ensure,
    /** After a submission: the PDF is made in the background (a failure is only logged). */
    prepare(resultId: string, language: TextLanguage, log: FastifyInstance['log']) {
      ensure(resultId, null, language).catch((error) =>
        log.warn({ err: error, resultId }, 'audit PDF not prepared'),
      );
    },
  };
}

export type AuditPdfs = ReturnType<typeof createAuditPdfs>;

export async function registerAuditExports(
  app: FastifyInstance,
  deps: AppDeps,
  pdfs: AuditPdfs,
): Promise<void> {
  const { db } = deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onClose', async () => {
    await closeAuditPdfWorker();
  });

  typed.post(
    '/pdf/audit',
    {
      schema: {
        tags: ['audits'],
        body: auditPdfBodySchema,
        response: { 200: auditPdfResponseSchema },
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const path = parseAuditResultPath(request.body.auditResultPath);
      if (!path) throw new AppError('validation/invalid-input', 'Not an audit result path.');
      const row = await results.pdfSubject(db, scope, path.resultId);
      if (row.result.audit_id !== path.auditId || row.result.database_id !== path.databaseId) {
        throw notFound();
      }
      const language = languageOf(request.body.lang ?? user.language);
      try {
        const key = await pdfs.ensure(row.result.id, row.result.pdf_key, language);
        return { url: `/api/files/${key}` };
      } catch (error) {
        request.log.error({ err: error }, 'audit PDF failed');
        throw new AppError('audit/pdf-failed');
      }
    },
  );

  typed.get(
    '/audits/:auditId/results.csv',
    {
      schema: {
        tags: ['audits'],
        params: z.strictObject({ auditId: idSchema }),
        querystring: auditCsvQuerySchema,
      },
      compress: {},
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const ids = request.query.ids.split(',').map((value) => value.trim());
      if (ids.some((value) => !idSchema.safeParse(value).success) || ids.length > 500) {
        throw new AppError('validation/invalid-input', 'ids: result ids separated by commas.');
      }
      const read = await results.readResults(db, scope, request.params.auditId, ids);
      const language = languageOf(request.query.lang ?? user.language);
      const csv = auditResultsCsv(read.results, auditCsvTexts(language), {
        timeZone: (result) => read.timeZones.get(result.id) ?? 'Europe/Paris',
      });
      const name = auditCsvFileName(read.audit.name, deps.now());
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
