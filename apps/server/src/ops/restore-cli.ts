import { readArgs } from '../cli/args';
import { loadConfig } from '../config';
import { configuredStorage, embeddedDatabaseMessage, keyPathsOf } from './deployment';
import { PgToolError } from './pg-tools';
import { RestoreRefusedError, restoreDeployment } from './restore';

/** npm run restore -- --from <dir> [--force]: into an empty database and storage, then checked. */
const argv = process.argv.slice(2);
const isForced = argv.includes('--force');
const args = readArgs(argv.filter((arg) => arg !== '--force'));
const config = loadConfig();
if (!args.from) {
  console.error('Usage: npm run restore -- --from <backup folder> [--force]');
  process.exit(2);
}
if (!config.DATABASE_URL) {
  console.error(embeddedDatabaseMessage(config, 'restore'));
  process.exit(2);
}
const { storage, lister, close } = configuredStorage(config);
const startedAt = performance.now();
try {
  const report = await restoreDeployment({
    fromDir: args.from,
    databaseUrl: config.DATABASE_URL,
    storage,
    lister,
    keyPaths: keyPathsOf(config),
    isForced,
    log: (line) => console.log(line),
  });
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  if (report.mismatches.length > 0) {
    console.error(`Restored in ${seconds} s, but it differs from the backup:`);
    for (const line of report.mismatches) console.error(`  ${line}`);
    process.exitCode = 1;
  } else {
    console.log(
      `Restored in ${seconds} s and verified: ${report.tables} tables, ${report.rows} rows, ${report.objects} objects (${report.bytes} bytes) as in the backup of ${report.manifest.createdAt}.`,
    );
    console.log('Start the server (same or newer version): it applies any newer migration.');
  }
} catch (error) {
  if (error instanceof RestoreRefusedError || error instanceof PgToolError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
} finally {
  close();
}
