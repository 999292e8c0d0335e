import { spawn, spawnSync } from 'node:child_process';

/** A PostgreSQL client program (pg_dump, pg_restore) is missing or failed. */
export class PgToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PgToolError';
  }
}

/**
 * The connection for a client program: the URL without its password on the command line (which
 * `ps` shows to every user of the machine), the password in PGPASSWORD.
 */
export function connectionOf(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    url: url.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env },
  };
}

/** The program's major version, or a clear error when it is not installed. */
export function toolMajorVersion(program: 'pg_dump' | 'pg_restore'): number {
  const found = spawnSync(program, ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new PgToolError(
      `${program} was not found. Install PostgreSQL's client programs, of the server's major ` +
        'version or newer (Debian/Ubuntu: apt-get install postgresql-client).',
    );
  }
  const major = /(\d+)(?:\.\d+)?/.exec(found.stdout)?.[1];
  return Number(major ?? 0);
}

/** Runs a client program; rejects with its standard error when it fails. */
export function runPgTool(
  program: 'pg_dump' | 'pg_restore',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // Enough to say why; a failing restore can print one line per object.
      if (errors.length < 20_000) errors += chunk;
    });
    child.on('error', (error) => reject(new PgToolError(`${program}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new PgToolError(`${program} failed (exit ${code}):\n${errors.trim()}`));
    });
  });
}
