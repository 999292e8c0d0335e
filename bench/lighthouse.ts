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
import * as chromeLauncher from 'chrome-launcher';
import { audit, type Figures, initialAssets, median, startBuiltServer } from './browser-support';

const port = Number(process.env.LIGHTHOUSE_PORT ?? 3320);
const base = `http://127.0.0.1:${port}`;
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const email = `${process.env.LIGHTHOUSE_ROLE ?? 'admin'}@demo.test`;
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const webDist = 'apps/web/dist';
/** Set to a folder to keep each run's full Lighthouse report (JSON) there. */
const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;

async function signIn(): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

const assets = initialAssets(webDist);
console.log(
  `Initial assets of ${webDist}: JS ${assets.jsKilobytes.toFixed(1)} KB gzip, CSS ${assets.cssKilobytes.toFixed(1)} KB gzip (${assets.files.length} files)`,
);
if (assets.conditional.length) {
  console.log(`Preloaded when they apply (gzip): ${assets.conditional.join(', ')}`);
}

const server = await startBuiltServer(port);
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const cookie = await signIn();
  const pages: { title: string; path: string; cookie?: string }[] = [
    { title: '/login (signed out)', path: '/login' },
    { title: `/home (${email})`, path: '/home', cookie },
  ];
  const rows = [];
  for (const page of pages) {
    const figures: Figures[] = [];
    for (let run = 0; run < runs; run += 1) {
      figures.push(await audit(`${base}${page.path}`, chrome.port, page.cookie, reportDir));
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
  await server.stop();
}
