import { join } from 'node:path';
import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { demoPassword, seedDemo } from '../db/seed/demo';
import { demoSeeding, demoWarning } from '../db/seed/demo-policy';
import { createLocalStorage } from '../platform/storage';
import { createS3Storage } from '../platform/storage-s3';

/** npm run seed: creates the demo organisation (on PostgreSQL too) unless it exists. */
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const { refusal } = demoSeeding({ ...config, SEED_DEMO: true }, database.driver);
  if (refusal) {
    console.error(refusal);
    process.exitCode = 1;
  } else {
    await seed();
  }
} finally {
  await database.close();
}

async function seed() {
  await runMigrations(database);
  // The app's storage, as buildApp makes it: the demo's attachments go where the server reads.
  const s3 = config.storage.driver === 's3' ? createS3Storage(config.storage) : null;
  const storage = s3 ?? createLocalStorage(join(config.DATA_DIR, 'files'));
  const { emails, isCreated } = await seedDemo(database.db, storage).finally(() =>
    s3?.client.destroy(),
  );
  console.log(isCreated ? 'Demo organisation created.' : 'Demo organisation already present.');
  console.log(`Demo log-ins (password ${demoPassword}): ${emails.join(', ')}`);
  console.warn(demoWarning());
}
