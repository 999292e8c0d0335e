/**
 * Expert mode: export (issue 19; not a test). The app runs in process (buildApp, no logger,
 * no web app) on a fresh database: embedded PGlite in a temporary folder, or, when
 * DATABASE_URL is given, a scratch PostgreSQL database `mise_bench_export` on that server
 * (dropped at the end unless BENCH_KEEP=true).
 *
 * A distributor's source database holds BENCH_EXPORT_ELEMENTS (default 2,000) elements with 3
 * labels each, spread over 20 types. Signed in as the distributor, it times
 * POST /api/database/copyDatabaseElements of every element into a new empty database
 * (BENCH_EXPORT_ROUNDS, default 3, each into its own target; median and each run), then the
 * same request retried with its Idempotency-Key (the stored answer) and a second export into
 * the first target with a new key (every element skipped 'already-exported'). Target: < 5 s.
 * Then BENCH_EXPORT_FILES (default 200) elements get a picture and a PDF of 20 kB each and are
 * copied with copyAttachments (every file a new stored object).
 *
 *   node --import tsx bench/catalogue-export.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/catalogue-export.ts
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  databaseElements,
  elementAttachments,
  elementLabels,
  elementTypes,
} from '../apps/server/src/db/schema';
import {
  buildDatabase,
  buildDistributor,
  buildUser,
  testPassword,
} from '../apps/server/src/test/factories';

const elementCount = Number(process.env.BENCH_EXPORT_ELEMENTS ?? 2000);
const rounds = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const fileCount = Number(process.env.BENCH_EXPORT_FILES ?? 200);
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_export';
const targetMs = 5000;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin(run: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-export-'));
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = adminUrl
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 4 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);
const { db } = database;

console.log(
  `Export benchmark on ${driverLabel}: ${elementCount} elements × 3 labels, ${rounds} rounds; ` +
    `node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
);

// The source catalogue, written in multi-row inserts.
const started = performance.now();
const distributor = await buildDistributor(db);
const source = await buildDatabase(db, { distributor_id: distributor.id, name: 'Source' });
const user = await buildUser(db, { role: 'distributor', distributor_id: distributor.id });
const types = await db
  .insert(elementTypes)
  .values(
    Array.from({ length: 20 }, (_, index) => ({ database_id: source.id, name: `Type ${index}` })),
  )
  .returning({ id: elementTypes.id });
const elementIds: string[] = [];
for (let start = 0; start < elementCount; start += 500) {
  const rows = Array.from({ length: Math.min(500, elementCount - start) }, (_, offset) => {
    const index = start + offset;
    const id = randomUUID();
    elementIds.push(id);
    return {
      id,
      database_id: source.id,
      name: `Élément ${String(index).padStart(5, '0')}`,
      type_id: types[index % types.length]!.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      allergens: index % 3 === 0 ? (['egg', 'milkOrLactose'] as const) : [],
      labels_module_active: true,
    };
  });
  await db
    .insert(databaseElements)
    .values(rows.map((row) => ({ ...row, allergens: [...row.allergens] })));
  await db.insert(elementLabels).values(
    rows.flatMap((row) =>
      ['Ouverture', 'Décongélation', 'DLC'].map((name, index) => ({
        database_id: source.id,
        database_element_id: row.id,
        name,
        index,
        active: true,
        type: index === 1 ? ('defrosting' as const) : ('expiration' as const),
        expiration_duration: 24 * (index + 1),
        defrosting_duration: index === 1 ? 12 : 0,
        cumulate_expiration_duration: false,
        show_expiration_hour: false,
        show_expiration_weekday: false,
      })),
    ),
  );
}
console.log(`source catalogue written in ${seconds(performance.now() - started)}`);

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'http://127.0.0.1',
});
const app = await buildApp({ config, database, logger: false, isServingWeb: false });
await app.ready();
try {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: testPassword },
  });
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .find((value) => value.startsWith('mise_session='))!
    .split(';')[0]!;
  const csrf = (
    await app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie } })
  ).json().csrfToken as string;
  const copy = async (
    targetId: string,
    key: string,
    objectIds = elementIds,
    copyAttachments = false,
  ) => {
    const before = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/database/copyDatabaseElements',
      headers: { cookie, 'x-csrf-token': csrf, 'idempotency-key': key },
      payload: { sourceId: source.id, targetId, objectIds, copyAttachments },
    });
    const ms = performance.now() - before;
    if (response.statusCode !== 200) {
      throw new Error(`copy: ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    const body = response.json() as {
      created: unknown[];
      skipped: unknown[];
      created_types: unknown[];
      attachments_copied: number;
    };
    return {
      ms,
      created: body.created.length,
      skipped: body.skipped.length,
      types: body.created_types.length,
      files: body.attachments_copied,
      bytes: response.body.length,
    };
  };

  const runs: number[] = [];
  let firstTarget = '';
  let firstKey = '';
  for (let round = 0; round < rounds; round += 1) {
    const target = await buildDatabase(db, {
      distributor_id: distributor.id,
      name: `Target ${round}`,
    });
    const key = randomUUID();
    const result = await copy(target.id, key);
    if (round === 0) {
      firstTarget = target.id;
      firstKey = key;
    }
    runs.push(result.ms);
    console.log(
      `copy ${elementCount} elements (round ${round + 1}): ${seconds(result.ms)}  ` +
        `created ${result.created}, types ${result.types}, answer ${Math.round(result.bytes / 1024)} kB ` +
        `(load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  const sorted = [...runs].sort((left, right) => left - right);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const retry = await copy(firstTarget, firstKey);
  const again = await copy(firstTarget, randomUUID());
  console.log(
    `\n${driverLabel}: copy of ${elementCount} elements × 3 labels — median ${seconds(median)} ` +
      `(target < ${seconds(targetMs)}: ${median < targetMs ? 'met' : 'NOT met'})`,
  );
  console.log(`retry with the same key (stored answer): ${seconds(retry.ms)}`);

  // With files: the first BENCH_EXPORT_FILES elements get a picture and a PDF (20 kB each),
  // copied as new stored objects.
  const withFiles = elementIds.slice(0, fileCount);
  const bytes = randomBytes(20 * 1024);
  for (const elementId of withFiles) {
    const picture = `databases/${source.id}/element_pictures/${elementId}/bench.png`;
    const sheet = `databases/${source.id}/element_attachments/${elementId}/${randomUUID()}.pdf`;
    await app.deps.storage.put(picture, bytes);
    await app.deps.storage.put(sheet, bytes);
    await db
      .update(databaseElements)
      .set({ illustration_path: picture, illustration_url: `/api/files/${picture}` })
      .where(eq(databaseElements.id, elementId));
    await db.insert(elementAttachments).values({
      database_id: source.id,
      database_element_id: elementId,
      name: 'Fiche',
      type: 'pdf',
      content_type: 'application/pdf',
      path: sheet,
      size: bytes.length,
    });
  }
  const filesTarget = await buildDatabase(db, { distributor_id: distributor.id, name: 'Files' });
  const filesCopy = await copy(filesTarget.id, randomUUID(), withFiles, true);
  console.log(
    `copy of ${withFiles.length} elements with copyAttachments (${filesCopy.files} objects of 20 kB): ` +
      `${seconds(filesCopy.ms)}`,
  );
  console.log(
    `second export, new key (${again.skipped} skipped 'already-exported'): ${seconds(again.ms)}`,
  );
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
}
