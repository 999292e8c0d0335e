import type { AlertEpisode, AlertListQuery } from '@mise/shared/probes/alerts';
import { and, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  alertEpisodes,
  employees,
  probes,
  pushSubscriptions,
  stores,
  users,
} from '../../db/schema';
import { AppError } from '../../platform/errors';
import { type Scope, storeFilter } from '../../platform/scope';
import { boundElementSql } from '../probes/bound-element';
import { chainAlertEpisodeEvents } from '../records/sources/alert-episodes';

/** The element bound to the episode's probe (its name as the catalogue resolves it). */
const elementName = sql<string | null>`(select bound.name from ${boundElementSql(
  sql`${alertEpisodes.store_id}`,
  sql`${probes.probe_uid}`,
)} bound)`;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

async function selectEpisodes(db: Database, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({
      episode: alertEpisodes,
      probeUID: probes.probe_uid,
      probeName: probes.name,
      storeName: stores.name,
      elementName,
    })
    .from(alertEpisodes)
    .innerJoin(probes, eq(probes.id, alertEpisodes.probe_id))
    .innerJoin(stores, eq(stores.id, alertEpisodes.store_id))
    .where(where)
    .orderBy(desc(alertEpisodes.started_at), desc(alertEpisodes.id))
    .limit(limit);
  return rows.map(
    ({ episode, probeUID, probeName, storeName, elementName: element }): AlertEpisode => ({
      id: episode.id,
      kind: episode.kind,
      probeId: episode.probe_id,
      probeUID,
      probeName,
      storeId: episode.store_id,
      storeName,
      elementName: element,
      startedAt: episode.started_at.toISOString(),
      openedAt: episode.opened_at.toISOString(),
      resolvedAt: iso(episode.resolved_at),
      minimumTemperature: episode.minimum_temperature,
      maximumTemperature: episode.maximum_temperature,
      delayMinutes: episode.delay_minutes,
      worstValue: episode.worst_value,
      lastValue: episode.last_value,
      escalationLevel: episode.escalation_level,
      acknowledgedAt: iso(episode.acknowledged_at),
      acknowledgedByName: episode.acknowledged_by_name,
      correctiveAction: episode.corrective_action,
    }),
  );
}

/** Open: not resolved yet, or resolved without an acknowledgement. */
const isOpen = or(isNull(alertEpisodes.resolved_at), isNull(alertEpisodes.acknowledged_at));

/** GET /api/alerts: the episodes of the stores the user sees, newest first. */
export function listAlerts(db: Database, scope: Scope, query: AlertListQuery) {
  return selectEpisodes(
    db,
    and(
      storeFilter(scope),
      query.storeId ? eq(alertEpisodes.store_id, query.storeId) : undefined,
      query.probeUID ? eq(probes.probe_uid, query.probeUID) : undefined,
      query.state === 'open' ? isOpen : undefined,
      // An episode belongs to a range when it overlaps it.
      query.from
        ? or(
            isNull(alertEpisodes.resolved_at),
            gte(alertEpisodes.resolved_at, new Date(query.from)),
          )
        : undefined,
      query.to ? lte(alertEpisodes.started_at, new Date(query.to)) : undefined,
    ),
    query.limit,
  );
}

/** GET /api/device/alerts: the tablet's store, open or unacknowledged, last 7 days. */
export function listDeviceAlerts(db: Database, storeId: string, now: Date) {
  return selectEpisodes(
    db,
    and(
      eq(alertEpisodes.store_id, storeId),
      isOpen,
      or(
        isNull(alertEpisodes.resolved_at),
        gte(alertEpisodes.started_at, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)),
      ),
    ),
    100,
  );
}

type Acknowledger =
  | { kind: 'user'; scope: Scope; userId: string }
  | { kind: 'employee'; storeId: string; employeeId: string };

/**
 * Acknowledges an episode once, with its corrective action, attributed (the person's name is
 * kept with it) and stamped with the server's time. 404 outside the person's stores, 409 when
 * someone acknowledged it first.
 */
export async function acknowledgeAlert(
  db: Database,
  alertId: string,
  correctiveAction: string,
  by: Acknowledger,
  now: Date,
): Promise<AlertEpisode> {
  const inReach =
    by.kind === 'user'
      ? and(
          eq(alertEpisodes.id, alertId),
          sql`${alertEpisodes.store_id} in (select ${stores.id} from ${stores} where ${
            storeFilter(by.scope) ?? sql`true`
          })`,
        )
      : and(eq(alertEpisodes.id, alertId), eq(alertEpisodes.store_id, by.storeId));
  const [found] = await db
    .select({ id: alertEpisodes.id, acknowledgedAt: alertEpisodes.acknowledged_at })
    .from(alertEpisodes)
    .where(inReach);
  if (!found) throw new AppError('alert/not-found');
  const name =
    by.kind === 'user'
      ? await db
          .select({
            name: sql<string>`trim(${users.name} || ' ' || ${users.surname})`,
            email: users.email,
          })
          .from(users)
          .where(eq(users.id, by.userId))
          .then(([row]) => (row?.name ? row.name : (row?.email ?? '')))
      : await db
          .select({ name: sql<string>`trim(${employees.name} || ' ' || ${employees.surname})` })
          .from(employees)
          .where(eq(employees.id, by.employeeId))
          .then(([row]) => row?.name ?? '');
  // The acknowledgement and its records chain entry in one transaction (issue 21).
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(alertEpisodes)
      .set({
        acknowledged_at: now,
        acknowledged_by_user_id: by.kind === 'user' ? by.userId : null,
        acknowledged_by_employee_id: by.kind === 'employee' ? by.employeeId : null,
        acknowledged_by_name: name,
        corrective_action: correctiveAction,
        next_escalation_at: null,
      })
      .where(and(eq(alertEpisodes.id, alertId), isNull(alertEpisodes.acknowledged_at)))
      .returning({ id: alertEpisodes.id });
    if (updated.length === 0) throw new AppError('alert/already-acknowledged');
    await chainAlertEpisodeEvents(tx, [{ id: alertId, event: 'acknowledged' }], now);
  });
  const [episode] = await selectEpisodes(db, eq(alertEpisodes.id, alertId), 1);
  return episode as AlertEpisode;
}

/* ---------- Web Push subscriptions and the user's language ---------- */

export async function saveSubscription(
  db: Database,
  owner: { userId: string } | { deviceId: string },
  body: { endpoint: string; keys: { p256dh: string; auth: string } },
  language: string | null,
): Promise<void> {
  const values = {
    user_id: 'userId' in owner ? owner.userId : null,
    device_id: 'deviceId' in owner ? owner.deviceId : null,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    language,
  };
  // One browser is one endpoint: subscribing again (or as another person) takes it over.
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
}

export async function deleteSubscription(
  db: Database,
  userId: string,
  endpoint: string,
): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.user_id, userId)));
}

export async function setUserLanguage(db: Database, userId: string, language: string) {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

/**
 * Episodes whose condition is still on, by kind, and how many of them nobody acknowledged yet
 * (the /metrics gauges): answered from the partial index of unresolved episodes, whatever the
 * size of the history. Kinds without an episode count 0.
 */
export async function countUnresolvedEpisodes(
  db: Database,
): Promise<{ kind: AlertEpisode['kind']; open: number; unacknowledged: number }[]> {
  const rows = await db
    .select({
      kind: alertEpisodes.kind,
      open: sql<number>`count(*)::int`,
      unacknowledged: sql<number>`(count(*) filter (where ${alertEpisodes.acknowledged_at} is null))::int`,
    })
    .from(alertEpisodes)
    .where(isNull(alertEpisodes.resolved_at))
    .groupBy(alertEpisodes.kind);
  return alertEpisodes.kind.enumValues.map((kind) => {
    const row = rows.find((candidate) => candidate.kind === kind);
    return { kind, open: Number(row?.open ?? 0), unacknowledged: Number(row?.unacknowledged ?? 0) };
  });
}
