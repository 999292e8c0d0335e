/**
 * The API alone for bench/history.ts, run in its own process (`node --import tsx`): buildApp
 * on DATABASE_URL, no logger, no web app, and — unlike main.ts — no task scheduler, no
 * migrations and no demo seed, so only the benchmark's requests reach the database.
 *
 *   DATABASE_URL=postgres://… PORT=3311 node --import tsx bench/history-server.ts
 */
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openConfiguredDatabase } from '../apps/server/src/db/client';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required (PostgreSQL only)');
const database = await openConfiguredDatabase(config);
const app = await buildApp({ config, database, logger: false, isServingWeb: false });
await app.listen({ port: config.PORT, host: '127.0.0.1' });

let isClosing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (isClosing) return;
    isClosing = true;
    await app.close();
    await database.close();
    process.exit(0);
  });
}
