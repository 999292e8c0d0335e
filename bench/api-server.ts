/**
 * The API alone for the benchmarks (bench/history.ts, bench/device-send.ts), run in its own
 * process (`node --import tsx`) so the load generator does not share the server's event loop: buildApp on DATABASE_URL
 * (PostgreSQL) or, when unset, on the PGlite database in DATA_DIR/pglite; no logger, no web
 * app and — unlike main.ts — no task scheduler, no migrations and no demo seed, so only the
 * benchmark's requests reach the database. Listens on PORT (0: any free port) and prints
 * `listening <port>` once ready.
 *
 *   DATA_DIR=/tmp/… PORT=0 node --import tsx bench/api-server.ts
 */
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openConfiguredDatabase } from '../apps/server/src/db/client';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
const app = await buildApp({ config, database, logger: false, isServingWeb: false });
await app.listen({ port: config.PORT, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : config.PORT}`);

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
