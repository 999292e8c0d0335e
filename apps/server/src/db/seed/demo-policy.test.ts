import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildUser } from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { users } from '../schema';
import { demoEmails } from './demo';
import { demoSeeding, demoWarning } from './demo-policy';

const configOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/mise', ...env });

describe('demo seeding at start (issue 13, point 14)', () => {
  it('seeds the embedded default for trying Mise, and PostgreSQL only when asked', () => {
    expect(demoSeeding(configOf({}), 'pglite')).toEqual({ isSeeding: true, refusal: null });
    expect(demoSeeding(configOf({}), 'pg')).toEqual({ isSeeding: false, refusal: null });
    expect(demoSeeding(configOf({ SEED_DEMO: 'true' }), 'pg').isSeeding).toBe(true);
  });

  it('never seeds in production: NODE_ENV=production or an https PUBLIC_URL', () => {
    for (const env of [
      { NODE_ENV: 'production' } as Record<string, string>,
      { PUBLIC_URL: 'https://mise.example.com' },
      { PUBLIC_URL: 'https://mise.example.com', SEED_DEMO: 'true' },
    ]) {
      const decision = demoSeeding(configOf(env), 'pglite');
      expect(decision.isSeeding, JSON.stringify(env)).toBe(false);
      expect(decision.refusal).toMatch(/^No demo data is created: /);
    }
    expect(demoSeeding(configOf({ NODE_ENV: 'production' }), 'pg')).toEqual({
      isSeeding: false,
      refusal: null,
    });
  });

  it('warns at start with the published log-ins', () => {
    const warning = demoWarning();
    expect(warning).toContain('WARNING: demo data');
    expect(warning).toContain('admin@demo.test');
    expect(warning).toContain('demo1234');
  });
});

describe('GET /api/demo', () => {
  const context = useTestApp();

  it('tells the web app whether the demo accounts exist (for its banner)', async () => {
    const ask = async () =>
      (await context.app.inject({ method: 'GET', url: '/api/demo' })).json().hasDemoAccounts;
    expect(await ask()).toBe(false);
    await buildUser(context.db, { role: 'admin', email: demoEmails.admin });
    expect(await ask()).toBe(true);
    await context.db.update(users).set({ active: false }).where(eq(users.email, demoEmails.admin));
    expect(await ask()).toBe(false);
  });
});
