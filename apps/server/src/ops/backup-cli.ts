import { readArgs } from '../cli/args';
import { loadConfig } from '../config';
import { instanceVersion } from '../modules/profiling/server-instance';
import { BackupRefusedError, backupDeployment } from './backup';
import { configuredStorage, embeddedDatabaseMessage, keyPathsOf } from './deployment';
import { PgToolError } from './pg-tools';

/** npm run backup -- --out <dir>: the database (pg_dump) and every stored object. */
const args = readArgs(process.argv.slice(2));
const config = loadConfig();
if (!args.out) {
  console.error('Usage: npm run backup -- --out <new or empty folder>');
  process.exit(2);
}
if (!config.DATABASE_URL) {
  console.error(embeddedDatabaseMessage(config, 'backup'));
  process.exit(2);
}
const { storage, lister, close } = configuredStorage(config);
const startedAt = performance.now();
try {
  const manifest = await backupDeployment({
    databaseUrl: config.DATABASE_URL,
    outDir: args.out,
    storage,
    lister,
    storageDriver: config.storage.driver,
    appVersion: instanceVersion(config.MISE_VERSION),
    keyPaths: keyPathsOf(config),
    log: (line) => console.log(line),
  });
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `Backup written to ${args.out} in ${seconds} s: ${Object.keys(manifest.database.tables).length} tables, ${manifest.database.rows} rows, ${manifest.storage.objects} objects (${manifest.storage.bytes} bytes).`,
  );
  if (manifest.storage.vanished > 0) {
    console.warn(`${manifest.storage.vanished} objects were deleted while the backup ran.`);
  }
} catch (error) {
  if (error instanceof BackupRefusedError || error instanceof PgToolError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
} finally {
  close();
}
