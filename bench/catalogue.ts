/**
 * Catalogue benchmark (not a test). On a scratch PostgreSQL database (`mise_bench_catalogue`
 * on the server of DATABASE_URL, default the local one; dropped at the end unless
 * BENCH_KEEP=true):
 *
 * 1. starts the built server (apps/server/dist, `npm run build` first) with the demo
 *    organisation and adds a large catalogue to the demo distributor (bench/catalogue-data.ts):
 *    one database of 2 000 elements (types, allergens, 3 labels each), 100 stores on it each
 *    overriding 200 elements and owning 20;
 * 2. signed in as the distributor, loads each catalogue read with autocannon (2 s warm-up,
 *    then BENCH_SECONDS, default 10, with BENCH_CONNECTIONS, default 10): the database list,
 *    a store's merged list, the same searched, a store element's detail, the allergens table;
 * 3. counts the SQL statements of one request of each, over 20 sequential requests before the
 *    load: the server is started with a small preload (a data: URL, no file) that counts
 *    pg's Client#query calls and answers the count on BENCH_PORT + 1 — an increment per
 *    query, nothing else changes in the server;
 * 4. times 5 sequential allergen PDFs of a store (the route allows 10 a minute per address).
 *
 *   npm run build && node --import tsx bench/catalogue.ts
 *   BENCH_CATALOGUE_ELEMENTS=4000 BENCH_CATALOGUE_STORES=20 node --import tsx bench/catalogue.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { addCatalogueScaleData } from './catalogue-data';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const port = Number(process.env.BENCH_PORT ?? 3311);
const keep = process.env.BENCH_KEEP === 'true';
const options = {
  elements: Number(process.env.BENCH_CATALOGUE_ELEMENTS ?? 2000),
  stores: Number(process.env.BENCH_CATALOGUE_STORES ?? 100),
  overrides: Number(process.env.BENCH_CATALOGUE_OVERRIDES ?? 200),
  ownElements: Number(process.env.BENCH_CATALOGUE_OWN ?? 20),
};
const benchDatabase = 'mise_bench_catalogue';
const base = `http://127.0.0.1:${port}`;
const serverEntry = 'apps/server/dist/main.js';

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer in time`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/**
 * The query counter preloaded into the server: pg's Client#query (every query of Drizzle's
 * pool goes through it once) increments a number served on `countPort`. The server imports
 * pg as ESM, whose entry re-exports the CommonJS module required here: the same class.
 */
const countPort = port + 1;
const counterSource = `
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
const require = createRequire(${JSON.stringify(resolve(serverEntry))});
const pg = require('pg');
let count = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) { count += 1; return query.apply(this, args); };
createServer((request, response) => response.end(String(count)))
  .listen(${countPort}, '127.0.0.1').unref();
`;
const queryCount = async () => Number(await (await fetch(`http://127.0.0.1:${countPort}/`)).text());
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

type Scenario = { title: string; path: string; items?: (body: unknown) => number };

console.log(
  `Catalogue benchmark: ${options.elements} database elements, ${options.stores} stores × ` +
    `${options.overrides} overrides + ${options.ownElements} own elements; ` +
    `${connections} connections, ${seconds} s per scenario, node ${process.version}`,
);
// The migrations are read beside the bundle: both must be there (not mid-rebuild).
if (!existsSync(serverEntry) || !existsSync('apps/server/dist/migrations/meta/_journal.json')) {
  throw new Error(`${serverEntry} or its migrations missing: run npm run build first`);
}

await adminQuery(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
await adminQuery(`CREATE DATABASE ${benchDatabase}`);
console.log(`load average before: ${load()}`);
const counter = `data:text/javascript,${encodeURIComponent(counterSource)}`;
const server = spawn(process.execPath, ['--import', counter, serverEntry], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(benchDatabase),
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-bench-catalogue-')),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rows: Record<string, string | number>[] = [];
const pdfs: Record<string, string | number>[] = [];
try {
  await waitFor(`${base}/api/health`);
  let started = performance.now();
  const data = await addCatalogueScaleData(databaseUrl(benchDatabase), options);
  console.log(
    `catalogue added in ${Math.round(performance.now() - started) / 1000} s:`,
    JSON.stringify(data.rows),
  );
  const cookie = await signIn('distributor@demo.test');
  const headers = { cookie };

  const store = data.storeIds[0]!;
  const count = (body: unknown) => (body as { items: unknown[] }).items.length;
  const scenarios: Scenario[] = [
    { title: 'GET /api/me (session + relations, reference)', path: '/api/me' },
    {
      title: 'GET /api/databases/:id/elements',
      path: `/api/databases/${data.databaseId}/elements`,
      items: count,
    },
    {
      title: 'GET /api/stores/:id/elements (merged)',
      path: `/api/stores/${store}/elements`,
      items: count,
    },
    {
      title: 'GET /api/stores/:id/elements?search=crème',
      path: `/api/stores/${store}/elements?search=${encodeURIComponent('crème')}`,
      items: count,
    },
    {
      title: 'GET /api/storeElements/:id (override, labels)',
      path: `/api/storeElements/${data.overrideId}`,
      items: (body) => (body as { element: { labels: unknown[] } }).element.labels.length,
    },
    {
      title: 'GET /api/allergens?storeId=',
      path: `/api/allergens?storeId=${store}`,
      items: (body) =>
        (body as { groups: { elements: unknown[] }[] }).groups.reduce(
          (total, group) => total + group.elements.length,
          0,
        ),
    },
  ];

  // Statements per request (and response size), 20 sequential requests each, before the load.
  const perRequest = new Map<string, { queries: number; bytes: number; items: number | '' }>();
  for (const scenario of scenarios) {
    const response = await fetch(`${base}${scenario.path}`, { headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${scenario.path}: ${response.status} ${text.slice(0, 300)}`);
    const items = scenario.items ? scenario.items(JSON.parse(text)) : '';
    const before = await queryCount();
    const repeat = 20;
    for (let index = 0; index < repeat; index += 1) {
      await (await fetch(`${base}${scenario.path}`, { headers })).arrayBuffer();
    }
    const queries = (await queryCount()) - before;
    perRequest.set(scenario.title, {
      queries: Math.round((queries / repeat) * 10) / 10,
      bytes: Buffer.byteLength(text),
      items,
    });
  }

  for (const scenario of scenarios) {
    const url = `${base}${scenario.path}`;
    await autocannon({ url, connections, duration: 2, headers });
    const result = await autocannon({ url, connections, duration: seconds, headers });
    const measured = perRequest.get(scenario.title)!;
    rows.push({
      scenario: scenario.title,
      items: measured.items,
      'KB/response': Math.round(measured.bytes / 102.4) / 10,
      'SQL/request': measured.queries,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    });
  }

  // The PDF: 5 sequential requests (rate limit 10 a minute per address).
  for (let index = 0; index < 5; index += 1) {
    const before = await queryCount();
    started = performance.now();
    const response = await fetch(`${base}/api/pdf/allergens?storeId=${store}&lang=fr`, {
      headers,
    });
    const body = Buffer.from(await response.arrayBuffer());
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`PDF: ${response.status} ${body.toString().slice(0, 300)}`);
    pdfs.push({
      request: index + 1,
      status: response.status,
      ms: Math.round(ms),
      KB: Math.round(body.length / 102.4) / 10,
      SQL: (await queryCount()) - before,
    });
  }
} finally {
  await stop(server);
  if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
}

console.log(`load average after: ${load()}`);
console.table(rows);
console.log('GET /api/pdf/allergens?storeId=…&lang=fr, 5 sequential requests:');
console.table(pdfs);
