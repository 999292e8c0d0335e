import { batteryRange, maxReadingsPerRequest } from '@mise/shared/probes/constants';
import { readingRefusal } from '@mise/shared/probes/rules';
import { probeUidSchema } from '@mise/shared/probes/schemas';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { distributors, sensorCredentials } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type {
  SensorHub,
  SensorProvider,
  SensorProviderLog,
  SensorReading,
} from '../../platform/integrations/sensor-provider';
import { distributorFilter, type Scope } from '../../platform/scope';
import {
  type DueProviderProbe,
  dueProviderProbes,
  recordReadings,
  registerProviderProbes,
} from '../probes/probes.service';
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
    // Once the distributor has connected its account, only the distributor may replace it
    // (spec 000 §6; the distributor screen locks the button for the others).
    if (scope.role !== 'distributor') {
      const [connected] = await db
        .select({ id: sensorCredentials.id })
        .from(sensorCredentials)
        .where(eq(sensorCredentials.distributor_id, distributor.id))
        .limit(1);
      if (connected) throw forbidden();
    }
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

/* ---------- Provider probes: import and pull (issue 15) ---------- */

/** The probe UID of a provider tag. */
export const providerProbeUid = (tagId: string) => `koovea-${tagId}`;

/**
 * POST /api/koovea/import: with the credentials in force for the store (its own, else its
 * distributor's) and its hub when one is set, every tag becomes a probe of the store
 * (probe UID `koovea-<tag id>`, the tag's name) unless that UID exists already. Who may import:
 * whoever may set the store's credentials (validCredentials' rules). No credentials: 409
 * sensor/not-connected.
 */
export async function importProviderProbes(
  db: Database,
  provider: SensorProvider,
  scope: Scope,
  storeId: string,
): Promise<{ created: number; existing: number; skipped: number }> {
  const session = await sessionOf(db, scope, storeId);
  if (!canEditStore(scope, session.store)) throw forbidden();
  if (!isStaff(scope) && session.isDistributor) throw forbidden();
  if (!session.credentials) throw new AppError('sensor/not-connected');
  const tags = await provider.tags(session.credentials, session.store.sensor_sticker_id);
  const items = new Map<string, { probeUid: string; name: string; providerTagId: string }>();
  for (const tag of tags) {
    const probeUid = providerProbeUid(tag.id);
    if (!probeUidSchema.safeParse(probeUid).success || items.has(probeUid)) continue;
    const name = tag.name.trim().slice(0, 100) || tag.id;
    items.set(probeUid, { probeUid, name, providerTagId: tag.id });
  }
  const result = await registerProviderProbes(db, session.store.id, [...items.values()]);
  return {
    created: result.created.length,
    existing: result.existing,
    skipped: tags.length - items.size,
  };
}

/** How far back a pull reaches for a probe that has been silent (or never heard). */
export const pullLookBackMs = 24 * 60 * 60 * 1000;
/** Provider calls under way at once during a pull. */
const pullConcurrency = 4;

const isAcceptable = (reading: SensorReading, now: Date) =>
  readingRefusal(
    {
      timestamp: reading.timestamp,
      temperature: reading.temperature,
      batteryLevel: reading.batteryLevel ?? batteryRange.min,
    },
    now,
  ) === null;

/**
 * The pull job's work (the lead schedules it every minute): every provider probe of a store
 * whose last reading is at least its posting interval old gets the provider's readings of
 * (max(last reading, now − 24 h), now], recorded through the probes service in batches (once
 * per (probe, timestamp), so pulling the same range twice writes nothing twice). One query
 * finds the due probes, one their credentials; then one provider call a probe. A provider
 * failure answers no readings (and is logged by the provider); a reading ingestion would refuse
 * (absurd value, from the future) is dropped and logged, never blocking the others.
 */
export async function pullProviderReadings(
  db: Database,
  provider: SensorProvider,
  now: Date,
  log: SensorProviderLog = () => {},
): Promise<{ probes: number; readings: number }> {
  const due = await dueProviderProbes(db, now);
  if (due.length === 0) return { probes: 0, readings: 0 };
  const storeIds = [...new Set(due.map((probe) => probe.storeId))];
  const distributorIds = [
    ...new Set(due.flatMap((probe) => (probe.distributorId ? [probe.distributorId] : []))),
  ];
  const rows = await db
    .select()
    .from(sensorCredentials)
    .where(
      distributorIds.length > 0
        ? or(
            inArray(sensorCredentials.store_id, storeIds),
            inArray(sensorCredentials.distributor_id, distributorIds),
          )
        : inArray(sensorCredentials.store_id, storeIds),
    );
  const byStore = new Map(rows.flatMap((row) => (row.store_id ? [[row.store_id, row]] : [])));
  const byDistributor = new Map(
    rows.flatMap((row) => (row.distributor_id ? [[row.distributor_id, row]] : [])),
  );
  const work = due.flatMap((probe) => {
    const row =
      byStore.get(probe.storeId) ??
      (probe.distributorId ? byDistributor.get(probe.distributorId) : undefined);
    return row ? [{ probe, credentials: asCredentials(row) }] : [];
  });
  let readings = 0;
  const pullOne = async ({
    probe,
    credentials,
  }: {
    probe: DueProviderProbe;
    credentials: Credentials;
  }) => {
    const lookBack = new Date(now.getTime() - pullLookBackMs);
    const since =
      probe.lastTimestamp && probe.lastTimestamp > lookBack ? probe.lastTimestamp : lookBack;
    let fetched: SensorReading[];
    try {
      fetched = await provider.readings(credentials, probe.providerTagId, since, now);
    } catch (error) {
      log({ probeId: probe.id, error: (error as Error).message }, 'sensor pull failed');
      return;
    }
    const accepted = fetched.filter((reading) => isAcceptable(reading, now));
    if (accepted.length < fetched.length) {
      log(
        { probeId: probe.id, refused: fetched.length - accepted.length },
        'sensor pull: readings refused',
      );
    }
    for (let start = 0; start < accepted.length; start += maxReadingsPerRequest) {
      const batch = accepted.slice(start, start + maxReadingsPerRequest).map((reading) => ({
        timestamp: reading.timestamp.toISOString(),
        temperature: reading.temperature,
        batteryLevel: reading.batteryLevel,
      }));
      // Awaited first: `readings += await …` would read the total before another probe adds to it.
      const { accepted: written } = await recordReadings(db, now, probe.id, batch);
      readings += written;
    }
  };
  const queue = [...work];
  await Promise.all(
    Array.from({ length: Math.min(pullConcurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await pullOne(next);
    }),
  );
  return { probes: work.length, readings };
}
