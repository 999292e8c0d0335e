import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, test as base, expect } from '@playwright/test';
import { login } from './auth';
import { demoPassword, demoUsers, type Role } from './demo';

type TestFixtures = {
  /** Set with test.use({ signedInAs: 'admin' }): the context starts with that demo session. */
  signedInAs: Role | null;
  /** Opens another browser context (signed out, the project's options), closed after the test. */
  newSignedOutContext: () => Promise<BrowserContext>;
};

type WorkerFixtures = {
  /** Signs a demo role in through the login page once per worker; answers its storage state file. */
  sessionStateOf: (role: Role) => Promise<string>;
};

const signedOut = { cookies: [], origins: [] };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  signedInAs: [null, { option: true }],

  sessionStateOf: [
    async ({ browser }, use, workerInfo) => {
      const folder = join(
        workerInfo.project.outputDir,
        '.auth',
        `worker-${workerInfo.workerIndex}`,
      );
      mkdirSync(folder, { recursive: true });
      const states = new Map<Role, Promise<string>>();
      await use((role) => {
        let state = states.get(role);
        if (!state) {
          state = (async () => {
            const { baseURL, locale } = workerInfo.project.use;
            // Explicitly empty: in a test, browser.newContext() otherwise takes the config's `use`,
            // storageState included.
            const context = await browser.newContext({ baseURL, locale, storageState: signedOut });
            try {
              const page = await context.newPage();
              await login(page, demoUsers[role].email, demoPassword);
              const file = join(folder, `${role}.json`);
              await context.storageState({ path: file });
              return file;
            } finally {
              await context.close();
            }
          })();
          states.set(role, state);
        }
        return state;
      });
    },
    { scope: 'worker' },
  ],

  newSignedOutContext: async ({ browser }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    const { baseURL, locale, viewport } = testInfo.project.use;
    await use(async () => {
      const context = await browser.newContext({
        baseURL,
        locale,
        viewport,
        storageState: signedOut,
      });
      contexts.push(context);
      return context;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },

  storageState: async ({ signedInAs, sessionStateOf, storageState }, use) => {
    await use(signedInAs ? await sessionStateOf(signedInAs) : storageState);
  },
});

export { expect };
