/** Fixed addresses of the e2e run (loopback only) and the environment variables it shares. */
export const e2ePort = 3210;
export const e2eUrl = `http://127.0.0.1:${e2ePort}`;
export const e2eSmtpPort = 2587;

export const e2eEnv = {
  /** This run's folder under the OS temp dir: server data and received mail. */
  runDir: 'MISE_E2E_RUN_DIR',
  /** Where the loopback SMTP server writes each message it receives, one JSON file each. */
  mailDir: 'MISE_E2E_MAIL_DIR',
} as const;

export function mailDir(): string {
  const dir = process.env[e2eEnv.mailDir];
  if (!dir)
    throw new Error(`${e2eEnv.mailDir} is not set: run the tests through playwright.config.ts`);
  return dir;
}
