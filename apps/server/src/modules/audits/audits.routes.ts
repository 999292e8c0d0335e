import {
  auditFileResponseSchema,
  auditResponseSchema,
  auditResultResponseSchema,
  auditResultsResponseSchema,
  auditsHomeResponseSchema,
  auditsResponseSchema,
  createAuditBodySchema,
  deviceAuditsResponseSchema,
  inProgressQuerySchema,
  listAuditsQuerySchema,
  saveAnswersBodySchema,
  saveAuditBodySchema,
  startAuditResultBodySchema,
} from '@mise/shared/audits/schemas';
import { idSchema } from '@mise/shared/auth/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { requireActor, requireDevice } from '../device/device-auth';
import * as results from './audit-results.service';
import * as audits from './audits.service';
import {
  createAuditPdfs,
  languageOf,
  languageOfCountry,
  registerAuditExports,
} from './audits-exports.routes';

const databaseParams = z.strictObject({ databaseId: idSchema });
const auditParams = z.strictObject({ auditId: idSchema });
const resultParams = z.strictObject({ resultId: idSchema });
const tags = ['audits'];
const deviceTags = ['device'];

/** Audits (spec 002 §2–§7, issue 16): templates, performing, results, the tablet's side. */
export const auditsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, storage, now } = deps;
  const pdfs = createAuditPdfs(deps);

  const userActor = async (request: FastifyRequest): Promise<results.AuditActor> => {
    const { user } = requireAuth(request);
    const scope = await scopeOf(request, db, user);
    const name = `${user.name} ${user.surname}`.trim() || user.email;
    return { kind: 'user', scope, userId: user.id, name };
  };
  const userScope = async (request: FastifyRequest) => {
    const { user } = requireAuth(request);
    return scopeOf(request, db, user);
  };
  const employeeActor = async (request: FastifyRequest): Promise<results.AuditActor> => {
    const actor = await requireActor(db, request);
    return {
      kind: 'employee',
      storeId: actor.storeId,
      deviceId: actor.deviceId,
      employee: actor.employee,
    };
  };

  app.get(
    '/databases/:databaseId/audits',
    {
      schema: {
        tags,
        params: databaseParams,
        querystring: listAuditsQuerySchema,
        response: { 200: auditsResponseSchema },
      },
    },
    async (request) =>
      audits.listAudits(db, await userScope(request), request.params.databaseId, request.query),
  );

  app.post(
    '/databases/:databaseId/audits',
    {
      schema: {
        tags,
        params: databaseParams,
        body: createAuditBodySchema,
        response: { 200: auditResponseSchema },
      },
    },
    async (request) =>
      audits.createAudit(
        db,
        await userScope(request),
        request.params.databaseId,
        request.body,
        now(),
      ),
  );

  app.get(
    '/databases/:databaseId/audits/home',
    { schema: { tags, params: databaseParams, response: { 200: auditsHomeResponseSchema } } },
    async (request) => audits.homeAudits(db, await userScope(request), request.params.databaseId),
  );

  app.get(
    '/audits/:auditId',
    {
      compress: {},
      schema: { tags, params: auditParams, response: { 200: auditResponseSchema } },
    },
    async (request) => audits.getAudit(db, await userScope(request), request.params.auditId),
  );

  app.put(
    '/audits/:auditId',
    {
      compress: {},
      schema: {
        tags,
        params: auditParams,
        body: saveAuditBodySchema,
        response: { 200: auditResponseSchema },
      },
    },
    async (request) =>
      audits.saveAudit(db, await userScope(request), request.params.auditId, request.body, now()),
  );

  app.post(
    '/audits/:auditId/duplicate',
    { schema: { tags, params: auditParams, response: { 200: auditResponseSchema } } },
    async (request) =>
      audits.duplicateAudit(db, await userScope(request), request.params.auditId, now()),
  );

  app.get(
    '/audits/:auditId/results',
    {
      compress: {},
      schema: { tags, params: auditParams, response: { 200: auditResultsResponseSchema } },
    },
    async (request) => results.listResults(db, await userScope(request), request.params.auditId),
  );

  app.post(
    '/audits/:auditId/results',
    {
      compress: {},
      schema: {
        tags,
        params: auditParams,
        body: startAuditResultBodySchema,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) =>
      results.startResult(
        db,
        await userActor(request),
        request.params.auditId,
        request.body.store_id,
        now(),
      ),
  );

  app.get(
    '/audit-results/in-progress',
    {
      schema: {
        tags,
        querystring: inProgressQuerySchema,
        response: { 200: auditResultsResponseSchema },
      },
    },
    async (request) => results.listInProgress(db, await userScope(request), request.query.audit_id),
  );

  app.get(
    '/audit-results/:resultId',
    {
      compress: {},
      schema: { tags, params: resultParams, response: { 200: auditResultResponseSchema } },
    },
    async (request) => results.getResult(db, await userActor(request), request.params.resultId),
  );

  app.patch(
    '/audit-results/:resultId/answers',
    {
      compress: {},
      schema: {
        tags,
        params: resultParams,
        body: saveAnswersBodySchema,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) =>
      results.saveAnswers(
        db,
        await userActor(request),
        request.params.resultId,
        request.body.answers,
        now(),
      ),
  );

  app.post(
    '/audit-results/:resultId/files',
    { schema: { tags, params: resultParams, response: { 200: auditFileResponseSchema } } },
    async (request) =>
      results.saveAnswerFile(
        db,
        storage,
        await userActor(request),
        request.params.resultId,
        request,
      ),
  );

  app.post(
    '/audit-results/:resultId/submit',
    {
      compress: {},
      schema: { tags, params: resultParams, response: { 200: auditResultResponseSchema } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const answer = await results.submitResult(
        db,
        await userActor(request),
        request.params.resultId,
        now(),
      );
      pdfs.prepare(answer.result.id, languageOf(user.language), request.log);
      return answer;
    },
  );

  /* Tablet (device token and an identified employee whose role grants auditing). */

  app.get(
    '/device/audits',
    { schema: { tags: deviceTags, response: { 200: deviceAuditsResponseSchema } } },
    async (request) => results.listDeviceAudits(db, requireDevice(request).storeId),
  );

  app.post(
    '/device/audits/:auditId/results',
    {
      compress: {},
      schema: {
        tags: deviceTags,
        params: auditParams,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) =>
      results.startResult(db, await employeeActor(request), request.params.auditId, null, now()),
  );

  app.get(
    '/device/audit-results/:resultId',
    {
      compress: {},
      schema: {
        tags: deviceTags,
        params: resultParams,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) => {
      const device = requireDevice(request);
      return results.getResult(
        db,
        { kind: 'device', storeId: device.storeId },
        request.params.resultId,
      );
    },
  );

  app.patch(
    '/device/audit-results/:resultId/answers',
    {
      compress: {},
      schema: {
        tags: deviceTags,
        params: resultParams,
        body: saveAnswersBodySchema,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) =>
      results.saveAnswers(
        db,
        await employeeActor(request),
        request.params.resultId,
        request.body.answers,
        now(),
      ),
  );

  app.post(
    '/device/audit-results/:resultId/files',
    {
      schema: {
        tags: deviceTags,
        params: resultParams,
        response: { 200: auditFileResponseSchema },
      },
    },
    async (request) =>
      results.saveAnswerFile(
        db,
        storage,
        await employeeActor(request),
        request.params.resultId,
        request,
      ),
  );

  app.post(
    '/device/audit-results/:resultId/submit',
    {
      compress: {},
      schema: {
        tags: deviceTags,
        params: resultParams,
        response: { 200: auditResultResponseSchema },
      },
    },
    async (request) => {
      const answer = await results.submitResult(
        db,
        await employeeActor(request),
        request.params.resultId,
        now(),
      );
      // The store's country gives the PDF's language (a tablet has no account language).
      const country = await results.storeCountry(db, answer.result.store.id);
      pdfs.prepare(answer.result.id, languageOfCountry(country), request.log);
      return answer;
    },
  );

  await registerAuditExports(app, deps, pdfs);
};
