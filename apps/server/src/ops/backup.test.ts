import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { addDays, dayInZone } from '@mise/shared/tasks/rules';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { stores } from '../db/schema';
import { demoEmails, demoPassword, seedDemo } from '../db/seed/demo';
import { recordsSigningKey } from '../modules/records/signing';
import { createLocalLister, createS3Lister } from '../modules/uploads/unreferenced-files';
import { createLocalStorage } from '../platform/storage';
import { createS3Storage } from '../platform/storage-s3';
import { signIn } from '../test/harness';
import { adminDatabaseUrl, withDatabase } from '../test/pg-urls';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { backupDeployment } from './backup';
import { countTableRows } from './inventory';
import { RestoreRefusedError, restoreDeployment } from './restore';

/*
 * A deployment backed up and restored (issue 20): the demo organisation on PostgreSQL with its
 * files on the local disk, `backupDeployment` (pg_dump + every object), `restoreDeployment` into
 * a new empty database and an empty DATA_DIR; then every table's row count, a history page's
 * bytes served by an app on each database, and every object's bytes must be equal.
 */

const isPostgres = process.env.TEST_DB === 'pg';

type Side = { name: string; url: string; dataDir: string; config: Config };

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function sideOf(name: string): Side {
  const dataDir = mkdtempSync(join(tmpdir(), 'mise-backup-'));
  const url = withDatabase(name);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    PUBLIC_URL: 'http://mise.test',
  });
  return { name, url, dataDir, config };
}

async function startApp(side: Side, handle: DatabaseHandle): Promise<FastifyInstance> {
  const app = await buildApp({
    config: side.config,
    database: handle,
    logger: false,
    isServingWeb: false,
  });
  await app.ready();
  return app;
}

/** Every file under a folder: its path relative to the folder, and its bytes. */
async function filesUnder(root: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.set(relative(root, path), await readFile(path));
  }
  return found;
}

describe.skipIf(!isPostgres)(
  'backup and restore of a deployment (pg_dump/pg_restore need PostgreSQL: skipped on PGlite)',
  () => {
    let source: Side;
    let target: Side;
    let s3Target: Side;
    let backupDir: string;
    const s3Servers: TestS3Server[] = [];
    const handles: DatabaseHandle[] = [];
    const apps: FastifyInstance[] = [];
    let sourceApp: FastifyInstance;

    beforeAll(async () => {
      const prefix = inject('pgRunPrefix');
      const suffix = randomBytes(4).toString('hex');
      // Both names carry the run's prefix: the global teardown drops them if this file dies.
      source = sideOf(`${prefix}backup_src_${suffix}`);
      target = sideOf(`${prefix}backup_dst_${suffix}`);
      s3Target = sideOf(`${prefix}backup_s3_${suffix}`);
      backupDir = mkdtempSync(join(tmpdir(), 'mise-backup-out-'));
      await admin(async (client) => {
        await client.query(`CREATE DATABASE "${source.name}" TEMPLATE "${inject('pgTemplate')}"`);
        // The restore's target: a new database, as `createdb` makes it.
        await client.query(`CREATE DATABASE "${target.name}"`);
        await client.query(`CREATE DATABASE "${s3Target.name}"`);
      });
      const handle = await openDatabase({ driver: 'pg', url: source.url, poolSize: 5 });
      handles.push(handle);
      sourceApp = await startApp(source, handle);
      apps.push(sourceApp);
      // The demo organisation, its communication and training PDFs in the app's storage…
      await seedDemo(handle.db, sourceApp.deps.storage);
      // …and objects of other shapes: 1 MB of random bytes, an empty file, a deep key.
      await sourceApp.deps.storage.put('trainings/backup-test/random.bin', randomBytes(1 << 20));
      await sourceApp.deps.storage.put('stores/backup-test/documents/a/empty.txt', Buffer.alloc(0));
      await sourceApp.deps.storage.put(
        'stores/backup-test/documents/a/b/c/creme-brulee.txt',
        Buffer.from('Crème brûlée, 4 °C\n'),
      );
    });

    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const server of s3Servers) await server.close();
      for (const handle of handles) await handle.close();
      await admin(async (client) => {
        for (const side of [source, target, s3Target]) {
          if (side) await client.query(`DROP DATABASE IF EXISTS "${side.name}" WITH (FORCE)`);
        }
      });
      for (const dir of [source?.dataDir, target?.dataDir, s3Target?.dataDir, backupDir]) {
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    });

    it('restores into a new database and storage the same rows, history page and file bytes', async () => {
      const startedAt = performance.now();
      const sourceFiles = join(source.dataDir, 'files');
      // The records key (tombstones of the retention job) made once in DATA_DIR.
      recordsSigningKey(sourceApp.deps.config);
      const manifest = await backupDeployment({
        databaseUrl: source.url,
        outDir: backupDir,
        storage: sourceApp.deps.storage,
        lister: createLocalLister(sourceFiles),
        storageDriver: 'local',
        appVersion: 'backup-test',
        keyPaths: {
          'vapid.json': join(source.dataDir, 'vapid.json'),
          'records-signing.key': join(source.dataDir, 'records-signing.key'),
        },
      });
      const backedUpAt = performance.now();

      // The manifest counts what the database holds.
      const sourceClient = new pg.Client({ connectionString: source.url });
      await sourceClient.connect();
      const sourceCounts = await countTableRows(sourceClient).finally(() => sourceClient.end());
      // (server_* rows are an instance's heartbeat and samples: written on their own clock.)
      const steady = (counts: Record<string, number>) =>
        Object.fromEntries(
          Object.entries(counts).filter(([table]) => !table.startsWith('public.server_')),
        );
      expect(steady(manifest.database.tables)).toEqual(steady(sourceCounts));
      expect(manifest.database.tables['public.tasks']).toBeGreaterThan(500);
      expect(manifest.database.tables['public.users']).toBeGreaterThanOrEqual(4);
      expect(manifest.database.migrations.applied).toBe(
        manifest.database.tables['drizzle.__drizzle_migrations'],
      );
      expect(manifest.database.migrations.last).toMatch(/^\d{4}_/);
      const originalFiles = await filesUnder(sourceFiles);
      expect(manifest.storage.objects).toBe(originalFiles.size);
      expect(manifest.storage.objects).toBeGreaterThanOrEqual(5);
      expect(manifest.storage.bytes).toBeGreaterThan(1 << 20);
      expect(manifest.dataDirFiles).toEqual(['vapid.json', 'records-signing.key']);
      expect(manifest.appVersion).toBe('backup-test');

      const targetStorage = createLocalStorage(join(target.dataDir, 'files'));
      const report = await restoreDeployment({
        fromDir: backupDir,
        databaseUrl: target.url,
        storage: targetStorage,
        lister: createLocalLister(join(target.dataDir, 'files')),
        keyPaths: {
          'vapid.json': join(target.dataDir, 'vapid.json'),
          'records-signing.key': join(target.dataDir, 'records-signing.key'),
        },
      });
      const restoredAt = performance.now();
      expect(report.mismatches).toEqual([]);

      // Every table, row for row in number, before any server touches the restored database.
      const targetHandle = await openDatabase({ driver: 'pg', url: target.url, poolSize: 5 });
      handles.push(targetHandle);
      const restoredCounts = await targetHandle
        .pool!.connect()
        .then((client) => countTableRows(client).finally(() => client.release()));
      expect(restoredCounts).toEqual(manifest.database.tables);

      // Every object, byte for byte, under the same key; the Web Push keys too.
      const restoredFiles = await filesUnder(join(target.dataDir, 'files'));
      expect([...restoredFiles.keys()].sort()).toEqual([...originalFiles.keys()].sort());
      for (const [key, bytes] of originalFiles) {
        expect(restoredFiles.get(key)!.equals(bytes), key).toBe(true);
      }
      for (const file of ['vapid.json', 'records-signing.key']) {
        expect(await readFile(join(target.dataDir, file), 'utf8'), file).toBe(
          await readFile(join(source.dataDir, file), 'utf8'),
        );
      }

      // The restored database is at the code's last migration: starting on it migrates nothing.
      await runMigrations(targetHandle);
      const restoredApp = await startApp(target, targetHandle);
      apps.push(restoredApp);

      // A week of Lyon's history, every task, asked of an app on each database.
      const [lyon] = await targetHandle.db
        .select({ id: stores.id, zone: stores.timezone_name })
        .from(stores)
        .where(eq(stores.name, 'Bistro Lyon Bellecour'));
      const yesterday = addDays(dayInZone(new Date(), lyon!.zone), -1);
      const url = `/api/stores/${lyon!.id}/history?${new URLSearchParams({
        start: addDays(yesterday, -6),
        end: yesterday,
        module: 'temperatures',
        filter: 'all',
        limit: '200',
      })}`;
      const agents = await Promise.all(
        [sourceApp, restoredApp].map((app) => signIn(app, demoEmails.admin, demoPassword)),
      );
      const pages = await Promise.all(
        agents.map(async (agent) => {
          const response = await agent.inject({ method: 'GET', url });
          expect(response.statusCode).toBe(200);
          return response.rawPayload;
        }),
      );
      expect(JSON.parse(pages[0]!.toString('utf8')).items.length).toBeGreaterThan(5);
      expect(pages[1]!.equals(pages[0]!)).toBe(true);

      // A demo communication's PDF, served by the restored app as it was stored.
      const pdfKey = [...originalFiles.keys()].find(
        (key) => key.startsWith('databases/') && key.endsWith('.pdf'),
      )!;
      const served = await agents[1]!.inject({ method: 'GET', url: `/api/files/${pdfKey}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(originalFiles.get(pdfKey)!)).toBe(true);

      console.info(
        `backup ${Math.round(backedUpAt - startedAt)} ms, restore and verification ${Math.round(restoredAt - backedUpAt)} ms (${Object.keys(manifest.database.tables).length} tables, ${manifest.database.rows} rows, dump ${manifest.database.dumpBytes} bytes, ${manifest.storage.objects} objects)`,
      );
    });

    it('backs up and restores the objects of an S3 bucket, leaving unfinished uploads out', async () => {
      const [from, to] = await Promise.all([startS3Server(), startS3Server()]);
      s3Servers.push(from, to);
      const fromStorage = createS3Storage(from.options);
      const toStorage = createS3Storage(to.options);
      try {
        const originals = await filesUnder(join(source.dataDir, 'files'));
        for (const [key, bytes] of originals) await fromStorage.put(key, bytes);
        // An upload in progress (the tus area): transient, not backed up.
        await fromStorage.put('uploads/partial/0123456789abcdef0123456789abcdef', Buffer.from('x'));
        const outDir = join(mkdtempSync(join(tmpdir(), 'mise-backup-s3-')), 'backup');
        const manifest = await backupDeployment({
          databaseUrl: source.url,
          outDir,
          storage: fromStorage,
          lister: createS3Lister(fromStorage.client, from.bucket),
          storageDriver: 's3',
          appVersion: 'backup-test',
          keyPaths: {},
        });
        expect(manifest.storage).toMatchObject({
          driver: 's3',
          objects: originals.size,
          skipped: 1,
          vanished: 0,
        });
        const report = await restoreDeployment({
          fromDir: outDir,
          databaseUrl: s3Target.url,
          storage: toStorage,
          lister: createS3Lister(toStorage.client, to.bucket),
          keyPaths: {},
        });
        await rm(dirname(outDir), { recursive: true, force: true });
        expect(report.mismatches).toEqual([]);
        expect(report.objects).toBe(originals.size);
        for (const [key, bytes] of originals) {
          const file = await toStorage.get(key);
          const chunks: Buffer[] = [];
          for await (const chunk of file!.stream) chunks.push(chunk as Buffer);
          expect(Buffer.concat(chunks).equals(bytes), key).toBe(true);
        }
        expect(await toStorage.stat('uploads/partial/0123456789abcdef0123456789abcdef')).toBeNull();
      } finally {
        fromStorage.client.destroy();
        toStorage.client.destroy();
      }
    });

    it('refuses to restore into a database that is not empty, and says how', async () => {
      const attempt = restoreDeployment({
        fromDir: backupDir,
        databaseUrl: target.url,
        storage: createLocalStorage(join(target.dataDir, 'files')),
        lister: createLocalLister(join(target.dataDir, 'files')),
        keyPaths: {},
      });
      await expect(attempt).rejects.toBeInstanceOf(RestoreRefusedError);
      await expect(attempt).rejects.toThrow(/is not empty .*--force/);
    });

    it('refuses a damaged backup before changing anything', async () => {
      const damagedDir = mkdtempSync(join(tmpdir(), 'mise-backup-damaged-'));
      try {
        const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8'));
        await writeFile(join(damagedDir, 'manifest.json'), JSON.stringify(manifest));
        await writeFile(join(damagedDir, 'database.dump'), 'not the dump');
        await expect(
          restoreDeployment({
            fromDir: damagedDir,
            databaseUrl: target.url,
            storage: createLocalStorage(join(target.dataDir, 'files')),
            lister: createLocalLister(join(target.dataDir, 'files')),
            keyPaths: {},
            isForced: true,
          }),
        ).rejects.toThrow(/database.dump is missing or damaged/);
      } finally {
        await rm(damagedDir, { recursive: true, force: true });
      }
    });
  },
);
