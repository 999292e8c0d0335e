import {
  profilingLiveQuerySchema,
  profilingLiveResponseSchema,
  profilingOutputQuerySchema,
  profilingOutputResponseSchema,
  serverInstancesResponseSchema,
} from '@mise/shared/operations/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import type { OutputRing } from './output-ring';
import { findInstance, listInstances, listSnapshots } from './profiling.service';
import { createServerInstance, type ServerInstance } from './server-instance';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process as a server instance: main.ts starts it, app.close() stops it. */
    profiling: ServerInstance;
  }
}

type ProfilingRoutesOptions = AppDeps & { instance: ServerInstance };

/** The admin technical screen's server calls (spec 002 §7, issue 20). Admin only. */
export const profilingRoutes: FastifyPluginAsyncZod<ProfilingRoutesOptions> = async (
  app,
  { db, instance },
) => {
  const requireAdmin = async (request: FastifyRequest) => {
    const scope = await scopeOf(request, db, requireAuth(request).user);
    if (scope.role !== 'admin') throw forbidden();
  };
  /** The instance asked about (default: this one); another must be known. */
  const instanceFor = async (instanceId: string | undefined) => {
    if (instanceId === undefined || instanceId === instance.identity.id) {
      return { id: instance.identity.id, isCurrent: true, isLive: true };
    }
    const found = await findInstance(db, instanceId);
    if (!found) throw notFound();
    return { id: found.id, isCurrent: false, isLive: found.is_live };
  };

  app.get(
    '/profiling/instances',
    {
      schema: { tags: ['profiling'], response: { 200: serverInstancesResponseSchema } },
    },
    async (request) => {
      await requireAdmin(request);
      return { items: await listInstances(db, instance.identity.id) };
    },
  );

  app.get(
    '/profiling/live',
    {
      schema: {
        tags: ['profiling'],
        querystring: profilingLiveQuerySchema,
        response: { 200: profilingLiveResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const target = await instanceFor(request.query.instanceId);
      return { instance_id: target.id, items: await listSnapshots(db, target.id) };
    },
  );

  app.get(
    '/profiling/output',
    {
      schema: {
        tags: ['profiling'],
        querystring: profilingOutputQuerySchema,
        response: { 200: profilingOutputResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const { instanceId, after, level } = request.query;
      const target = await instanceFor(instanceId);
      if (target.isCurrent)
        return { instance_id: target.id, ...instance.ring.read({ after, level }) };
      // A stopped or silent instance cannot answer: no need to wait for the relay's timeout.
      if (!target.isLive) throw new AppError('profiling/instance-unreachable');
      const answer = profilingOutputResponseSchema.safeParse(
        await instance.relay.ask(target.id, { kind: 'output', after, level }),
      );
      if (!answer.success) throw new AppError('profiling/instance-unreachable');
      return answer.data;
    },
  );
};

/**
 * Makes this process's server instance (fed by the logger's output ring), registers the
 * profiling routes, exposes it as `app.profiling` and stops it when the app closes.
 */
export async function registerProfiling(
  app: FastifyInstance,
  deps: AppDeps,
  ring: OutputRing,
): Promise<ServerInstance> {
  const instance = createServerInstance({
    database: deps.database,
    ring,
    version: deps.config.MISE_VERSION,
    log: app.log,
  });
  app.decorate('profiling', instance);
  app.addHook('onClose', async () => {
    await instance.stop();
  });
  await app.register(profilingRoutes, { prefix: '/api', ...deps, instance });
  return instance;
}
