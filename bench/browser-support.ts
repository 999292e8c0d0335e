/**
 * What the browser benchmarks share (bench/lighthouse.ts, bench/tablet.ts): the built server
 * on a fresh embedded database with the demo, the initial assets of a build, Lighthouse runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';

/**
 * The scripts and stylesheets index.html loads (entry and its preloads), gzip level 9. The
 * conditional preloads (`data-preload-when`: a language's translations, the signed-in layout;
 * the server keeps those of the visitor) are listed apart.
 */
export function initialAssets(dist: string, assetsPath = '/assets/') {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((match) => match[0]);
  const assetOf = (tag: string) => {
    const path = tag.match(/(?:src|href)="([^"]+\.(?:js|css))"/)?.[1];
    return path?.startsWith(assetsPath)
      ? path.slice(assetsPath.length - '/assets/'.length)
      : undefined;
  };
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

export async function waitFor(url: string, timeoutMs = 90_000): Promise<void> {
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

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export type Figures = {
  performance: number;
  accessibility: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  transferKilobytes: number;
  failedAccessibilityAudits: string[];
};

export async function audit(
  url: string,
  chromePort: number,
  cookie?: string,
  reportDir?: string,
): Promise<Figures> {
  // A trace Chrome failed to record (NO_NAVSTART and the like) is measured again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(url, chromePort, cookie, reportDir);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`${url}: ${error instanceof Error ? error.message : error}; measuring again`);
    }
  }
}

async function auditOnce(
  url: string,
  chromePort: number,
  cookie: string | undefined,
  reportDir: string | undefined,
): Promise<Figures> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    extraHeaders: cookie ? { cookie } : undefined,
    // A fresh cache on every run: the cold load of a first visit.
    disableStorageReset: false,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(result.lhr.runtimeError.message);
  if (reportDir) {
    writeFileSync(
      join(reportDir, `${new URL(url).pathname.replaceAll('/', '_')}-${Date.now()}.json`),
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

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The built server (apps/server/dist) on a fresh embedded database seeded with the demo. */
export async function startBuiltServer(
  port: number,
): Promise<{ base: string; stop: () => Promise<void> }> {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-'));
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
  await waitFor(`${base}/api/health`);
  return {
    base,
    stop: async () => {
      await stop(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
