import { buildApp } from './app';
import { loadConfig } from './config';
import { openConfiguredDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { demoPassword, seedDemo } from './db/seed/demo';
import { demoSeeding, demoWarning, hasDemoAccounts } from './db/seed/demo-policy';
import { demoTabletLines } from './db/seed/demo-tablets';
import { startTaskScheduler } from './modules/tasks/scheduler';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await runMigrations(database);
const app = await buildApp({ config, database });

// Demo accounts share a published password: never created in production (https, NODE_ENV).
const { isSeeding, refusal } = demoSeeding(config, database.driver);
if (refusal) console.warn(refusal);
const seeded = isSeeding ? await seedDemo(database.db) : null;
const isDemo = await hasDemoAccounts(database.db);

await app.listen({ port: config.PORT, host: config.HOST });
// Task generation: a catch-up pass now, then every minute (safe on several instances).
const stopTaskScheduler = startTaskScheduler({ db: database.db, log: app.log });
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
    await app.close();
    await database.close();
    process.exit(0);
  });
}
