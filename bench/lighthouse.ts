/**
 * Web performance figures (not a test): the initial JavaScript of the built web app (what
 * index.html loads before the first screen, gzip), then Lighthouse (mobile, its default
 * simulated slow 4G and 4× CPU) on /login and, signed in as a demo user, on /home — the
 * built server on a fresh embedded database with the demo organisation, Debian's Chromium.
 *
 *   npm run build && node --import tsx bench/lighthouse.ts
 *   LIGHTHOUSE_RUNS=3 LIGHTHOUSE_ROLE=customer node --import tsx bench/lighthouse.ts
 *
 * Each page is measured LIGHTHOUSE_RUNS times (default 3); the median score is printed
 * with each run's, as the 2-core machine's load moves them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const port = Number(process.env.LIGHTHOUSE_PORT ?? 3320);
const base = `http://127.0.0.1:${port}`;
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const email = `${process.env.LIGHTHOUSE_ROLE ?? 'admin'}@demo.test`;
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const webDist = 'apps/web/dist';
/** Set to a folder to keep each run's full Lighthouse report (JSON) there. */
const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;

/**
 * The scripts and stylesheets index.html loads (entry and its preloads), gzip level 9. The
 * conditional preloads (`data-preload-when`: a language's translations, the signed-in layout;
 * the server keeps those of the visitor) are listed apart.
 */
function initialAssets(dist: string) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((match) => match[0]);
  const assetOf = (tag: string) => tag.match(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/)?.[1];
  const files = tags
    .filter((tag) => !tag.includes('data-preload-when'))
    .flatMap((tag) => assetOf(tag) ?? []);
  const conditional = tags.flatMap((tag) => {
    const when = tag.match(/data-preload-when="([^"]+)"/)?.[1];
    const file = assetOf(tag);
    return when && file ? [{ when, file }] : [];
  });
  const gzipKilobytes = (file: string) =>
    gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
  const sum = (extension: string) =>
    files
      .filter((file) => file.endsWith(extension))
      .reduce((total, file) => total + gzipKilobytes(file), 0);
  return {
    files,
    jsKilobytes: sum('.js'),
    cssKilobytes: sum('.css'),
    conditional: conditional.map(
      ({ when, file }) => `${when} ${gzipKilobytes(file).toFixed(1)} KB`,
    ),
  };
}

async function waitFor(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer in time`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function signIn(): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

type Figures = {
  performance: number;
  accessibility: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  transferKilobytes: number;
  failedAccessibilityAudits: string[];
};

async function audit(path: string, chromePort: number, cookie?: string): Promise<Figures> {
  // A trace Chrome failed to record (NO_NAVSTART and the like) is measured again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(path, chromePort, cookie);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`${path}: ${error instanceof Error ? error.message : error}; measuring again`);
    }
  }
}

async function auditOnce(path: string, chromePort: number, cookie?: string): Promise<Figures> {
  const result = await lighthouse(`${base}${path}`, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    extraHeaders: cookie ? { cookie } : undefined,
    // A fresh cache on every run: the cold load of a first visit.
    disableStorageReset: false,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
  if (result.lhr.runtimeError) throw new Error(result.lhr.runtimeError.message);
  if (reportDir) {
    writeFileSync(
      join(reportDir, `${path.replaceAll('/', '_')}-${Date.now()}.json`),
      JSON.stringify(result.lhr),
    );
  }
  const { categories, audits } = result.lhr;
  const numeric = (id: string) => Math.round(audits[id]?.numericValue ?? Number.NaN);
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    firstContentfulPaintMs: numeric('first-contentful-paint'),
    largestContentfulPaintMs: numeric('largest-contentful-paint'),
    totalBlockingTimeMs: numeric('total-blocking-time'),
    cumulativeLayoutShift: Number(
      (audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
    ),
    transferKilobytes: Math.round(numeric('total-byte-weight') / 1024),
    failedAccessibilityAudits: (categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
      .map((ref) => ref.id),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const assets = initialAssets(webDist);
console.log(
  `Initial assets of ${webDist}: JS ${assets.jsKilobytes.toFixed(1)} KB gzip, CSS ${assets.cssKilobytes.toFixed(1)} KB gzip (${assets.files.length} files)`,
);
if (assets.conditional.length) {
  console.log(`Preloaded when they apply (gzip): ${assets.conditional.join(', ')}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'mise-lighthouse-'));
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: undefined,
    SEED_DEMO: undefined,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  await waitFor(`${base}/api/health`);
  const cookie = await signIn();
  const pages: { title: string; path: string; cookie?: string }[] = [
    { title: '/login (signed out)', path: '/login' },
    { title: `/home (${email})`, path: '/home', cookie },
  ];
  const rows = [];
  for (const page of pages) {
    const figures: Figures[] = [];
    for (let run = 0; run < runs; run += 1) {
      figures.push(await audit(page.path, chrome.port, page.cookie));
    }
    const last = figures.at(-1)!;
    rows.push({
      page: page.title,
      performance: median(figures.map((figure) => figure.performance)),
      'performance runs': figures.map((figure) => figure.performance).join(' '),
      accessibility: median(figures.map((figure) => figure.accessibility)),
      'FCP ms': median(figures.map((figure) => figure.firstContentfulPaintMs)),
      'LCP ms': median(figures.map((figure) => figure.largestContentfulPaintMs)),
      'TBT ms': median(figures.map((figure) => figure.totalBlockingTimeMs)),
      CLS: median(figures.map((figure) => figure.cumulativeLayoutShift)),
      'transfer KB': last.transferKilobytes,
    });
    if (last.failedAccessibilityAudits.length) {
      console.log(
        `${page.title}: failed accessibility audits: ${last.failedAccessibilityAudits.join(', ')}`,
      );
    }
  }
  console.table(rows);
} finally {
  chrome.kill();
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
