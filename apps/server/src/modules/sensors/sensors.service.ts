import { and, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { distributors, sensorCredentials } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { SensorHub, SensorProvider } from '../../platform/integrations/sensor-provider';
import { distributorFilter, type Scope } from '../../platform/scope';
import { canEditStore, findStoreInScope } from '../stores/stores.service';

type Credentials = { email: string; passwordHash: string };
type CredentialsRow = typeof sensorCredentials.$inferSelect;

const isStaff = (scope: Scope) => scope.role === 'admin' || scope.role === 'distributor';

/** The store's own credentials and its distributor's, in one query. */
async function credentialsOf(
  db: Database,
  store: { id: string; distributor_id: string | null },
): Promise<{ own?: CredentialsRow; distributor?: CredentialsRow }> {
  const rows = await db
    .select()
    .from(sensorCredentials)
    .where(
      store.distributor_id
        ? or(
            eq(sensorCredentials.store_id, store.id),
            eq(sensorCredentials.distributor_id, store.distributor_id),
          )
        : eq(sensorCredentials.store_id, store.id),
    );
  return {
    own: rows.find((row) => row.store_id === store.id),
    distributor: rows.find(
      (row) => store.distributor_id !== null && row.distributor_id === store.distributor_id,
    ),
  };
}

const asCredentials = (row: CredentialsRow): Credentials => ({
  email: row.account,
  passwordHash: row.password_hash,
});

/**
 * POST /api/koovea/validCredentials: for a distributor (admins, or that distributor's
 * accounts) or for a store (anyone who sees it, unless its distributor is already connected:
 * then admins and distributors only). Wrong credentials answer the spec's "false" and store
 * nothing; right ones replace the previous credentials of that distributor or store.
 */
export async function validCredentials(
  db: Database,
  provider: SensorProvider,
  scope: Scope,
  body: { email: string; password: string; distributorId?: string | null; storeId?: string | null },
): Promise<{ status: 'ok' | 'false' }> {
  const hasDistributor = Boolean(body.distributorId);
  const hasStore = Boolean(body.storeId);
  if (hasDistributor === hasStore) {
    throw new AppError('validation/invalid-input', 'Send either distributorId or storeId.');
  }
  let target: { distributor_id: string } | { store_id: string };
  if (body.distributorId) {
    const [distributor] = await db
      .select({ id: distributors.id })
      .from(distributors)
      .where(and(eq(distributors.id, body.distributorId), distributorFilter(scope)))
      .limit(1);
    if (!distributor) throw notFound();
    if (!isStaff(scope)) throw forbidden();
    target = { distributor_id: distributor.id };
  } else {
    const store = await findStoreInScope(db, scope, body.storeId!);
    // Managers are read-only on stores that are not manager-owned (spec 000 §6).
    if (!canEditStore(scope, store)) throw forbidden();
    if (!isStaff(scope)) {
      const { distributor } = await credentialsOf(db, store);
      if (distributor) throw forbidden();
    }
    target = { store_id: store.id };
  }
  const isValid = await provider.validCredentials({
    email: body.email,
    passwordHash: body.password,
  });
  if (!isValid) return { status: 'false' };
  const values = { ...target, account: body.email, password_hash: body.password };
  await db
    .insert(sensorCredentials)
    .values(values)
    .onConflictDoUpdate({
      target:
        'distributor_id' in target ? sensorCredentials.distributor_id : sensorCredentials.store_id,
      set: { account: body.email, password_hash: body.password, created_at: new Date() },
    });
  return { status: 'ok' };
}

/** The credentials in force for a store: its own, else its distributor's. */
async function sessionOf(db: Database, scope: Scope, storeId: string) {
  const store = await findStoreInScope(db, scope, storeId);
  const { own, distributor } = await credentialsOf(db, store);
  const inForce = own ?? distributor;
  return {
    store,
    isDistributor: !own && Boolean(distributor),
    credentials: inForce ? asCredentials(inForce) : null,
  };
}

const byName = (a: SensorHub, b: SensorHub) => a.name.localeCompare(b.name);

export async function sensorSession(
  db: Database,
  provider: SensorProvider,
  scope: Scope,
  storeId: string,
) {
  const session = await sessionOf(db, scope, storeId);
  const stickers = session.credentials ? await provider.stickers(session.credentials) : [];
  return {
    isDistributor: session.isDistributor,
    loggedIn: session.credentials !== null,
    stickers: stickers.map(({ id, name }) => ({ id, name })),
  };
}

/** Probe tags of the store's hub, sorted by name; none while no hub is chosen. */
export async function sensorTags(
  db: Database,
  provider: SensorProvider,
  scope: Scope,
  storeId: string,
) {
  const session = await sessionOf(db, scope, storeId);
  if (!session.credentials || !session.store.sensor_sticker_id) return { tags: [] };
  const tags = await provider.tags(session.credentials, session.store.sensor_sticker_id);
  return { tags: tags.map(({ id, name }) => ({ id, name })).sort(byName) };
}
