/**
 * Benchmark runner (not a test): starts the built server on a real PostgreSQL server and a
 * bare Fastify route in the same run, loads both with autocannon, and prints requests per
 * second, p50 and p99; then the server's resident memory at rest on both drivers.
 *
 *   npm run bench                        (builds first)
 *   BENCH_SECONDS=20 BENCH_CONNECTIONS=20 node --import tsx bench/run.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { addScaleData } from './scale-data';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchDatabase = 'mise_bench';
const scaleStores = Number(process.env.BENCH_STORES ?? 20_000);
const scaleUsers = Number(process.env.BENCH_USERS ?? 20_000);

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function recreateDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${benchDatabase}`);
  await client.end();
}

function start(command: string[], env: Record<string, string | undefined>): ChildProcess {
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
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
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer in time`);
}

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kilobytes / 1024) * 10) / 10;
}

async function load(title: string, url: string, headers: Record<string, string> = {}) {
  // A short warm-up, then the measured run.
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    scenario: title,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function signIn(base: string, email = 'admin@demo.test'): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  const cookie = response.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}

const serverEntry = 'apps/server/dist/main.js';
console.log(
  `Mise benchmark: ${connections} connections, ${seconds} s per scenario, node ${process.version}`,
);

// 1. Throughput on PostgreSQL, side by side with a bare Fastify route.
await recreateDatabase();
const pgServer = start([serverEntry], {
  PORT: '3301',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl(benchDatabase),
  SEED_DEMO: 'true',
  LOG_LEVEL: 'warn',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-bench-pg-')),
});
const bare = start(['bench/bare-server.mjs'], { PORT: '3302' });
const rows = [];
const memory = [];
try {
  await waitFor('http://127.0.0.1:3301/api/health');
  await waitFor('http://127.0.0.1:3302/bare');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  memory.push({
    server: 'Mise on PostgreSQL',
    'RSS at rest (MB)': residentMegabytes(pgServer.pid!),
  });
  memory.push({ server: 'bare Fastify', 'RSS at rest (MB)': residentMegabytes(bare.pid!) });
  const cookie = await signIn('http://127.0.0.1:3301');
  rows.push(await load('bare Fastify GET /bare', 'http://127.0.0.1:3302/bare'));
  rows.push(await load('Mise GET /api/health (db ping)', 'http://127.0.0.1:3301/api/health'));
  rows.push(await load('Mise GET /api/me (signed in)', 'http://127.0.0.1:3301/api/me', { cookie }));
  // Lists at scale: thousands of stores and accounts, searched by substring.
  const scale = await addScaleData(databaseUrl(benchDatabase), scaleStores, scaleUsers);
  console.log(`scale data: ${scale.stores} stores and ${scale.users} accounts added`);
  const distributorCookie = await signIn('http://127.0.0.1:3301', 'distributor@demo.test');
  rows.push(
    await load(
      `Mise GET /api/stores?search=lyon (distributor, ${scale.stores} stores)`,
      'http://127.0.0.1:3301/api/stores?search=lyon',
      { cookie: distributorCookie },
    ),
  );
  rows.push(
    await load(
      `Mise GET /api/stores?search=store 1234 (narrow, ${scale.stores} stores)`,
      'http://127.0.0.1:3301/api/stores?search=store%201234',
      { cookie: distributorCookie },
    ),
  );
  rows.push(
    await load(
      `Mise GET /api/users?search=martin (admin, ${scale.users} accounts)`,
      'http://127.0.0.1:3301/api/users?search=martin',
      { cookie },
    ),
  );
  rows.push(
    await load(
      'Mise GET /api/distributors (admin, counts per distributor)',
      'http://127.0.0.1:3301/api/distributors',
      { cookie },
    ),
  );
  memory.push({
    server: 'Mise on PostgreSQL after load',
    'RSS at rest (MB)': residentMegabytes(pgServer.pid!),
  });
} finally {
  await stop(pgServer);
  await stop(bare);
}

// 2. Memory at rest on the embedded database (PGlite runs inside the server process).
const pgliteServer = start([serverEntry], {
  PORT: '3303',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-bench-pglite-')),
});
try {
  await waitFor('http://127.0.0.1:3303/api/health', 120_000);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  memory.push({
    server: 'Mise on PGlite (embedded)',
    'RSS at rest (MB)': residentMegabytes(pgliteServer.pid!),
  });
  const cookie = await signIn('http://127.0.0.1:3303');
  rows.push(await load('Mise GET /api/me on PGlite', 'http://127.0.0.1:3303/api/me', { cookie }));
} finally {
  await stop(pgliteServer);
}

console.table(rows);
console.table(memory);
