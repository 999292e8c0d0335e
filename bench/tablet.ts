/**
 * Tablet app figures (not a test), on the built server with a fresh embedded demo database and
 * Debian's Chromium:
 *   - the initial JavaScript of apps/tablet/dist (what index.html loads, gzip);
 *   - Lighthouse mobile (simulated slow 4G, 4× CPU) on /tablet/, the first screen (pairing);
 *   - from a PIN accepted (the server's answer reaching the tablet) to the day's list on
 *     screen, on the demo data, measured in the page (median and worst of PIN_RUNS).
 *
 *   npm run build && node --import tsx bench/tablet.ts
 */
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import { audit, initialAssets, median, startBuiltServer } from './browser-support';
import { demoTablet } from './tablet-support';

const port = Number(process.env.TABLET_BENCH_PORT ?? 3330);
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const pinRuns = Number(process.env.PIN_RUNS ?? 7);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const assets = initialAssets('apps/tablet/dist', '/tablet/assets/');
console.log(
  `Tablet initial assets: JS ${assets.jsKilobytes.toFixed(1)} KB gzip, CSS ${assets.cssKilobytes.toFixed(1)} KB gzip (${assets.files.length} files)`,
);

const server = await startBuiltServer(port);
try {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const scores = [];
  try {
    for (let run = 0; run < runs; run += 1)
      scores.push(await audit(`${server.base}/tablet/`, chrome.port));
  } finally {
    chrome.kill();
  }
  console.table([
    {
      page: '/tablet/ (pairing, cold)',
      performance: median(scores.map((figure) => figure.performance)),
      'performance runs': scores.map((figure) => figure.performance).join(' '),
      accessibility: median(scores.map((figure) => figure.accessibility)),
      'FCP ms': median(scores.map((figure) => figure.firstContentfulPaintMs)),
      'LCP ms': median(scores.map((figure) => figure.largestContentfulPaintMs)),
      'TBT ms': median(scores.map((figure) => figure.totalBlockingTimeMs)),
      'transfer KB': scores.at(-1)?.transferKilobytes,
    },
  ]);

  // PIN accepted → day list, in a paired tablet (the demo's Paris store, Lucas Martin, 1234).
  const tablet = await demoTablet(server.base);
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox'] });
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
    ).newPage();
    await page.goto(`${server.base}/tablet/`);
    await page.getByLabel('Pairing key').fill(tablet.pairingKey);
    await page.getByRole('button', { name: 'Pair' }).click();
    const durations: number[] = [];
    for (let run = 0; run < pinRuns; run += 1) {
      await page.getByRole('heading', { name: 'Who is working?' }).waitFor();
      await page.getByRole('button', { name: /Lucas Martin/ }).click();
      for (const digit of '123') await page.getByRole('button', { name: `Digit ${digit}` }).click();
      // Measured in the page: from the authenticate answer's arrival to the first task card.
      // (Page code as text: this project has no DOM types.)
      await page.evaluate(`(() => {
        window.pinAcceptedAt = undefined;
        if (window.pinWrapped) return;
        window.pinWrapped = true;
        const original = window.fetch;
        window.fetch = async (...args) => {
          const response = await original(...args);
          if (String(args[0]).endsWith('/authenticate') && response.ok)
            window.pinAcceptedAt = performance.now();
          return response;
        };
      })()`);
      await page.getByRole('button', { name: 'Digit 4' }).click();
      const elapsed = await page.evaluate<number>(`new Promise((resolve) => {
        const check = () => {
          if (window.pinAcceptedAt !== undefined && document.querySelector('.task'))
            resolve(performance.now() - window.pinAcceptedAt);
          else requestAnimationFrame(check);
        };
        check();
      })`);
      durations.push(elapsed);
      await page.getByRole('button', { name: 'Change employee' }).click();
    }
    const sorted = [...durations].sort((a, b) => a - b);
    console.log(
      `PIN accepted → day list on screen (${pinRuns} runs): median ${median(durations).toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
}
