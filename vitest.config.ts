import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, four projects: the shared rules, the server suite on each
 * database driver (embedded PGlite and a real PostgreSQL server), the web app, the tablet app.
 */
export default defineConfig({
  test: {
    // In CI a JSON report feeds the closing "N passed, N failed" line (.ci/summary.mjs).
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/results/unit.json' },
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'pg' },
          globalSetup: ['apps/server/src/test/pg-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // Component tests render whole screens; on a 2-core machine under load 5 s is short.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'tablet',
          include: ['apps/tablet/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/tablet/src/test/setup.ts'],
          testTimeout: 15_000,
        },
        define: { __APP_VERSION__: JSON.stringify('test') },
      },
    ],
  },
});
