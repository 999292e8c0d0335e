import { inArray } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../client';
import { users } from '../schema';
import { demoEmails, demoPassword } from './demo';

/**
 * Whether a start may create the demo organisation (accounts with a published password):
 * never in production (NODE_ENV=production or an https PUBLIC_URL, i.e. reachable by
 * others); otherwise on the embedded database, or on PostgreSQL when SEED_DEMO asks.
 */
export function demoSeeding(
  config: Pick<Config, 'NODE_ENV' | 'PUBLIC_URL' | 'SEED_DEMO'>,
  driver: 'pg' | 'pglite',
): { isSeeding: boolean; refusal: string | null } {
  const isWanted = driver === 'pglite' || config.SEED_DEMO;
  const reason =
    config.NODE_ENV === 'production'
      ? 'NODE_ENV is production'
      : config.PUBLIC_URL.startsWith('https://')
        ? `PUBLIC_URL is https (${config.PUBLIC_URL})`
        : null;
  if (!reason) return { isSeeding: isWanted, refusal: null };
  return {
    isSeeding: false,
    refusal: isWanted ? `No demo data is created: ${reason}.` : null,
  };
}

/** Whether any demo account (the published demo log-ins) is present and active. */
export async function hasDemoAccounts(db: Database): Promise<boolean> {
  const rows = await db
    .select({ active: users.active })
    .from(users)
    .where(inArray(users.email, Object.values(demoEmails)));
  return rows.some((row) => row.active);
}

/** The start-up warning printed while demo accounts exist. */
export function demoWarning(): string {
  return [
    `WARNING: demo data. The accounts ${Object.values(demoEmails).join(', ')} share the published`,
    `password "${demoPassword}": this server is for trying Mise only. Do not put real data in it or`,
    'expose it to others. Production (NODE_ENV=production or an https PUBLIC_URL) seeds no demo data;',
    'disable or delete these accounts on a server that keeps them.',
  ].join('\n');
}
