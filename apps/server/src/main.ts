import { buildApp } from './app';
import { loadConfig } from './config';
import { openConfiguredDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { demoPassword, seedDemo } from './db/seed/demo';
import { demoSeeding, demoWarning, hasDemoAccounts } from './db/seed/demo-policy';
import { demoTabletLines } from './db/seed/demo-tablets';
import { alertJob } from './modules/alerts/alerts.jobs';
import { inspectorPackJob } from './modules/inspector-pack/inspector-pack.jobs';
import {
  dropExpiredReadingPartitions,
  ensureProbeReadingPartitions,
} from './modules/probes/probes.service';
import { recordsRetentionJob, recordsSealJob } from './modules/records/records-seal.jobs';
import { pullProviderReadings } from './modules/sensors/sensors.service';
import { startTaskScheduler } from './modules/tasks/scheduler';
import { uploadsCleanupJob } from './modules/uploads/uploads.jobs';
import { startJobQueue } from './platform/jobs';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await runMigrations(database);
const app = await buildApp({ config, database });

// Demo accounts share a published password: never created in production (https, NODE_ENV).
const { isSeeding, refusal } = demoSeeding(config, database.driver);
if (refusal) console.warn(refusal);
const seeded = isSeeding ? await seedDemo(database.db, app.deps.storage) : null;
const isDemo = await hasDemoAccounts(database.db);

await app.listen({ port: config.PORT, host: config.HOST });
// This instance's heartbeat, profiling snapshots and answers to the others (app.close() stops it).
await app.profiling.start();
// Task generation: a catch-up pass now, then every minute (safe on several instances).
const stopTaskScheduler = startTaskScheduler({ db: database.db, log: app.log });
// Recurring work on the job queue (pg-boss): each tick runs once across instances.
const jobs = await startJobQueue(
  database,
  [
    {
      // The sensor provider's probes: their new readings, each on its posting interval.
      name: 'sensor-pull',
      cron: '* * * * *',
      handler: async () => {
        await pullProviderReadings(
          database.db,
          app.deps.integrations.sensorProvider,
          app.deps.now(),
          (details, message) => app.log.warn(details, message),
        );
      },
    },
    alertJob(app.deps, app.log),
    uploadsCleanupJob(app.deps, app.log),
    inspectorPackJob(app.deps, app.log),
    recordsSealJob(app.deps, app.log),
    recordsRetentionJob(app.deps, app.log),
    {
      name: 'probe-partitions',
      cron: '17 3 * * *',
      handler: async () => {
        const now = app.deps.now();
        await ensureProbeReadingPartitions(database.db, now);
        const dropped = await dropExpiredReadingPartitions(
          database.db,
          now,
          config.PROBE_RETENTION_MONTHS,
        );
        if (dropped.length > 0) app.log.info({ dropped }, 'probe readings past retention dropped');
      },
    },
  ],
  app.log,
);
const where =
  database.driver === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL';
console.log(`\nMise is running on ${config.PUBLIC_URL} (${where})`);
if (seeded && isDemo) {
  console.log(`Demo log-ins (password ${demoPassword}):`);
  for (const email of seeded.emails) console.log(`  ${email}`);
}
if (isDemo) {
  // The tablet app on the demo: its URL, the demo stores' pairing keys, employees and PINs.
  for (const line of await demoTabletLines(database.db, config.PUBLIC_URL)) console.log(line);
}
if (isDemo) console.warn(`\n${demoWarning()}\n`);

let isClosing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (isClosing) return;
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    await stopTaskScheduler();
    await jobs.stop();
    await app.close();
    await database.close();
    process.exit(0);
  });
}
