import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import pino from 'pino';
import { z } from 'zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { countUnresolvedEpisodes } from './modules/alerts/alerts.service';
import { allergensRoutes } from './modules/allergens/allergens.routes';
import { auditsRoutes } from './modules/audits/audits.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { catalogueExportRoutes } from './modules/catalogue-export/catalogue-export.routes';
import { communicationsRoutes } from './modules/communications/communications.routes';
import { databasesRoutes } from './modules/databases/databases.routes';
import { deviceRoutes } from './modules/device/device.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { distributorsRoutes } from './modules/distributors/distributors.routes';
import { documentsRoutes } from './modules/documents/documents.routes';
import { elementsRoutes } from './modules/elements/elements.routes';
import { filesRoutes } from './modules/files/files.routes';
import { flushStorageDeletions } from './modules/files/storage-deletions';
import { historyRoutes } from './modules/history/history.routes';
import { backfillResultAnomalies } from './modules/history/history.service';
import { homeRoutes } from './modules/home/home.routes';
import { inspectorLinksRoutes } from './modules/inspector-links/inspector-links.routes';
import { inspectorPackRoutes } from './modules/inspector-pack/inspector-pack.routes';
import { peopleRoutes } from './modules/people/people.routes';
import { probesRoutes } from './modules/probes/probes.routes';
import { createOutputRing, type OutputRing, teeToRing } from './modules/profiling/output-ring';
import { registerProfiling } from './modules/profiling/profiling.routes';
import { punchCardsRoutes } from './modules/punch-cards/punch-cards.routes';
import { recordsCheckpointRoutes } from './modules/records/checkpoints.routes';
import { recordsRoutes } from './modules/records/records.routes';
import { sensorsRoutes } from './modules/sensors/sensors.routes';
import { shopRoutes } from './modules/shop/shop.routes';
import { stockImagesRoutes } from './modules/stock-images/stock-images.routes';
import { storesRoutes } from './modules/stores/stores.routes';
import { taskConfigurationsRoutes } from './modules/task-configurations/task-configurations.routes';
import { tasksRoutes } from './modules/tasks/tasks.routes';
import { trainingsRoutes } from './modules/trainings/trainings.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { usersRoutes } from './modules/users/users.routes';
import { registerRequestAuth } from './platform/auth/request-auth';
import type { AppDeps } from './platform/deps';
import { AppError, registerErrorHandling, safeError } from './platform/errors';
import { createEventBus } from './platform/events';
import { answersUnderPressure, registerLoadShedding, registerReadiness } from './platform/health';
import { createIntegrations, type Integrations } from './platform/integrations';
import { createMailer, type Mailer } from './platform/mail';
import { registerMetrics } from './platform/metrics';
import { createPushSender, type PushSender } from './platform/push';
import { createLocalStorage, type Storage } from './platform/storage';
import { createS3Storage } from './platform/storage-s3';
import { registerTabletApp } from './platform/tablet-app';
import { registerWebApp } from './platform/web-app';

export type BuildAppOptions = {
  config: Config;
  database: DatabaseHandle;
  mailer?: Mailer;
  storage?: Storage;
  integrations?: Partial<Integrations>;
  /** pino options, or false for none (tests). */
  logger?: boolean | object;
  /** Serve the built web app (off in API tests). */
  isServingWeb?: boolean;
  /** The built web app's folder; default apps/web/dist. */
  webDist?: string;
  /** The built tablet app's folder; default apps/tablet/dist. */
  tabletDist?: string;
  /** The server's clock (tests set the time); default the system clock. */
  now?: () => Date;
  /** Web Push; default VAPID keys from the configuration or DATA_DIR (null: off). */
  push?: PushSender | null;
  /** The instance's recent output, fed by the logger (default a new ring; none without logger). */
  outputRing?: OutputRing;
};

/**
 * The logger's options with its destination (the given stream, else stdout) also feeding the
 * output ring of the admin screen (issue 20); stdout receives the same lines as before.
 */
function withOutputRing(logger: boolean | object, ring: OutputRing): boolean | object {
  if (logger === false) return false;
  const options = (logger === true ? {} : logger) as { stream?: { write(chunk: string): unknown } };
  return { ...options, stream: teeToRing(options.stream ?? pino.destination(1), ring) };
}

/** Request URLs are logged without their query string: login tokens travel there (?token=). */
function serializeRequest(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: request.url.split('?')[0], remoteAddress: request.ip };
}

const webDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const tabletDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../tablet/dist');

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const outputRing = options.outputRing ?? createOutputRing();
  const app = Fastify({
    logger: withOutputRing(
      options.logger === undefined
        ? {
            level: config.LOG_LEVEL,
            // Never log a secret: cookies, bearer tokens and CSRF tokens are redacted.
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'req.headers["x-csrf-token"]',
            ],
            // Errors without the SQL parameters drivers attach (hashes, tokens, personal data).
            serializers: { req: serializeRequest, err: safeError },
          }
        : options.logger,
      outputRing,
    ),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    mailer:
      options.mailer ??
      createMailer({
        db: database.db,
        from: config.MAIL_FROM,
        smtpUrl: config.SMTP_URL,
        logger: app.log,
      }),
    push: options.push === undefined ? createPushSender(config) : options.push,
    storage:
      options.storage ??
      (config.storage.driver === 's3'
        ? createS3Storage(config.storage)
        : createLocalStorage(join(config.DATA_DIR, 'files'))),
    integrations: {
      ...createIntegrations(config, (details, message) => app.log.warn(details, message)),
      ...options.integrations,
    },
    events: createEventBus(database, app.log),
    now: options.now ?? (() => new Date()),
  };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    await deps.events.close();
  });
  // Operations (issue 20): GET /metrics, and load shedding ahead of every other hook.
  const metrics = registerMetrics(app, {
    token: config.METRICS_TOKEN,
    database,
    subscriberCount: () => deps.events.subscriberCount(),
    unresolvedAlertEpisodes: () => countUnresolvedEpisodes(deps.db),
  });
  await registerLoadShedding(app, config, { onShed: (reason) => metrics?.recordShed(reason) });

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Stock image thumbnails come from the provider's image host when one is configured.
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.STOCK_IMAGES_API_KEY ? ['https://images.pexels.com'] : []),
        ],
        // An outside video host: the browser uploads to it and plays from it (VIDEO_HOST_ORIGINS).
        connectSrc: ["'self'", ...config.VIDEO_HOST_ORIGINS],
        mediaSrc: ["'self'", 'blob:', ...config.VIDEO_HOST_ORIGINS],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyRateLimit, { global: false });
  // Large JSON answers (an audit, a result, a CSV) are compressed by the routes that ask for it
  // (route option `compress: {}`); nothing else changes (streams, server-sent events, files).
  await app.register(fastifyCompress, { global: false, encodings: ['br', 'gzip'] });
  await app.register(fastifyMultipart, { limits: { fileSize: 500 * 1024 * 1024, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Mise API', version: '1.0.0' },
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: 'mise_session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerRequestAuth(app, database.db, config);

  app.get(
    '/api/health',
    {
      config: answersUnderPressure,
      schema: {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok'), database: z.string() }) },
      },
    },
    async () => {
      await database.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: database.driver };
    },
  );
  registerReadiness(app, database);
  await app.register(authRoutes, { prefix: '/api', ...deps });
  await app.register(usersRoutes, { prefix: '/api', ...deps });
  await app.register(distributorsRoutes, { prefix: '/api', ...deps });
  await app.register(databasesRoutes, { prefix: '/api', ...deps });
  await app.register(storesRoutes, { prefix: '/api', ...deps });
  await app.register(devicesRoutes, { prefix: '/api', ...deps });
  await app.register(billingRoutes, { prefix: '/api', ...deps });
  await app.register(sensorsRoutes, { prefix: '/api', ...deps });
  await app.register(filesRoutes, { prefix: '/api', ...deps });
  await app.register(elementsRoutes, { prefix: '/api', ...deps });
  await app.register(allergensRoutes, { prefix: '/api', ...deps });
  await app.register(stockImagesRoutes, { prefix: '/api', ...deps });
  await app.register(taskConfigurationsRoutes, { prefix: '/api', ...deps });
  await app.register(catalogueExportRoutes, { prefix: '/api', ...deps });
  await app.register(tasksRoutes, { prefix: '/api', ...deps });
  await app.register(deviceRoutes, { prefix: '/api', ...deps });
  await app.register(historyRoutes, { prefix: '/api', ...deps });
  await app.register(inspectorPackRoutes, { prefix: '/api', ...deps });
  await app.register(inspectorLinksRoutes, { prefix: '/api', ...deps });
  await app.register(homeRoutes, { prefix: '/api', ...deps });
  await app.register(peopleRoutes, { prefix: '/api', ...deps });
  await app.register(punchCardsRoutes, { prefix: '/api', ...deps });
  await app.register(probesRoutes, { prefix: '/api', ...deps });
  await app.register(alertsRoutes, { prefix: '/api', ...deps });
  await app.register(auditsRoutes, { prefix: '/api', ...deps });
  await app.register(communicationsRoutes, { prefix: '/api', ...deps });
  await app.register(trainingsRoutes, { prefix: '/api', ...deps });
  await app.register(documentsRoutes, { prefix: '/api', ...deps });
  await app.register(shopRoutes, { prefix: '/api', ...deps });
  await app.register(recordsRoutes, { prefix: '/api', ...deps });
  await app.register(recordsCheckpointRoutes, { prefix: '/api', ...deps });
  // This process as a server instance: heartbeat, profiling, output (main.ts starts it).
  await registerProfiling(app, deps, outputRing);
  // Resumable uploads (tus) at /api/uploads: its own body handling, nothing parsed.
  await app.register(uploadsRoutes, { prefix: '/api', ...deps });
  // Files whose deletion a save queued but a crash interrupted.
  app.addHook('onReady', async () => {
    await flushStorageDeletions(deps.db, deps.storage);
    // Results written before the anomaly flag existed.
    await backfillResultAnomalies(deps.db);
  });

  const isServingWeb = options.isServingWeb ?? true;
  if (isServingWeb) await registerTabletApp(app, options.tabletDist ?? tabletDist);
  if (!(isServingWeb && (await registerWebApp(app, options.webDist ?? webDist)))) {
    app.setNotFoundHandler(() => {
      throw new AppError('not-found');
    });
  }
  return app;
}
