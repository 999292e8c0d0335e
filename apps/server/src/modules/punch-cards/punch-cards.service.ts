import { createHash } from 'node:crypto';
import { rangeDays } from '@mise/shared/history/rules';
import { maxPunchRangeDays } from '@mise/shared/people/constants';
import { entryDay, isCoherent, type PunchEntryLike, sortEntries } from '@mise/shared/people/rules';
import type {
  devicePunchBodySchema,
  PunchCards,
  PunchEntry,
  SavePunchCardsBody,
  Schedule,
} from '@mise/shared/people/schemas';
import { dayInZone, madeAtWithinGrace } from '@mise/shared/tasks/rules';
import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import {
  employeeRoles,
  employeeStores,
  employees,
  punchEntries,
  punchEntryRevisions,
} from '../../db/schema';
import { canonicalJson } from '../../platform/canonical-json';
import { AppError, forbidden } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { appendToChain, type ChainEntryInput } from '../records/chain';
import { punchEntryRevisionContent } from '../records/sources/punch-entry-revisions';
import { canEditStore, findStoreInScope, type StoreRow } from '../stores/stores.service';
import {
  isTabletPicture,
  saveTabletPicture,
  storeZone,
  type TaskActor,
} from '../tasks/task-results.service';

/*
 * Punch cards (spec 000 §2, §3, §4, §5, §9). One row per entry (punch_entries), read by the
 * (store_id, day) index; `day` is the store's calendar day of the effective time (the modified
 * time when set). A correction keeps the clock time; a removal is a soft delete; every change
 * writes a punch_entry_revisions row (author, from, to). Tablets clock in and out with an
 * idempotency key unique per store.
 */

type EntryRow = typeof punchEntries.$inferSelect;
type DevicePunchBody = z.infer<typeof devicePunchBodySchema>;
type Range = { start: string; end: string };

/** Statements carry at most this many rows (well under PostgreSQL's 65 535 parameters). */
const batchSize = 500;

/** 'validation/invalid-input' when end is before start, 'date-range-too-long' beyond 62 days. */
export function assertPunchRange({ start, end }: Range): void {
  const days = rangeDays(start, end);
  if (!Number.isFinite(days) || days < 1) throw new AppError('validation/invalid-input');
  if (days > maxPunchRangeDays) throw new AppError('date-range-too-long');
}

export const selfieUrl = (path: string | null) => (path ? `/api/files/${path}` : null);

function presentEntry(row: EntryRow): PunchEntry {
  return {
    id: row.id,
    employee_id: row.employee_id,
    is_in: row.is_in,
    timestamp: row.timestamp.toISOString(),
    timestamp_modified: row.timestamp_modified?.toISOString() ?? null,
    day: row.day,
    source: row.source,
    selfie_url: selfieUrl(row.selfie_path),
    incoherent: row.incoherent,
    version: row.version,
  };
}

/** A revision as stored, for its store's records chain (issue 21). */
const chainInput = (row: typeof punchEntryRevisions.$inferSelect): ChainEntryInput => ({
  storeId: row.store_id,
  kind: 'punch_entry_revision',
  recordId: row.id,
  record: punchEntryRevisionContent(row),
});

/** What a revision records of an entry. */
const snapshot = (entry: { is_in: boolean; timestamp: Date; timestamp_modified: Date | null }) => ({
  is_in: entry.is_in,
  timestamp: entry.timestamp.toISOString(),
  timestamp_modified: entry.timestamp_modified?.toISOString() ?? null,
});

const asRuleEntry = (row: {
  is_in: boolean;
  timestamp: Date;
  timestamp_modified: Date | null;
}): PunchEntryLike => ({
  is_in: row.is_in,
  timestamp: row.timestamp.toISOString(),
  timestamp_modified: row.timestamp_modified?.toISOString() ?? null,
});

/** Active employees linked to the store, with their role's name, by name (one query). */
async function listActiveStoreEmployees(db: Database, storeId: string) {
  return db
    .select({
      id: employees.id,
      name: employees.name,
      surname: employees.surname,
      role_name: employeeRoles.name,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .leftJoin(employeeRoles, eq(employeeRoles.id, employees.role_id))
    .where(and(eq(employeeStores.store_id, storeId), eq(employees.active, true)))
    .orderBy(asc(employees.name), asc(employees.surname), asc(employees.id));
}

/** Non-deleted entries of a store whose day lies in the range (one query on (store_id, day)). */
function rangeEntriesQuery(db: Database, storeId: string, { start, end }: Range) {
  return db
    .select()
    .from(punchEntries)
    .where(
      and(
        eq(punchEntries.store_id, storeId),
        gte(punchEntries.day, start),
        lte(punchEntries.day, end),
        isNull(punchEntries.deleted_at),
      ),
    )
    .orderBy(
      asc(punchEntries.day),
      asc(sql`coalesce(${punchEntries.timestamp_modified}, ${punchEntries.timestamp})`),
      asc(punchEntries.timestamp),
      asc(punchEntries.id),
    );
}

async function readPunchCards(
  db: Database,
  store: StoreRow,
  range: Range,
  isEditable: boolean,
): Promise<PunchCards> {
  const loadedAt = new Date();
  const [staff, rows] = await Promise.all([
    listActiveStoreEmployees(db, store.id),
    rangeEntriesQuery(db, store.id, range),
  ]);
  return {
    store: { id: store.id, name: store.name, timezone_name: store.timezone_name },
    start: range.start,
    end: range.end,
    employees: staff,
    entries: rows.map(presentEntry),
    editable: isEditable,
    loaded_at: loadedAt.toISOString(),
  };
}

/**
 * GET /api/stores/:storeId/punchCards?start&end: whoever sees the store; the active employees
 * of the store (the table's rows) and every non-deleted entry of the range (store days, both
 * included, at most 62).
 */
export async function getPunchCards(
  db: Database,
  scope: Scope,
  storeId: string,
  range: Range,
): Promise<PunchCards> {
  assertPunchRange(range);
  const store = await findStoreInScope(db, scope, storeId);
  return readPunchCards(db, store, range, canEditStore(scope, store));
}

const sameInstant = (left: Date | null, right: Date | null) =>
  (left?.getTime() ?? null) === (right?.getTime() ?? null);

type Insert = {
  employee_id: string;
  is_in: boolean;
  timestamp: Date;
  timestamp_modified: Date | null;
  day: string;
};
type Update = { row: EntryRow; timestamp_modified: Date | null; day: string };

/**
 * PUT /api/stores/:storeId/punchCards: the complete set of the range's entries. Checked first,
 * all or nothing: every id is a non-deleted entry of this store in the range with its current
 * version (409 otherwise); an existing entry changes only its modified time; a new entry has a
 * time and an active employee of the store; every effective day lies in the range; each
 * employee's resulting entries alternate in, out (else 'punch-card/incoherent', nothing
 * written). Then inserts, corrections and soft deletes, each with a revision by the caller.
 *
 * Entries of employees who are not rows of the table (inactive or no longer linked) are kept
 * when not sent: the screen cannot show them, so it cannot mean to delete them.
 */
export async function savePunchCards(
  db: Database,
  scope: Scope,
  storeId: string,
  body: SavePunchCardsBody,
  now = new Date(),
): Promise<PunchCards> {
  const range = { start: body.start, end: body.end };
  assertPunchRange(range);
  const store = await findStoreInScope(db, scope, storeId);
  if (!canEditStore(scope, store)) throw forbidden();
  const zone = store.timezone_name;
  const inRange = (day: string) => day >= range.start && day <= range.end;

  await db.transaction(async (tx) => {
    // Saves of one store run one after the other (two saves cannot both add the same entry).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`punch-cards:${store.id}`}, 0))`,
    );
    const [current, staff] = await Promise.all([
      rangeEntriesQuery(tx as Database, store.id, range).for('update'),
      listActiveStoreEmployees(tx as Database, store.id),
    ]);
    const rows = new Map(current.map((row) => [row.id, row]));
    const rowEmployees = new Set(staff.map((employee) => employee.id));

    const inserts: Insert[] = [];
    const updates: Update[] = [];
    const kept = new Set<string>();
    const resulting = new Map<string, PunchEntryLike[]>();
    const add = (employeeId: string, entry: PunchEntryLike) => {
      const list = resulting.get(employeeId) ?? [];
      list.push(entry);
      resulting.set(employeeId, list);
    };

    for (const sent of body.entries) {
      const modified =
        sent.timestamp_modified === undefined || sent.timestamp_modified === null
          ? sent.timestamp_modified
          : new Date(sent.timestamp_modified);
      if (sent.id) {
        const row = rows.get(sent.id);
        if (!row) throw new AppError('punch-card/unknown-entry');
        if (kept.has(row.id)) throw new AppError('validation/invalid-input');
        kept.add(row.id);
        if (sent.version === undefined) throw new AppError('validation/invalid-input');
        if (sent.version !== row.version) throw new AppError('conflict/stale-version');
        if (
          sent.is_in !== row.is_in ||
          sent.employee_id !== row.employee_id ||
          (sent.timestamp !== undefined && Date.parse(sent.timestamp) !== row.timestamp.getTime())
        ) {
          throw new AppError('validation/invalid-input');
        }
        const nextModified = modified === undefined ? row.timestamp_modified : modified;
        const entry = asRuleEntry({ ...row, timestamp_modified: nextModified });
        const day = entryDay(entry, zone);
        if (!inRange(day)) throw new AppError('punch-card/outside-range');
        if (!sameInstant(nextModified, row.timestamp_modified)) {
          updates.push({ row, timestamp_modified: nextModified, day });
        }
        add(row.employee_id, entry);
        continue;
      }
      if (!sent.timestamp) throw new AppError('punch-card/timestamp-required');
      if (!rowEmployees.has(sent.employee_id)) throw new AppError('punch-card/unknown-employee');
      const insert = {
        employee_id: sent.employee_id,
        is_in: sent.is_in,
        timestamp: new Date(sent.timestamp),
        timestamp_modified: modified ?? null,
      };
      const day = entryDay(asRuleEntry(insert), zone);
      if (!inRange(day)) throw new AppError('punch-card/outside-range');
      inserts.push({ ...insert, day });
      add(sent.employee_id, asRuleEntry(insert));
    }

    const deletes: EntryRow[] = [];
    const loadedAt = body.loaded_at ? Date.parse(body.loaded_at) : null;
    for (const row of current) {
      if (kept.has(row.id)) continue;
      // Created after the screen read the range (a tablet clocked in meanwhile): the screen
      // never saw it, so it cannot mean to delete it.
      if (loadedAt !== null && row.created_at.getTime() > loadedAt)
        throw new AppError('conflict/stale-version');
      if (rowEmployees.has(row.employee_id)) deletes.push(row);
      // Entries the screen cannot show stay; they count in the check when others of the same
      // employee were sent.
      else if (resulting.has(row.employee_id)) add(row.employee_id, asRuleEntry(row));
    }
    for (const entries of resulting.values()) {
      if (!isCoherent(entries)) throw new AppError('punch-card/incoherent');
    }

    const nowIso = now.toISOString();
    const revisions: (typeof punchEntryRevisions.$inferInsert)[] = [];
    for (let index = 0; index < inserts.length; index += batchSize) {
      const created = await tx
        .insert(punchEntries)
        .values(
          inserts.slice(index, index + batchSize).map((insert) => ({
            store_id: store.id,
            ...insert,
            source: 'back-office' as const,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning();
      for (const row of created) {
        revisions.push({
          entry_id: row.id,
          store_id: store.id,
          action: 'create',
          before: null,
          after: snapshot(row),
          user_id: scope.userId,
          employee_id: row.employee_id,
        });
      }
    }
    for (let index = 0; index < updates.length; index += batchSize) {
      const batch = updates.slice(index, index + batchSize);
      const values = sql.join(
        batch.map(
          (update) =>
            sql`(${update.row.id}::uuid, ${update.timestamp_modified?.toISOString() ?? null}::timestamptz, ${update.day}::date)`,
        ),
        sql`, `,
      );
      await tx.execute(sql`
        update ${punchEntries}
        set timestamp_modified = v.modified, day = v.day, incoherent = false,
            version = ${punchEntries}.version + 1, updated_at = ${nowIso}::timestamptz
        from (values ${values}) as v(id, modified, day)
        where ${punchEntries}.id = v.id`);
      for (const update of batch) {
        revisions.push({
          entry_id: update.row.id,
          store_id: store.id,
          action: 'update',
          before: snapshot(update.row),
          after: snapshot({ ...update.row, timestamp_modified: update.timestamp_modified }),
          user_id: scope.userId,
          employee_id: update.row.employee_id,
        });
      }
    }
    for (let index = 0; index < deletes.length; index += batchSize) {
      const batch = deletes.slice(index, index + batchSize);
      await tx
        .update(punchEntries)
        .set({ deleted_at: now, version: sql`${punchEntries.version} + 1`, updated_at: now })
        .where(
          inArray(
            punchEntries.id,
            batch.map((row) => row.id),
          ),
        );
      for (const row of batch) {
        revisions.push({
          entry_id: row.id,
          store_id: store.id,
          action: 'delete',
          before: snapshot(row),
          after: null,
          user_id: scope.userId,
          employee_id: row.employee_id,
        });
      }
    }
    // The saved entries are coherent now: clear the flags a tablet may have set.
    const updated = new Set(updates.map((update) => update.row.id));
    const flagged = current
      .filter((row) => row.incoherent && kept.has(row.id) && !updated.has(row.id))
      .map((row) => row.id);
    for (let index = 0; index < flagged.length; index += batchSize) {
      await tx
        .update(punchEntries)
        .set({ incoherent: false })
        .where(inArray(punchEntries.id, flagged.slice(index, index + batchSize)));
    }
    const written: (typeof punchEntryRevisions.$inferSelect)[] = [];
    for (let index = 0; index < revisions.length; index += batchSize) {
      written.push(
        ...(await tx
          .insert(punchEntryRevisions)
          .values(revisions.slice(index, index + batchSize))
          .returning()),
      );
    }
    await appendToChain(tx, written.map(chainInput));
  });
  return readPunchCards(db, store, range, true);
}

/**
 * GET /api/stores/:storeId/schedule?day= (home panel, spec 000 §2): the active employees of the
 * store with their entries of the day (default the store's today), by name then time.
 */
export async function getSchedule(
  db: Database,
  scope: Scope,
  storeId: string,
  day: string | undefined,
  now = new Date(),
): Promise<Schedule> {
  const store = await findStoreInScope(db, scope, storeId);
  const wanted = day ?? dayInZone(now, store.timezone_name);
  const [staff, rows] = await Promise.all([
    listActiveStoreEmployees(db, store.id),
    rangeEntriesQuery(db, store.id, { start: wanted, end: wanted }),
  ]);
  const byEmployee = new Map<string, EntryRow[]>();
  for (const row of rows) {
    const list = byEmployee.get(row.employee_id) ?? [];
    list.push(row);
    byEmployee.set(row.employee_id, list);
  }
  return {
    day: wanted,
    items: staff.map((employee) => ({
      ...employee,
      entries: sortEntries(
        (byEmployee.get(employee.id) ?? []).map((row) => ({ row, ...asRuleEntry(row) })),
      ).map(({ row, timestamp, timestamp_modified }) => ({
        id: row.id,
        is_in: row.is_in,
        time: timestamp_modified ?? timestamp,
        selfie_url: selfieUrl(row.selfie_path),
      })),
    })),
  };
}

/* ---------- Tablet: selfies and clocking ---------- */

/** Storage prefix of a store's selfies (POST /api/device/selfies builds keys under it). */
export function selfiePrefix(storeId: string): string {
  return `stores/${storeId}/selfies/`;
}

export function isStoreSelfie(storeId: string, path: string): boolean {
  return isTabletPicture(selfiePrefix(storeId), path);
}

/** A selfie: stores/{storeId}/selfies/{yyyy-mm of the store's today}/{128 random bits}.{ext}. */
export function saveSelfie(
  db: Database,
  storage: Storage,
  storeId: string,
  image: { data: Buffer; extension: string },
): Promise<{ path: string; url: string }> {
  return saveTabletPicture(db, storage, storeId, selfiePrefix(storeId), image);
}

/** The employee's entries in the store, latest first (effective time, then clock time, then id). */
const latestFirst = [
  desc(sql`coalesce(${punchEntries.timestamp_modified}, ${punchEntries.timestamp})`),
  desc(punchEntries.timestamp),
  desc(punchEntries.id),
];

/**
 * GET /api/device/punches/last: the identified employee's latest entry in the device's store
 * (a removed one does not count), or null; the same order as the coherence check of a punch.
 */
export async function lastEntry(db: Database, actor: TaskActor): Promise<PunchEntry | null> {
  const [row] = await db
    .select()
    .from(punchEntries)
    .where(
      and(
        eq(punchEntries.store_id, actor.storeId),
        eq(punchEntries.employee_id, actor.employee.id),
        isNull(punchEntries.deleted_at),
      ),
    )
    .orderBy(...latestFirst)
    .limit(1);
  return row ? presentEntry(row) : null;
}

function punchRequestHash(employeeId: string, body: DevicePunchBody): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        kind: 'punch',
        employee_id: employeeId,
        is_in: body.is_in,
        selfie_path: body.selfie_path ?? null,
      }),
    )
    .digest('hex');
}

async function findEntryByKey(db: Database, storeId: string, key: string) {
  const [row] = await db
    .select()
    .from(punchEntries)
    .where(and(eq(punchEntries.store_id, storeId), eq(punchEntries.idempotency_key, key)))
    .limit(1);
  return row;
}

/** A key already used: the same request answers its entry, another request is a conflict. */
function replayOf(row: EntryRow | undefined, hash: string): PunchEntry | null {
  if (!row) return null;
  if (row.request_hash !== hash) throw new AppError('idempotency/conflict');
  return presentEntry(row);
}

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/**
 * POST /api/device/punches: the identified employee clocks in or out on the device's store,
 * at the server's time, on the store's today. The idempotency key is unique per store: a retry
 * of the same request answers the stored entry and writes nothing (also when two race: the
 * loser's unique violation answers the winner's entry); the same key with another request is
 * 409 'idempotency/conflict'. An entry that breaks the in/out alternation with the employee's
 * previous one is flagged incoherent (red on the punch-card screen).
 */
export async function clockEmployee(
  db: Database,
  actor: TaskActor,
  body: DevicePunchBody,
  now = new Date(),
  sentAt: Date | null = null,
): Promise<PunchEntry> {
  const hash = punchRequestHash(actor.employee.id, body);
  const earlier = replayOf(await findEntryByKey(db, actor.storeId, body.idempotency_key), hash);
  if (earlier) return earlier;
  const selfiePath = body.selfie_path ?? null;
  if (selfiePath !== null && !isStoreSelfie(actor.storeId, selfiePath)) {
    throw new AppError('validation/invalid-input');
  }
  const zone = await storeZone(db, actor.storeId);
  // A punch made offline keeps the time it was made (on the server's clock), within the grace.
  const clockedAt = madeAtWithinGrace(body.clocked_timestamp, sentAt, now);
  try {
    return await db.transaction(async (tx) => {
      const [previous] = await tx
        .select({ is_in: punchEntries.is_in })
        .from(punchEntries)
        .where(
          and(
            eq(punchEntries.store_id, actor.storeId),
            eq(punchEntries.employee_id, actor.employee.id),
            isNull(punchEntries.deleted_at),
          ),
        )
        .orderBy(...latestFirst)
        .limit(1);
      const [row] = await tx
        .insert(punchEntries)
        .values({
          store_id: actor.storeId,
          employee_id: actor.employee.id,
          day: dayInZone(clockedAt, zone),
          is_in: body.is_in,
          timestamp: clockedAt,
          timestamp_modified: null,
          incoherent: previous ? previous.is_in === body.is_in : !body.is_in,
          source: 'device',
          device_id: actor.deviceId,
          selfie_path: selfiePath,
          idempotency_key: body.idempotency_key,
          request_hash: hash,
          created_at: now,
          updated_at: now,
        })
        .returning();
      const [revision] = await tx
        .insert(punchEntryRevisions)
        .values({
          entry_id: row!.id,
          store_id: actor.storeId,
          action: 'create',
          before: null,
          after: snapshot(row!),
          employee_id: actor.employee.id,
          device_id: actor.deviceId,
          created_at: now,
        })
        .returning();
      await appendToChain(tx, chainInput(revision!));
      return presentEntry(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const stored = replayOf(await findEntryByKey(db, actor.storeId, body.idempotency_key), hash);
      if (stored) return stored;
    }
    throw error;
  }
}
