import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { StorageLister } from '../modules/uploads/unreferenced-files';
import type { Storage } from '../platform/storage';
import {
  type BackupManifest,
  type DataDirKeyFile,
  dataDirFolder,
  dataDirKeyFiles,
  dumpFile,
  forEachLimited,
  formatObjectIndex,
  hashFile,
  isBackedUpKey,
  manifestFile,
  manifestFormat,
  type ObjectEntry,
  objectIndexFile,
  objectPath,
} from './backup-format';
import { countTableRows, readMigrationState } from './inventory';
import { connectionOf, runPgTool, toolMajorVersion } from './pg-tools';

export type BackupOptions = {
  /** The PostgreSQL database to dump (the deployment's DATABASE_URL). */
  databaseUrl: string;
  /** A new or empty folder to write the backup to. */
  outDir: string;
  /** The deployment's storage, and what it holds (both drivers). */
  storage: Storage;
  lister: StorageLister;
  storageDriver: 'local' | 's3';
  /** The version of the server that backs up (MISE_VERSION or the git commit). */
  appVersion: string;
  /**
   * The key files of DATA_DIR to carry, where they are (null: the key comes from the
   * environment): vapid.json (VAPID_* unset), records-signing.key (RECORDS_SIGNING_KEY unset).
   */
  keyPaths: Partial<Record<DataDirKeyFile, string | null>>;
  /** Objects read at a time (S3 round trips overlap). */
  concurrency?: number;
  log?: (line: string) => void;
};

/** The backup cannot start (folder not empty, tools missing…): nothing was written. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

async function assertEmptyFolder(path: string): Promise<void> {
  const entries = await readdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) {
    throw new BackupRefusedError(
      `${path} is not empty: give a new folder for each backup (e.g. one named after the date).`,
    );
  }
}

/**
 * Backs up a deployment on PostgreSQL: a pg_dump of the database (custom format), the row count
 * of every table taken in the same snapshot, then a copy of every stored object, and the
 * manifest. Objects are copied after the snapshot: one written meanwhile is copied too (an
 * orphan after a restore, which the uploads sweep removes), one deleted meanwhile is counted as
 * vanished.
 */
export async function backupDeployment(options: BackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  const outDir = resolve(options.outDir);
  await assertEmptyFolder(outDir);
  const dumpMajor = toolMajorVersion('pg_dump');

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let database: BackupManifest['database'];
  try {
    const { rows: versions } = await client.query<{ version: string; number: string }>(
      "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS number",
    );
    const serverVersion = versions[0]!.version;
    const serverMajor = Math.floor(Number(versions[0]!.number) / 10_000);
    if (dumpMajor < serverMajor) {
      throw new BackupRefusedError(
        `pg_dump ${dumpMajor} cannot dump a PostgreSQL ${serverMajor} server: install the client programs of version ${serverMajor} or newer (postgresql-client-${serverMajor}).`,
      );
    }
    await mkdir(outDir, { recursive: true });

    // One snapshot for the dump and the counts: the manifest describes exactly what was dumped.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ snapshot: string }>(
      'SELECT pg_export_snapshot() AS snapshot',
    );
    const connection = connectionOf(options.databaseUrl);
    const dumpPath = join(outDir, dumpFile);
    log('dumping the database…');
    const [, { counts: tables, migrations }] = await Promise.all([
      runPgTool(
        'pg_dump',
        [
          '--format=custom',
          `--snapshot=${rows[0]!.snapshot}`,
          `--file=${dumpPath}`,
          `--dbname=${connection.url}`,
        ],
        connection.env,
      ),
      // One client runs one query at a time: the counts, then the migrations' record.
      countTableRows(client).then(async (counts) => ({
        counts,
        migrations: await readMigrationState(client),
      })),
    ]);
    await client.query('COMMIT');
    const dump = await hashFile(dumpPath);
    database = {
      serverVersion,
      dumpFile,
      dumpBytes: dump.size,
      dumpSha256: dump.sha256,
      migrations,
      tables,
      rows: Object.values(tables).reduce((sum, count) => sum + count, 0),
    };
    log(
      `database: ${Object.keys(tables).length} tables, ${database.rows} rows, dump of ${dump.size} bytes`,
    );
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }

  log('copying the stored objects…');
  const entries: ObjectEntry[] = [];
  let skipped = 0;
  let vanished = 0;
  await forEachLimited(options.lister.objects(''), options.concurrency ?? 4, async ({ key }) => {
    if (!isBackedUpKey(key)) {
      skipped++;
      return;
    }
    const entry = await copyObjectOut(options.storage, key, outDir);
    if (entry) entries.push(entry);
    else vanished++;
  });
  entries.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
  await writeFile(join(outDir, objectIndexFile), formatObjectIndex(entries));
  const bytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  log(`storage: ${entries.length} objects, ${bytes} bytes`);

  const dataDirFiles: string[] = [];
  for (const file of dataDirKeyFiles) {
    const path = options.keyPaths[file];
    if (!path || !existsSync(path)) continue;
    await mkdir(join(outDir, dataDirFolder), { recursive: true });
    const target = join(outDir, dataDirFolder, file);
    await copyFile(path, target);
    await chmod(target, 0o600);
    dataDirFiles.push(file);
  }

  const manifest: BackupManifest = {
    format: manifestFormat,
    createdAt: new Date().toISOString(),
    appVersion: options.appVersion,
    database,
    storage: {
      driver: options.storageDriver,
      objects: entries.length,
      bytes,
      indexFile: objectIndexFile,
      skipped,
      vanished,
    },
    dataDirFiles,
  };
  // Written last, through a rename: a folder with a manifest holds a complete backup.
  const manifestPath = join(outDir, manifestFile);
  await writeFile(`${manifestPath}.partial`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${manifestPath}.partial`, manifestPath);
  return manifest;
}

/** Copies one object to objects/<key>; null when it is gone. */
async function copyObjectOut(
  storage: Storage,
  key: string,
  outDir: string,
): Promise<ObjectEntry | null> {
  const file = await storage.get(key);
  if (!file) return null;
  const path = objectPath(outDir, key);
  await mkdir(dirname(path), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    file.stream,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    createWriteStream(path),
  );
  return { sha256: hash.digest('hex'), size, key };
}
