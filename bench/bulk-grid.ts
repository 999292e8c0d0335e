/**
 * Expert mode, the bulk grid in the browser (issue 19; not a test): the built server on a fresh
 * embedded database with the demo organisation, Debian's Chromium driven by playwright-core.
 *
 * The demo distributor gets a database of BENCH_GRID_ELEMENTS elements (default 2,000, the bulk
 * maximum; one bulk POST), then /bulkDatabaseElement?database=<id> is opened
 * BENCH_GRID_RUNS times (default 3, a fresh browser context each: nothing cached), measured
 * in the page with the Performance API:
 *   - first rows: from navigation start (performance.timeOrigin) to the first frame painted
 *     after the grid's first row is in the page (a rAF, then a task: the paint is done);
 *     with the bulk GET's start, sending (it waits for a free connection) and end (resource
 *     timing) and the first contentful paint beside it;
 *   - scrolling: the grid scrolled BENCH_GRID_STEP px (default 120) every animation frame from
 *     the top to the bottom, twice per page; the gaps between requestAnimationFrame callbacks
 *     give the frame times: median, p95, max, and frames over 25 ms / total.
 * The machine's load average is printed before and after (the machine is shared).
 *
 *   npm run build && node --import tsx bench/bulk-grid.ts
 *   BENCH_GRID_RUNS=5 BENCH_GRID_STEP=240 node --import tsx bench/bulk-grid.ts
 */
import { cpus, loadavg } from 'node:os';
import { type BrowserContext, chromium } from 'playwright-core';
import { median, startBuiltServer } from './browser-support';

const port = Number(process.env.BENCH_GRID_PORT ?? 3330);
const elementCount = Number(process.env.BENCH_GRID_ELEMENTS ?? 2000);
const runs = Number(process.env.BENCH_GRID_RUNS ?? 3);
const step = Number(process.env.BENCH_GRID_STEP ?? 120);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const viewport = { width: 1280, height: 800 };
/** A frame longer than this is counted as janky (a 40 fps floor). */
const slowFrameMs = 25;

type Scroll = {
  frames: number;
  median: number;
  p95: number;
  max: number;
  slow: number;
  durationMs: number;
};

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Signs the demo distributor in on the context and makes the database (cookie session, CSRF). */
async function seed(context: BrowserContext, base: string): Promise<string> {
  const login = await context.request.post(`${base}/api/auth/login`, {
    data: { email: 'distributor@demo.test', password: 'demo1234' },
  });
  if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
  const { csrfToken } = (await (await context.request.get(`${base}/api/auth/csrf`)).json()) as {
    csrfToken: string;
  };
  const headers = { 'x-csrf-token': csrfToken, origin: base };
  const created = await context.request.post(`${base}/api/databases`, {
    data: { name: `Bench grid ${Date.now().toString(36)}` },
    headers,
  });
  if (!created.ok()) throw new Error(`database: ${created.status()} ${await created.text()}`);
  const { database } = (await created.json()) as { database: { id: string } };
  const rows = Array.from({ length: elementCount }, (_, index) => ({
    key: `n${index}`,
    id: null,
    values: {
      name: `Élément ${String(index).padStart(4, '0')}`,
      minimum_temperature: 0,
      maximum_temperature: 4,
    },
  }));
  const started = performance.now();
  const saved = await context.request.post(`${base}/api/databases/${database.id}/elements/bulk`, {
    data: { rows },
    headers,
    timeout: 120_000,
  });
  if (!saved.ok()) throw new Error(`bulk save: ${saved.status()} ${await saved.text()}`);
  console.log(
    `Seeded ${elementCount} elements in one bulk POST: ${Math.round(performance.now() - started)} ms`,
  );
  return database.id;
}

/** Marks, from the document's start, the first frame painted with a grid row in it. */
function watchFirstRows() {
  const marks = { rows: 0 };
  (window as unknown as { benchMarks: typeof marks }).benchMarks = marks;
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid^="bulk-row-"]')) return;
    observer.disconnect();
    // The rAF runs before the frame's paint; the task queued from it runs after.
    requestAnimationFrame(() => {
      setTimeout(() => {
        marks.rows = performance.now();
      }, 0);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** Scrolls the grid `stepPx` a frame to the bottom; answers the frame times. */
async function scrollGrid(stepPx: number): Promise<Scroll> {
  const grid = document.querySelector('[data-testid="bulk-grid"]') as HTMLElement;
  grid.scrollTop = 0;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const gaps: number[] = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let last = performance.now();
    function frame(now: number) {
      gaps.push(now - last);
      last = now;
      if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) {
        resolve();
        return;
      }
      grid.scrollTop += stepPx;
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  });
  const durationMs = performance.now() - started;
  gaps.shift();
  const sorted = [...gaps].sort((left, right) => left - right);
  return {
    frames: gaps.length,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    max: sorted.at(-1) ?? 0,
    slow: gaps.filter((gap) => gap > 25).length,
    durationMs,
  };
}

console.log(`Machine: ${cpus().length} cores, load average before: ${load()}`);
// A benchmark measures a busy machine, it must not be shed (the server's load shedding).
process.env.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS ??= '0';
const server = await startBuiltServer(port);
const browser = await chromium.launch({
  executablePath: chromePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const seedContext = await browser.newContext({ viewport });
  const databaseId = await seed(seedContext, server.base);
  const storageState = await seedContext.storageState();
  await seedContext.close();

  const firstRows: Record<string, number | string>[] = [];
  const scrolls: Scroll[] = [];
  for (let run = 0; run < runs; run += 1) {
    const context = await browser.newContext({ viewport, storageState });
    const page = await context.newPage();
    // tsx names the functions sent to the page through a `__name` helper the page lacks.
    await page.addInitScript('window.__name = (fn) => fn;');
    await page.addInitScript(watchFirstRows);
    await page.goto(`${server.base}/bulkDatabaseElement?database=${databaseId}`);
    await page.waitForFunction(
      () => (window as unknown as { benchMarks: { rows: number } }).benchMarks.rows > 0,
      null,
      { timeout: 60_000 },
    );
    const figures = await page.evaluate(() => {
      const marks = (window as unknown as { benchMarks: { rows: number } }).benchMarks;
      const bulk = performance
        .getEntriesByType('resource')
        .find((entry) => entry.name.includes('/elements/bulk')) as
        | PerformanceResourceTiming
        | undefined;
      const paint = performance
        .getEntriesByType('paint')
        .find((entry) => entry.name === 'first-contentful-paint');
      return {
        rows: marks.rows,
        fcp: paint?.startTime ?? 0,
        bulkStart: bulk?.startTime ?? 0,
        bulkSent: bulk?.requestStart ?? 0,
        bulkEnd: bulk?.responseEnd ?? 0,
        bulkBytes: bulk?.encodedBodySize ?? 0,
        rowCount: document
          .querySelector('[data-testid="bulk-grid"]')
          ?.getAttribute('data-row-count'),
        rowsInPage: document.querySelectorAll('[data-testid^="bulk-row-"]').length,
      };
    });
    if (figures.rowCount !== String(elementCount))
      throw new Error(`the grid shows ${figures.rowCount} rows, not ${elementCount}`);
    firstRows.push({
      run: run + 1,
      'first rows ms': Math.round(figures.rows),
      // Headless Chromium does not always record the paint entry.
      'FCP ms': figures.fcp > 0 ? Math.round(figures.fcp) : '—',
      // Sent: the request leaves once one of the 6 connections is free (the screen's chunks).
      'bulk GET start → sent → end ms': `${Math.round(figures.bulkStart)} → ${Math.round(figures.bulkSent)} → ${Math.round(figures.bulkEnd)}`,
      'GET end → rows ms': Math.round(figures.rows - figures.bulkEnd),
      'GET kB (wire)': Math.round(figures.bulkBytes / 1024),
      'rows in page': figures.rowsInPage,
    });
    for (let pass = 0; pass < 2; pass += 1) scrolls.push(await page.evaluate(scrollGrid, step));
    await context.close();
  }

  console.table(firstRows);
  console.log(
    `First rows painted (median of ${runs}): ${median(firstRows.map((row) => row['first rows ms'] as number))} ms from navigation start`,
  );
  console.table(
    scrolls.map((scroll, index) => ({
      pass: index + 1,
      frames: scroll.frames,
      'median ms': round(scroll.median),
      'p95 ms': round(scroll.p95),
      'max ms': round(scroll.max),
      [`over ${slowFrameMs} ms`]: `${scroll.slow} / ${scroll.frames}`,
      'top → bottom s': round(scroll.durationMs / 1000),
    })),
  );
  const allFrames = scrolls.reduce((sum, scroll) => sum + scroll.frames, 0);
  const allSlow = scrolls.reduce((sum, scroll) => sum + scroll.slow, 0);
  console.log(
    `Scrolling ${elementCount} rows at ${step} px a frame: median frame ${round(median(scrolls.map((scroll) => scroll.median)))} ms, p95 ${round(median(scrolls.map((scroll) => scroll.p95)))} ms (medians of ${scrolls.length} passes), ${allSlow} / ${allFrames} frames over ${slowFrameMs} ms (${round((100 * allSlow) / allFrames)} %)`,
  );
} finally {
  await browser.close();
  await server.stop();
  console.log(`Load average after: ${load()}`);
}
