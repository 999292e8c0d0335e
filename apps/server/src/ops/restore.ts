import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import pg from 'pg';
import type { StorageLister } from '../modules/uploads/unreferenced-files';
import type { Storage } from '../platform/storage';
import {
  type BackupManifest,
  type DataDirKeyFile,
  dataDirFolder,
  dataDirKeyFiles,
  forEachLimited,
  hashFile,
  isBackedUpKey,
  manifestFile,
  manifestFormat,
  type ObjectEntry,
  objectPath,
  parseObjectIndex,
} from './backup-format';
import { countTableRows, listUserTables, readMigrationJournal } from './inventory';
import { connectionOf, runPgTool, toolMajorVersion } from './pg-tools';

export type RestoreOptions = {
  /** A folder written by backupDeployment. */
  fromDir: string;
  /** The database to restore into: a new, empty one (the deployment's DATABASE_URL). */
  databaseUrl: string;
  /** The deployment's storage (both drivers) and what it holds. */
  storage: Storage;
  lister: StorageLister;
  /** Where each key file of DATA_DIR goes when its key comes from there, else null. */
  keyPaths: Partial<Record<DataDirKeyFile, string | null>>;
  /**
   * Restore into a database or storage that is not empty: every schema of the database is
   * dropped first, stored objects of the same key are replaced (others stay).
   */
  isForced?: boolean;
  concurrency?: number;
  log?: (line: string) => void;
};

export type RestoreReport = {
  manifest: BackupManifest;
  tables: number;
  rows: number;
  objects: number;
  bytes: number;
  /** What differs from the manifest after the restore (empty when all is equal). */
  mismatches: string[];
};

/** The restore cannot start (backup damaged, target not empty…): nothing was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

async function readManifest(fromDir: string): Promise<BackupManifest> {
  const path = join(fromDir, manifestFile);
  if (!existsSync(path)) {
    throw new RestoreRefusedError(
      `${path} is missing: ${fromDir} is not a complete backup (the manifest is written last).`,
    );
  }
  const manifest = JSON.parse(await readFile(path, 'utf8')) as BackupManifest;
  if (manifest.format !== manifestFormat) {
    throw new RestoreRefusedError(
      `${path} is not a backup of this format (${String(manifest.format)}, expected ${manifestFormat}).`,
    );
  }
  return manifest;
}

/** Checks the dump's checksum and that every object file is there, before anything changes. */
async function checkBackup(fromDir: string, manifest: BackupManifest): Promise<ObjectEntry[]> {
  const dump = await hashFile(join(fromDir, manifest.database.dumpFile)).catch(() => null);
  if (!dump || dump.sha256 !== manifest.database.dumpSha256) {
    throw new RestoreRefusedError(
      `${manifest.database.dumpFile} is missing or damaged (its SHA-256 differs from the manifest's).`,
    );
  }
  const entries = parseObjectIndex(
    await readFile(join(fromDir, manifest.storage.indexFile), 'utf8'),
  );
  if (entries.length !== manifest.storage.objects) {
    throw new RestoreRefusedError(
      `${manifest.storage.indexFile} lists ${entries.length} objects, the manifest ${manifest.storage.objects}.`,
    );
  }
  for (const entry of entries) {
    const found = await stat(objectPath(fromDir, entry.key)).catch(() => null);
    if (found?.size !== entry.size) {
      throw new RestoreRefusedError(
        `objects/${entry.key} is missing or not of ${entry.size} bytes: the backup is damaged.`,
      );
    }
  }
  return entries;
}

async function firstStoredKey(lister: StorageLister): Promise<string | null> {
  for await (const { key } of lister.objects('')) {
    if (isBackedUpKey(key)) return key;
  }
  return null;
}

/** Drops every schema of the database (a forced restore), leaving an empty public schema. */
async function emptyDatabase(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
      WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'`,
  );
  await client.query('BEGIN');
  for (const { name } of rows) {
    await client.query(`DROP SCHEMA ${pg.escapeIdentifier(name)} CASCADE`);
  }
  await client.query('CREATE SCHEMA public');
  await client.query('COMMIT');
}

/**
 * Restores a backup: pg_restore into an empty database (in one transaction: a failure leaves it
 * empty), every object back into the storage, then counts the rows of every table and the
 * objects' sizes against the manifest.
 */
export async function restoreDeployment(options: RestoreOptions): Promise<RestoreReport> {
  const log = options.log ?? (() => {});
  const fromDir = resolve(options.fromDir);
  const manifest = await readManifest(fromDir);
  log(
    `backup of ${manifest.createdAt} (version ${manifest.appVersion}, ${manifest.database.migrations.applied} migrations)`,
  );
  const entries = await checkBackup(fromDir, manifest);
  toolMajorVersion('pg_restore');
  const journal = await readMigrationJournal();
  if (manifest.database.migrations.applied > journal.length) {
    log(
      `warning: the backup's database has ${manifest.database.migrations.applied} migrations, this code knows ${journal.length}: run the version that made it (${manifest.appVersion}) or newer on it.`,
    );
  }

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const tables = await listUserTables(client);
    const storedKey = await firstStoredKey(options.lister);
    if (!options.isForced && (tables.length > 0 || storedKey)) {
      const found = [
        tables.length > 0
          ? `the database ${client.database} is not empty (${tables.length} relations: ${tables.slice(0, 3).join(', ')}${tables.length > 3 ? ', …' : ''})`
          : null,
        storedKey ? `the storage holds objects (${storedKey}, …)` : null,
      ].filter(Boolean);
      throw new RestoreRefusedError(
        `Refusing to restore: ${found.join(' and ')}. Restore into a new empty database (createdb) and an empty storage (a new DATA_DIR or bucket), or pass --force to drop every schema of this database and overwrite the stored objects.`,
      );
    }
    if (tables.length > 0) {
      log(`--force: dropping every schema of ${client.database} (${tables.length} relations)…`);
      await emptyDatabase(client);
    }
  } finally {
    await client.end();
  }

  log('restoring the database…');
  const connection = connectionOf(options.databaseUrl);
  await runPgTool(
    'pg_restore',
    [
      // Objects owned by the user of DATABASE_URL, the one the server connects as.
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      `--dbname=${connection.url}`,
      join(fromDir, manifest.database.dumpFile),
    ],
    connection.env,
  );

  log(`restoring ${entries.length} objects…`);
  const mismatches: string[] = [];
  await forEachLimited(entries, options.concurrency ?? 4, async (entry) => {
    const sha256 = await putObject(options.storage, entry.key, objectPath(fromDir, entry.key));
    if (sha256 !== entry.sha256) mismatches.push(`object ${entry.key}: its bytes changed`);
  });

  for (const file of dataDirKeyFiles) {
    const path = options.keyPaths[file];
    if (!manifest.dataDirFiles.includes(file) || !path) continue;
    if (!existsSync(path) || options.isForced) {
      await mkdir(dirname(path), { recursive: true });
      await copyFile(join(fromDir, dataDirFolder, file), path);
      await chmod(path, 0o600);
    } else {
      log(`${path} exists and was kept (--force replaces it)`);
    }
  }

  log('verifying…');
  const verifier = new pg.Client({ connectionString: options.databaseUrl });
  await verifier.connect();
  const counts = await countTableRows(verifier).finally(() => verifier.end());
  for (const [table, expected] of Object.entries(manifest.database.tables)) {
    const found = counts[table];
    if (found !== expected) {
      mismatches.push(`table ${table}: ${found ?? 'missing'} rows, the backup had ${expected}`);
    }
  }
  for (const table of Object.keys(counts)) {
    if (!(table in manifest.database.tables)) mismatches.push(`table ${table}: not in the backup`);
  }
  let bytes = 0;
  await forEachLimited(entries, options.concurrency ?? 4, async (entry) => {
    const found = await options.storage.stat(entry.key);
    if (found?.size !== entry.size) {
      mismatches.push(
        `object ${entry.key}: ${found?.size ?? 'missing'} bytes, expected ${entry.size}`,
      );
    } else {
      bytes += found.size;
    }
  });
  return {
    manifest,
    tables: Object.keys(counts).length,
    rows: Object.values(counts).reduce((sum, count) => sum + count, 0),
    objects: entries.length,
    bytes,
    mismatches,
  };
}

/** Puts a backed-up file under its key; answers the SHA-256 of the bytes sent. */
async function putObject(storage: Storage, key: string, path: string): Promise<string> {
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const source = createReadStream(path);
  source.on('error', (error) => hashing.destroy(error));
  await storage.putStream(key, source.pipe(hashing));
  return hash.digest('hex');
}
