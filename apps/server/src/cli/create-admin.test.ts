import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { users } from '../db/schema';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');

/** Runs `npm run admin:create` the way an operator does, on an embedded database. */
async function createAdmin(dataDir: string, ...args: string[]) {
  return run('npm', ['run', '-s', 'admin:create', '--', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

// The command is driver-agnostic; it runs once, in the PGlite project.
describe.skipIf(process.env.TEST_DB === 'pg')('npm run admin:create', () => {
  it('refuses a weak password with a clear message and creates nothing, then creates the admin', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mise-cli-'));
    const weak = await createAdmin(
      dataDir,
      '--email',
      'Boss@Example.com',
      '--password',
      'password',
    );
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('Password too weak');

    const created = await createAdmin(
      dataDir,
      '--email',
      'Boss@Example.com',
      '--password',
      'Str0ng-enough',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Admin account created: boss@example.com');

    const again = await createAdmin(
      dataDir,
      '--email',
      'boss@example.com',
      '--password',
      'Str0ng-enough',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const database = await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
    const rows = await database.db.select().from(users);
    await database.close();
    expect(rows.map((row) => [row.email, row.role])).toEqual([['boss@example.com', 'admin']]);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
  }, 60_000);

  it('prints its usage without an e-mail', async () => {
    const result = await createAdmin(
      mkdtempSync(join(tmpdir(), 'mise-cli-')),
      '--password',
      'Str0ng-enough',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm run admin:create');
  }, 30_000);
});
