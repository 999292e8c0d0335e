import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { demoPassword, seedDemo } from '../db/seed/demo';

/** npm run seed: creates the demo organisation (on PostgreSQL too) unless it exists. */
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  await runMigrations(database);
  const { emails, isCreated } = await seedDemo(database.db);
  console.log(isCreated ? 'Demo organisation created.' : 'Demo organisation already present.');
  console.log(`Demo log-ins (password ${demoPassword}): ${emails.join(', ')}`);
} finally {
  await database.close();
}
