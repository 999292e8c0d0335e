/**
 * Documents and uploads (issue 17; not a test): a 500 MB resumable upload over loopback and the
 * listing of a folder of 10,000 files. Runs on the built server (apps/server/dist/main.js) on a
 * fresh database: embedded PGlite in a temporary folder, or, when DATABASE_URL is given, a
 * scratch PostgreSQL database `mise_bench_documents` on that server (dropped at the end unless
 * BENCH_KEEP=true). A distributor, a database, two manager-owned stores, a manager and the
 * documents tree are written first (PGlite allows one process: the server opens the folder once
 * the seed is written); the rest goes through the API signed in as that manager.
 *
 * 1. Upload: a random file of BENCH_UPLOAD_MB (default 500) written to a temporary folder on the
 *    same disk as DATA_DIR, then `cp` of it to that disk (BENCH_CP_RUNS, default 3, median; then
 *    `sync` of the copy) and one PUT of it to a bare node:http server piping it into a file, for
 *    reference. Then through tus (tus-js-client in Node, reading the file from disk: metadata
 *    purpose 'document', owner documentUploadOwner(store, folder), application/octet-stream,
 *    cookie + x-csrf-token): in chunks of BENCH_CHUNK_MB (default 50) and in one PATCH streaming
 *    the whole file, alternating, BENCH_UPLOAD_RUNS times each (default 2). Each after a 4 MB
 *    warm-up upload, timed from the creation to the last answer (which the server sends once the
 *    file is moved into storage and its row written), and to the partial file complete on disk;
 *    throughput, ratio to `cp`, and the server process's resident memory (VmRSS of
 *    /proc/<pid>/status every 100 ms): the median of 1 s before, the maximum during. The stored
 *    file is then downloaded (its sha256 checked against the original's) and deleted.
 * 2. Listing: a store folder holding BENCH_FOLDER_FILES files (default 10,000, named like
 *    "Temperature log 01234.xlsx", five kinds) and 10 sub-folders of 100 files each; a second
 *    store holds as many (other owners' rows in the same index). GET /api/documents, sequential,
 *    BENCH_LIST_CALLS times each (default 200, after 20 warm-up calls): the first page, a page
 *    in the middle (by cursor), a search matching a fifth of the files and one matching one.
 *
 *   flock /tmp/mise-build.lock npm run build && node --import tsx bench/documents.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/documents.ts
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Upload } from 'tus-js-client';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildUser,
} from '../apps/server/src/test/factories';
import { type DocumentOwner, documentUploadOwner } from '../packages/shared/src/documents/schemas';
import { stop, waitFor } from './browser-support';

const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_documents';
const port = Number(process.env.BENCH_DOCUMENTS_PORT ?? 3350);
const uploadMegabytes = Number(process.env.BENCH_UPLOAD_MB ?? 500);
const chunkMegabytes = Number(process.env.BENCH_CHUNK_MB ?? 50);
const cpRuns = Number(process.env.BENCH_CP_RUNS ?? 3);
const uploadRuns = Number(process.env.BENCH_UPLOAD_RUNS ?? 2);
const folderFiles = Number(process.env.BENCH_FOLDER_FILES ?? 10_000);
const listCalls = Number(process.env.BENCH_LIST_CALLS ?? 200);
const password = 'bench-documents-1234';
const serverEntry = 'apps/server/dist/main.js';
const MB = 1024 * 1024;

if (!existsSync(serverEntry)) {
  throw new Error(`${serverEntry} is missing: flock /tmp/mise-build.lock npm run build first`);
}

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

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
const sortedOf = (values: number[]) => [...values].sort((left, right) => left - right);
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const rate = (bytes: number, milliseconds: number) => bytes / MB / (milliseconds / 1000);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

type Row = { figure: string; measured: string };
const rows: Row[] = [];
function record(figure: string, measured: string): void {
  rows.push({ figure, measured });
  console.log(`  ${figure.padEnd(60)} ${measured}`);
}
function spread(values: number[]): string {
  const sorted = sortedOf(values);
  return (
    `p50 ${ms(percentile(sorted, 0.5))}  p99 ${ms(percentile(sorted, 0.99))}  ` +
    `max ${ms(sorted.at(-1) ?? 0)}  (n=${sorted.length})`
  );
}

/** The resident memory of a process (VmRSS), in bytes; 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's VmRSS every 100 ms until stopped. */
function sampleRss(pid: number): { stop: () => number[] } {
  const samples = [rssOf(pid)];
  const timer = setInterval(() => samples.push(rssOf(pid)), 100);
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(rssOf(pid));
      return samples;
    },
  };
}

/* ---------------------------------------------------------------- the files */

const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-documents-'));
const workDir = mkdtempSync(join(tmpdir(), 'mise-bench-documents-files-'));

/** A file of random bytes (4 MB blocks); answers its sha256. */
async function writeRandomFile(path: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  const block = Buffer.alloc(4 * MB);
  try {
    for (let written = 0; written < bytes; written += block.length) {
      const part = block.subarray(0, Math.min(block.length, bytes - written));
      randomFillSync(part);
      hash.update(part);
      await handle.write(part);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/* ---------------------------------------------------------------- the database */

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = adminUrl
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 2 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);
const distributor = await buildDistributor(database.db, { name: 'Bench distributor' });
const catalogue = await buildDatabase(database.db, {
  name: 'Bench database',
  distributor_id: distributor.id,
});
const storeValues = {
  distributor_id: distributor.id,
  database_id: catalogue.id,
  manager_owned: true,
};
const store = await buildStore(database.db, { ...storeValues, name: 'Bench store Paris' });
const neighbour = await buildStore(database.db, { ...storeValues, name: 'Bench store Lyon' });
const manager = await buildUser(database.db, {
  role: 'manager',
  email: 'manager@bench.test',
  name: 'Bench',
  surname: 'Manager',
  language: 'en',
  password,
  database_id: catalogue.id,
  managedDatabaseIds: [catalogue.id],
});

/** A folder at the store's root; answers its id. */
async function seedFolder(storeId: string, name: string, parent: string | null = null) {
  const id = randomUUID();
  await database.db.execute(sql`
    insert into documents (id, owner_kind, owner_id, store_id, parent_id, path, name, type,
      uploaded_by, uploaded_by_name)
    values (${id}, 'store', ${storeId}, ${storeId}, ${parent},
      ${parent ? `/${parent}/` : '/'}, ${name}, 'folder', ${manager.id}, 'Bench Manager')`);
  return id;
}

/**
 * `count` files in a folder, in one INSERT … SELECT: five kinds of names ("Invoice 00001.pdf",
 * "Temperature log 00002.xlsx", …), sizes and content types; the objects are not written.
 */
async function seedFiles(storeId: string, folder: string, path: string, count: number, tag = '') {
  await database.db.execute(sql`
    insert into documents (owner_kind, owner_id, store_id, parent_id, path, name, type,
      storage_key, size, content_type, uploaded_by, uploaded_by_name)
    select 'store', ${storeId}::uuid, ${storeId}::uuid, ${folder}::uuid, ${path},
      (array['Invoice', 'Temperature log', 'Delivery note', 'Cleaning plan', 'Photo'])[1 + i % 5]
        || ${tag} || ' ' || lpad(i::text, 5, '0')
        || (array['.pdf', '.xlsx', '.pdf', '.docx', '.jpg'])[1 + i % 5],
      'file', 'stores/' || ${storeId} || '/documents/' || gen_random_uuid() || '/file.pdf',
      20000 + i * 37 % 900000,
      (array['application/pdf', 'application/vnd.ms-excel', 'application/pdf',
        'application/msword', 'image/jpeg'])[1 + i % 5],
      ${manager.id}::uuid, 'Bench Manager'
    from generate_series(1, ${count}::int) as i`);
}

const seedStarted = performance.now();
const bigFolder = await seedFolder(store.id, `Bench ${folderFiles} files`);
await seedFiles(store.id, bigFolder, `/${bigFolder}/`, folderFiles);
for (let index = 1; index <= 10; index += 1) {
  const sub = await seedFolder(store.id, `Sub-folder ${index}`, bigFolder);
  await seedFiles(store.id, sub, `/${bigFolder}/${sub}/`, 100, ` sub-${index}`);
}
const otherFolder = await seedFolder(neighbour.id, `Bench ${folderFiles} files`);
await seedFiles(neighbour.id, otherFolder, `/${otherFolder}/`, folderFiles);
const uploadFolder = await seedFolder(store.id, 'Bench uploads');
await database.db.execute(sql`analyze documents`);
const seedSeconds = (performance.now() - seedStarted) / 1000;
await database.close();

/* ---------------------------------------------------------------- the server */

const base = `http://127.0.0.1:${port}`;
const { DATABASE_URL: _adminUrl, ...serverEnvironment } = process.env;
// BENCH_CPU_PROF_DIR: the server writes a V8 CPU profile there when it stops.
const profileDir = process.env.BENCH_CPU_PROF_DIR;
const server: ChildProcess = spawn(
  process.execPath,
  [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), serverEntry],
  {
    env: {
      ...serverEnvironment,
      // No demo organisation: only the bench's rows.
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(adminUrl ? { DATABASE_URL: databaseUrl(benchDatabase) } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);

let cookie = '';
let csrf = '';
type Answer = { status: number; text: string; bytes: number; elapsed: number };
async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const before = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - before;
  return { status: response.status, text: buffer.toString('utf8'), bytes: buffer.length, elapsed };
}
async function ok(method: string, path: string, expected = 200): Promise<Answer> {
  const answer = await call(method, path);
  if (answer.status !== expected) {
    throw new Error(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 500)}`);
  }
  return answer;
}
const json = <T>(answer: Answer) => JSON.parse(answer.text) as T;

const owner: DocumentOwner = { kind: 'store', id: store.id };

type Uploaded = { documentId: string; elapsed: number; received: number };
/**
 * One file through tus-js-client (read from disk); answers the document's id, the time from the
 * creation to the last answer and the time until the server had written every byte to its
 * partial file (watched on disk every 10 ms; the rest is the move into storage and the row).
 */
function tusUpload(path: string, filename: string, chunkSize: number): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let received = 0;
    let watcher: NodeJS.Timeout | undefined;
    const upload = new Upload(createReadStream(path), {
      endpoint: `${base}/api/uploads`,
      chunkSize,
      retryDelays: [],
      headers: { cookie, 'x-csrf-token': csrf },
      metadata: {
        purpose: 'document',
        owner: documentUploadOwner(owner, uploadFolder),
        filename,
        filetype: 'application/octet-stream',
      },
      storeFingerprintForResuming: false,
      onUploadUrlAvailable() {
        const partial = join(dataDir, 'uploads', 'partial', upload.url!.split('/').pop()!);
        const total = statSync(path).size;
        watcher = setInterval(() => {
          const size = statSync(partial, { throwIfNoEntry: false })?.size ?? 0;
          if (size >= total && received === 0) {
            received = performance.now() - started;
            clearInterval(watcher);
          }
        }, 10);
      },
      onError(error) {
        clearInterval(watcher);
        reject(error);
      },
      onSuccess() {
        const elapsed = performance.now() - started;
        clearInterval(watcher);
        const id = upload.url?.split('/').pop() ?? '';
        ok('GET', `/api/uploads/${id}`)
          .then((answer) => {
            const outcome = json<{ status: string; result: { documentId?: string } | null }>(
              answer,
            );
            const documentId = outcome.result?.documentId;
            if (outcome.status !== 'completed' || !documentId) {
              throw new Error(`upload ${id}: ${answer.text}`);
            }
            resolve({ documentId, elapsed, received: received || elapsed });
          })
          .catch(reject);
      },
    });
    upload.start();
  });
}

/** Downloads a document's file; answers its sha256 and the time. */
async function download(documentId: string): Promise<{ sha256: string; elapsed: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/documents/${documentId}/file`, {
    headers: { cookie },
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`GET file: ${response.status}`);
  }
  const hash = createHash('sha256');
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    hash.update(part.value);
  }
  return { sha256: hash.digest('hex'), elapsed: performance.now() - started };
}

type Page = { items: { name: string; type: string }[]; next_cursor: string | null };
const listPath = (extra: Record<string, string> = {}) =>
  `/api/documents?${new URLSearchParams({
    owner_kind: 'store',
    owner_id: store.id,
    parent_id: bigFolder,
    ...extra,
  })}`;
/** `listCalls` sequential GETs after 20 warm-up ones; answers the latencies and the last page. */
async function timeList(path: string): Promise<{ latencies: number[]; last: Answer }> {
  for (let warm = 0; warm < 20; warm += 1) await ok('GET', path);
  const latencies: number[] = [];
  let last: Answer | undefined;
  for (let run = 0; run < listCalls; run += 1) {
    last = await ok('GET', path);
    latencies.push(last.elapsed);
  }
  return { latencies, last: last! };
}

/**
 * The floor of the transport, for reference: a bare node:http server in a child process piping
 * one PUT of the file (read from disk, sent with node:http) into a file on the same disk, as
 * the tus server does with a PATCH, with nothing else; median of 3.
 */
async function barePut(path: string, bytes: number): Promise<number> {
  const target = join(workDir, 'bare.bin');
  const script = `
    const { createServer } = require('node:http');
    const { createWriteStream } = require('node:fs');
    const { pipeline } = require('node:stream/promises');
    const server = createServer(async (request, response) => {
      await pipeline(request, createWriteStream(${JSON.stringify(target)}));
      response.end('ok');
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const barePort = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
      child.once('exit', () => reject(new Error('the bare server stopped')));
    });
    const times: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const sent = httpRequest(
          {
            host: '127.0.0.1',
            port: barePort,
            method: 'PUT',
            path: '/',
            headers: { 'content-length': String(bytes) },
          },
          (response) => {
            response.resume();
            response.on('end', resolve);
          },
        );
        sent.on('error', reject);
        createReadStream(path).pipe(sent);
      });
      times.push(performance.now() - started);
      rmSync(target, { force: true });
    }
    return percentile(sortedOf(times), 0.5);
  } finally {
    await stop(child);
  }
}

console.log(
  `\nDocuments on ${driverLabel}, the built server (${serverEntry}): ${cpus().length} cores, ` +
    `load average ${loadavg()[0]!.toFixed(1)}; seed ${2 * folderFiles + 1000} rows in ` +
    `${seedSeconds.toFixed(1)} s`,
);
try {
  await waitFor(`${base}/api/health`);
  const pid = server.pid!;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: manager.email, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
  const session = login.headers.getSetCookie().find((value) => value.startsWith('mise_session='));
  cookie = session!.split(';')[0]!;
  csrf = json<{ csrfToken: string }>(await ok('GET', '/api/auth/csrf')).csrfToken;

  /* 1. The upload. */
  const uploadBytes = uploadMegabytes * MB;
  console.log(`Upload (${mb(uploadBytes)}, files in ${workDir}, DATA_DIR ${dataDir})`);
  const source = join(workDir, 'random.bin');
  const written = performance.now();
  const sourceSha = await writeRandomFile(source, uploadBytes);
  console.log(`  random file written in ${ms(performance.now() - written)}`);
  const cpTimes: number[] = [];
  const syncTimes: number[] = [];
  for (let run = 0; run < cpRuns; run += 1) {
    const copy = join(workDir, `copy-${run}.bin`);
    const started = performance.now();
    const copied = spawnSync('cp', [source, copy]);
    cpTimes.push(performance.now() - started);
    if (copied.status !== 0) throw new Error(`cp failed: ${copied.stderr}`);
    // The copy flushed to the device (fsync), for reference: neither cp nor the server syncs.
    spawnSync('sync', [copy]);
    syncTimes.push(performance.now() - started);
    rmSync(copy);
  }
  const cpMedian = percentile(sortedOf(cpTimes), 0.5);
  const cpRate = rate(uploadBytes, cpMedian);
  record(
    `cp of the file on the same disk (median of ${cpRuns})`,
    `${ms(cpMedian)}, ${cpRate.toFixed(0)} MB/s (runs ${cpTimes.map(ms).join(', ')})`,
  );
  const syncMedian = percentile(sortedOf(syncTimes), 0.5);
  record(
    '  the same, then `sync` of the copy (on the device)',
    `${ms(syncMedian)}, ${rate(uploadBytes, syncMedian).toFixed(0)} MB/s`,
  );
  const bare = await barePut(source, uploadBytes);
  record(
    'bare Node HTTP server piping a PUT to a file (same disk)',
    `${ms(bare)}, ${rate(uploadBytes, bare).toFixed(0)} MB/s, ` +
      `${((100 * rate(uploadBytes, bare)) / cpRate).toFixed(0)} % of cp`,
  );

  const warmUp = join(workDir, 'warm-up.bin');
  await writeRandomFile(warmUp, 4 * MB);
  const modes = [
    { label: `tus, chunks of ${chunkMegabytes} MB`, chunkSize: chunkMegabytes * MB },
    { label: 'tus, one PATCH streaming the file', chunkSize: Number.POSITIVE_INFINITY },
  ];
  // The modes alternate (chunks, one PATCH, chunks, …): the server's heap settles over the first.
  let index = 0;
  for (let run = 1; run <= uploadRuns; run += 1) {
    for (const mode of modes) {
      index += 1;
      const warm = await tusUpload(warmUp, `warm-up-${index}.bin`, mode.chunkSize);
      await ok('DELETE', `/api/documents/${warm.documentId}`, 204);
      const rest = sampleRss(pid);
      await sleep(1000);
      const before = percentile(sortedOf(rest.stop()), 0.5);
      const during = sampleRss(pid);
      const uploaded = await tusUpload(source, `upload-${index}.bin`, mode.chunkSize);
      const peak = Math.max(...during.stop());
      const uploadRate = rate(uploadBytes, uploaded.elapsed);
      record(
        `${mode.label}, run ${run}`,
        `${ms(uploaded.elapsed)}, ${uploadRate.toFixed(0)} MB/s, ` +
          `${((100 * uploadRate) / cpRate).toFixed(0)} % of cp`,
      );
      record(
        '  bytes received (partial file complete), then stored + row',
        `${ms(uploaded.received)} (${rate(uploadBytes, uploaded.received).toFixed(0)} MB/s), ` +
          `then ${ms(uploaded.elapsed - uploaded.received)}`,
      );
      record(
        '  server RSS: before (median of 1 s), max during, growth',
        `${mb(before)}, ${mb(peak)}, +${mb(peak - before)}`,
      );
      const fetched = await download(uploaded.documentId);
      if (fetched.sha256 !== sourceSha) {
        throw new Error('the stored file differs from the original');
      }
      record(
        '  download of the stored file (sha256 equal)',
        `${ms(fetched.elapsed)}, ${rate(uploadBytes, fetched.elapsed).toFixed(0)} MB/s`,
      );
      await ok('DELETE', `/api/documents/${uploaded.documentId}`, 204);
    }
  }
  rmSync(workDir, { recursive: true, force: true });

  /* 2. The folder of 10,000 files. */
  console.log(`Listing (a folder of ${folderFiles} files and 10 sub-folders of 100)`);
  const first = await timeList(listPath());
  const firstPage = json<Page>(first.last);
  record(
    `first page (${firstPage.items.length} items, ${(first.last.bytes / 1024).toFixed(0)} KB)`,
    spread(first.latencies),
  );
  let cursor = firstPage.next_cursor;
  const middle = Math.floor((folderFiles + 10) / 100 / 2);
  for (let page = 1; page < middle && cursor; page += 1) {
    cursor = json<Page>(await ok('GET', listPath({ cursor }))).next_cursor;
  }
  if (!cursor) throw new Error('no cursor to the middle of the folder');
  const middlePage = await timeList(listPath({ cursor }));
  record(
    `page ${middle + 1} by cursor (from "${json<Page>(middlePage.last).items[0]?.name}")`,
    spread(middlePage.latencies),
  );
  const broad = await timeList(listPath({ search: 'temperature' }));
  record(
    `search "temperature" (${folderFiles / 5 + 200} matches, first page)`,
    spread(broad.latencies),
  );
  const narrow = await timeList(listPath({ search: '01234' }));
  record(
    `search "01234" (${json<Page>(narrow.last).items.length} match in the folder and below)`,
    spread(narrow.latencies),
  );

  console.log(`\nDocuments on ${driverLabel} (load average ${loadavg()[0]!.toFixed(1)})`);
  console.table(rows);
} finally {
  await stop(server);
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
