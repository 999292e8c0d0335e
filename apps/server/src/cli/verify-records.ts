import { verifyRecordsQuerySchema } from '@mise/shared/records/schemas';
import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/client';
import { recordsSigningKey } from '../modules/records/signing';
import { verifyStorePeriod } from '../modules/records/verify';
import { findStoreInScope } from '../modules/stores/stores.service';
import { AppError } from '../platform/errors';
import type { Scope } from '../platform/scope';
import { readArgs } from './args';

/**
 * npm run verify-records -- --store <id> [--from YYYY-MM-DD] [--to YYYY-MM-DD]: verifies a
 * store's records chain (issue 21) over its days from `from` to `to`, both included, in the
 * store's time zone (default: the whole chain). Prints the answer as JSON; exit code 0 intact,
 * 1 broken, 2 usage (or an unknown store), 3 when it could not verify (database unreachable). On the embedded database, stop the server first
 * (PGlite has one process); on PostgreSQL it runs beside the servers and only reads.
 */
const usage =
  'Usage: npm run verify-records -- --store <store id> [--from YYYY-MM-DD] [--to YYYY-MM-DD]';
const args = readArgs(process.argv.slice(2));
const query = verifyRecordsQuerySchema.safeParse({
  storeId: args.store,
  ...(args.from !== undefined ? { from: args.from } : {}),
  ...(args.to !== undefined ? { to: args.to } : {}),
});
const unknown = Object.keys(args).filter((key) => !['store', 'from', 'to'].includes(key));
if (!query.success || unknown.length > 0) {
  console.error(usage);
  process.exit(2);
}

/** The command line sees every store, as an admin does. */
const cliScope: Scope = {
  userId: 'verify-records',
  role: 'admin',
  isAll: true,
  distributorIds: [],
  databaseIds: [],
  ownedStoreIds: [],
};

const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const store = await findStoreInScope(database.db, cliScope, query.data.storeId);
  const answer = await verifyStorePeriod(database.db, store, query.data, recordsSigningKey(config));
  console.log(JSON.stringify(answer, null, 2));
  process.exitCode = answer.status === 'intact' ? 0 : 1;
} catch (error) {
  if (error instanceof AppError && error.code === 'not-found') {
    console.error(`No store ${query.data.storeId}.`);
    process.exitCode = 2;
  } else {
    console.error('Could not verify:', error instanceof Error ? error.message : error);
    process.exitCode = 3;
  }
} finally {
  await database.close();
}
