import {
  createProbeBodySchema,
  createProbeResponseSchema,
  editProbeBodySchema,
  postReadingsBodySchema,
  postReadingsResponseSchema,
  probeListResponseSchema,
  probeResponseSchema,
  probeStoreParamsSchema,
  probeTemperaturesBodySchema,
  probeTemperaturesResponseSchema,
  probeUidLowerParamsSchema,
  probeUidParamsSchema,
} from '@mise/shared/probes/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { plainJsonSerializer } from '../elements/plain-serializer';
import * as probes from './probes.service';

const tags = ['probes'];

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}

/** Probes (spec 000 §3, §7; issue 15): admin registry, store lists, readings in and out. */
export const probesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, now } = deps;
  const publicUrl = deps.config.PUBLIC_URL;
  const scopeFor = (request: FastifyRequest) => scopeOf(request, db, requireAuth(request).user);
  /** The probes as the API answers them, with their bound elements (one query). */
  const present = async (rows: Parameters<typeof probes.presentProbe>[0][]) => {
    const at = now();
    const elements = await probes.boundElements(db, rows);
    return rows.map((row) => probes.presentProbe(row, at, publicUrl, elements.get(row.id) ?? null));
  };

  // Month partitions of probe_readings, created ahead at every start.
  app.addHook('onReady', async () => {
    await probes.ensureProbeReadingPartitions(db, now());
  });

  app.post(
    '/probes/readings/:probeUid',
    {
      schema: {
        tags,
        params: probeUidLowerParamsSchema,
        body: postReadingsBodySchema,
        response: { 200: postReadingsResponseSchema },
        security: [{ bearer: [] }],
      },
    },
    async (request) => {
      const readings = 'readings' in request.body ? request.body.readings : [request.body];
      return probes.ingestReadings(db, now(), request.params.probeUid, bearerOf(request), readings);
    },
  );

  app.post(
    '/probes',
    {
      schema: { tags, body: createProbeBodySchema, response: { 200: createProbeResponseSchema } },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const { row, secret } = await probes.createProbe(db, scope, request.body);
      return { probe: (await present([row]))[0]!, secret };
    },
  );

  app.get(
    '/probes',
    { schema: { tags, response: { 200: probeListResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      return { items: await present(await probes.listProbes(db, scope)) };
    },
  );

  app.get(
    '/probes/store/:storeId',
    {
      schema: { tags, params: probeStoreParamsSchema, response: { 200: probeListResponseSchema } },
    },
    async (request) => {
      const scope = await scopeFor(request);
      return {
        items: await present(await probes.listStoreProbes(db, scope, request.params.storeId)),
      };
    },
  );

  app.post(
    '/probes/edit/:probeUID',
    {
      schema: {
        tags,
        params: probeUidParamsSchema,
        body: editProbeBodySchema,
        response: { 200: probeResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const row = await probes.editProbe(db, scope, request.params.probeUID, request.body);
      return { probe: (await present([row]))[0]! };
    },
  );

  app.post(
    '/probes/removeOwnership/:probeUID',
    { schema: { tags, params: probeUidParamsSchema, response: { 200: probeResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const row = await probes.removeOwnership(db, scope, request.params.probeUID);
      return { probe: (await present([row]))[0]! };
    },
  );

  app.post(
    '/probes/temperatures/:probeUID',
    {
      schema: {
        tags,
        params: probeUidParamsSchema,
        body: probeTemperaturesBodySchema,
        response: { 200: probeTemperaturesResponseSchema },
      },
      // Up to 1,000 points built in the schema's shape: plain JSON, not zod's encoding.
      serializerCompiler: plainJsonSerializer,
    },
    async (request) => {
      const scope = await scopeFor(request);
      return probes.probeTemperatures(db, scope, request.params.probeUID, request.body);
    },
  );
};
