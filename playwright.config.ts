import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { e2eEnv, e2ePort, e2eSmtpPort, e2eUrl } from './e2e/support/env';

/**
 * End-to-end tests: the built server (API + web app) on an embedded PGlite database seeded
 * with the demo organisation, a loopback SMTP server (globalSetup) that writes each message
 * to a folder the tests read. Run with `npm run test:e2e` (build first).
 *
 * This file is evaluated by the runner and again by every worker: the per-run folders are
 * created once and handed on through the environment, which the workers inherit.
 */
if (!process.env[e2eEnv.runDir]) {
  const runDir = mkdtempSync(join(tmpdir(), 'mise-e2e-'));
  mkdirSync(join(runDir, 'data'));
  mkdirSync(join(runDir, 'mail'));
  process.env[e2eEnv.runDir] = runDir;
  process.env[e2eEnv.mailDir] = join(runDir, 'mail');
}
const runDir = process.env[e2eEnv.runDir]!;

// An empty DATABASE_URL is invalid for the server, and a set one would point it away from
// the fresh embedded database: remove it from what the server process inherits.
delete process.env.DATABASE_URL;
delete process.env.SEED_DEMO;

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_500 },
  reporter: [['list'], ['json', { outputFile: '.ci/results/e2e.json' }]],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: {
    baseURL: e2eUrl,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
  projects: [
    // The back-office's specs; the tablet's run in their own project below.
    { name: 'chromium', testIgnore: 'tablet/**' },
    {
      // The tablet app (apps/tablet at /tablet/): a 10-inch tablet in landscape, a fake camera
      // that needs no permission prompt, and its service worker allowed (offline shell).
      name: 'tablet',
      testMatch: 'tablet/**/*.spec.ts',
      use: {
        viewport: { width: 1280, height: 800 },
        hasTouch: true,
        permissions: ['camera'],
        serviceWorkers: 'allow',
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            ...chromiumArgs,
            '--use-fake-device-for-media-stream',
            '--use-fake-ui-for-media-stream',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node apps/server/dist/main.js',
    url: `${e2eUrl}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: {
      PORT: String(e2ePort),
      HOST: '127.0.0.1',
      PUBLIC_URL: e2eUrl,
      DATA_DIR: join(runDir, 'data'),
      // Info: the technical screen's Output tab follows the requests (e2e/technical).
      LOG_LEVEL: 'info',
      SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort}?ignoreTLS=true`,
    },
  },
});
