import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2eEnv, e2eSmtpPort, mailDir } from './env';
import { startMailCatcher } from './smtp';

const staleAfterMs = 60 * 60 * 1000;

/** Removes the folders of earlier runs (older than a few hours, never this run's). */
function removeStaleRunFolders(): void {
  const current = process.env[e2eEnv.runDir];
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('mise-e2e-')) continue;
    const folder = join(tmpdir(), name);
    if (folder === current) continue;
    try {
      if (Date.now() - statSync(folder).mtimeMs > staleAfterMs) {
        rmSync(folder, { recursive: true, force: true });
      }
    } catch {
      // Another run's folder, or already gone.
    }
  }
}

/**
 * The loopback SMTP server the app mails through (SMTP_URL in the config). Playwright
 * starts webServer before globalSetup; that is fine: the app only sends mail when a test
 * asks for it.
 */
export default async function globalSetup(): Promise<void> {
  removeStaleRunFolders();
  globalThis.miseMailCatcher = await startMailCatcher({ port: e2eSmtpPort, folder: mailDir() });
}
