import {
  type InspectorPack,
  type InspectorPackError,
  inspectorPackListSize,
  type PackManifest,
  validatePackPeriod,
} from '@mise/shared/records/pack';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { inspectorLinks, inspectorPacks, users } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findHistoryStore } from '../history/history.service';

/*
 * Inspector packs (issue 21): who may ask for one, the pack rows and their life (queued →
 * running → done | failed). A pack is asked for by whoever reads the store's history (the
 * history's scope, active and licensed store, manager access rule) or for an inspector link;
 * the build itself (build-pack.ts) runs later, on whichever instance claims the row.
 */

export type PackRow = typeof inspectorPacks.$inferSelect;

/** A running build not finished this long after its pack was asked for is abandoned. */
export const abandonedAfterMinutes = 120;

/** The ZIP's storage key (built by the server only). */
export const packKey = (storeId: string, packId: string) =>
  `stores/${storeId}/inspector-packs/${packId}.zip`;

export const downloadUrl = (pack: Pick<PackRow, 'id' | 'store_id'>) =>
  `/api/stores/${pack.store_id}/inspector-packs/${pack.id}/download`;

/** Range check of a pack's period: the history's (31 days at most, every month fits). */
export function checkPackPeriod(start: string, end: string): void {
  const problem = validatePackPeriod(start, end);
  if (problem) {
    throw new AppError(problem, undefined, [{ path: 'period_end', message: problem }]);
  }
}

/**
 * The scope a build reads through: exactly the pack's store, as its owner sees it. The asker's
 * own scope was checked when the pack was asked for; the build may run on another instance
 * long after the request, without one.
 */
export function packScope(storeId: string, userId: string | null): Scope {
  return {
    userId: userId ?? '00000000-0000-0000-0000-000000000000',
    role: 'customer',
    isAll: false,
    distributorIds: [],
    databaseIds: [],
    ownedStoreIds: [storeId],
  };
}

type PresentableRow = PackRow & {
  creatorName: string | null;
  creatorSurname: string | null;
  creatorEmail: string | null;
};

export function presentPack(row: PresentableRow): InspectorPack {
  const isDone = row.status === 'done';
  return {
    id: row.id,
    store_id: row.store_id,
    period_start: row.period_start,
    period_end: row.period_end,
    status: row.status,
    progress: row.progress,
    file_size: row.file_size,
    error: row.error,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    created_by:
      row.creatorEmail !== null
        ? {
            name: `${row.creatorName ?? ''} ${row.creatorSurname ?? ''}`.trim(),
            email: row.creatorEmail,
          }
        : null,
    manifest: isDone ? ((row.manifest ?? null) as PackManifest | null) : null,
    download_url: isDone ? downloadUrl(row) : null,
  };
}

const presentableColumns = {
  pack: inspectorPacks,
  creatorName: users.name,
  creatorSurname: users.surname,
  creatorEmail: users.email,
};

async function selectPresentable(db: Database, where: ReturnType<typeof and>, limit: number) {
  const rows = await db
    .select(presentableColumns)
    .from(inspectorPacks)
    .leftJoin(users, eq(users.id, inspectorPacks.created_by))
    .where(where)
    .orderBy(desc(inspectorPacks.created_at), desc(inspectorPacks.id))
    .limit(limit);
  return rows.map(({ pack, ...creator }) => presentPack({ ...pack, ...creator }));
}

export type PackRequest = {
  storeId: string;
  periodStart: string;
  periodEnd: string;
  /** The user who asks, or null for an inspector link. */
  createdBy: string | null;
  inspectorLinkId?: string | null;
};

/**
 * Queues a pack, once: the same store, period and asker with a pack still queued or running
 * get that pack (a double click builds one). The caller has checked who asks.
 */
export async function queuePack(db: Database, request: PackRequest): Promise<PackRow> {
  checkPackPeriod(request.periodStart, request.periodEnd);
  const sameAsker = request.createdBy
    ? eq(inspectorPacks.created_by, request.createdBy)
    : request.inspectorLinkId
      ? eq(inspectorPacks.inspector_link_id, request.inspectorLinkId)
      : undefined;
  const [pending] = await db
    .select()
    .from(inspectorPacks)
    .where(
      and(
        eq(inspectorPacks.store_id, request.storeId),
        eq(inspectorPacks.period_start, request.periodStart),
        eq(inspectorPacks.period_end, request.periodEnd),
        inArray(inspectorPacks.status, ['queued', 'running']),
        sameAsker,
      ),
    )
    .limit(1);
  if (pending) return pending;
  const [row] = await db
    .insert(inspectorPacks)
    .values({
      store_id: request.storeId,
      period_start: request.periodStart,
      period_end: request.periodEnd,
      status: 'queued',
      progress: 0,
      created_by: request.createdBy,
      inspector_link_id: request.inspectorLinkId ?? null,
    })
    .returning();
  return row!;
}

/** POST /api/stores/:storeId/inspector-packs: whoever reads the store's history. */
export async function requestPack(
  db: Database,
  scope: Scope,
  storeId: string,
  body: { period_start: string; period_end: string },
): Promise<InspectorPack> {
  checkPackPeriod(body.period_start, body.period_end);
  const store = await findHistoryStore(db, scope, storeId);
  const row = await queuePack(db, {
    storeId: store.id,
    periodStart: body.period_start,
    periodEnd: body.period_end,
    createdBy: scope.userId,
  });
  const pack = await findPack(db, store.id, row.id);
  if (!pack) throw notFound();
  return pack;
}

/** GET /api/stores/:storeId/inspector-packs/:id: a pack of a store whose history the caller reads. */
export async function getPack(
  db: Database,
  scope: Scope,
  storeId: string,
  packId: string,
): Promise<InspectorPack> {
  const store = await findHistoryStore(db, scope, storeId);
  const pack = await findPack(db, store.id, packId);
  if (!pack) throw notFound();
  return pack;
}

async function findPack(
  db: Database,
  storeId: string,
  packId: string,
): Promise<InspectorPack | null> {
  const [pack] = await selectPresentable(
    db,
    and(eq(inspectorPacks.id, packId), eq(inspectorPacks.store_id, storeId)),
    1,
  );
  return pack ?? null;
}

/** GET /api/stores/:storeId/inspector-packs: the store's packs, newest first. */
export async function listPacks(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<InspectorPack[]> {
  const store = await findHistoryStore(db, scope, storeId);
  return selectPresentable(db, eq(inspectorPacks.store_id, store.id), inspectorPackListSize);
}

/** The stored ZIP of a built pack: 404 outside the history's scope, 409 while it builds. */
export async function packDownload(
  db: Database,
  scope: Scope,
  storeId: string,
  packId: string,
): Promise<{ pack: InspectorPack; key: string; storeName: string }> {
  const store = await findHistoryStore(db, scope, storeId);
  const [row] = await db
    .select()
    .from(inspectorPacks)
    .where(and(eq(inspectorPacks.id, packId), eq(inspectorPacks.store_id, store.id)))
    .limit(1);
  if (!row) throw notFound();
  if (row.status !== 'done' || !row.file_path) throw new AppError('inspector-pack/not-ready');
  const pack = presentPack({ ...row, creatorName: null, creatorSurname: null, creatorEmail: null });
  return { pack, key: row.file_path, storeName: store.name };
}

/* ---------- The build's life ---------- */

/**
 * Claims the oldest queued pack for this instance (one statement: the row is locked and
 * skipped by any other instance claiming at the same time), or null when none waits.
 */
export async function claimNextPack(db: Database): Promise<PackRow | null> {
  const result = (await db.execute(sql`
    update ${inspectorPacks} set status = 'running', progress = 0
    where ${inspectorPacks.id} = (
      select id from ${inspectorPacks} where status = 'queued'
      order by created_at, id limit 1 for update skip locked)
    returning ${inspectorPacks.id} as id`)) as unknown as { rows: { id: string }[] };
  const id = result.rows[0]?.id;
  if (!id) return null;
  const [row] = await db.select().from(inspectorPacks).where(eq(inspectorPacks.id, id)).limit(1);
  return row ?? null;
}

/** A pack no longer running (abandoned, removed) while this instance built it. */
export class PackNotRunningError extends Error {
  constructor(packId: string) {
    super(`inspector pack ${packId} is no longer running`);
    this.name = 'PackNotRunningError';
  }
}

/** Records the build's progress; throws PackNotRunningError when the pack stopped running. */
export async function setPackProgress(db: Database, packId: string, progress: number) {
  const rows = await db
    .update(inspectorPacks)
    .set({ progress: Math.max(0, Math.min(99, Math.round(progress))) })
    .where(and(eq(inspectorPacks.id, packId), eq(inspectorPacks.status, 'running')))
    .returning({ id: inspectorPacks.id });
  if (rows.length === 0) throw new PackNotRunningError(packId);
}

/** The build's end: false when the pack had stopped running (its ZIP is then not kept). */
export async function finishPack(
  db: Database,
  packId: string,
  values: { key: string; size: number; manifest: PackManifest; at: Date },
): Promise<boolean> {
  const rows = await db
    .update(inspectorPacks)
    .set({
      status: 'done',
      progress: 100,
      file_path: values.key,
      file_size: values.size,
      manifest: values.manifest as unknown as Record<string, unknown>,
      error: null,
      finished_at: values.at,
    })
    .where(and(eq(inspectorPacks.id, packId), eq(inspectorPacks.status, 'running')))
    .returning({ id: inspectorPacks.id });
  return rows.length > 0;
}

export async function failPack(db: Database, packId: string, error: InspectorPackError, at: Date) {
  await db
    .update(inspectorPacks)
    .set({ status: 'failed', error, finished_at: at })
    .where(
      and(eq(inspectorPacks.id, packId), inArray(inspectorPacks.status, ['queued', 'running'])),
    );
}

/** Running builds whose instance went away (a restart, a crash) are failed: ask again. */
export async function failAbandonedPacks(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(inspectorPacks)
    .set({ status: 'failed', error: 'inspector-pack/interrupted', finished_at: now })
    .where(
      and(
        eq(inspectorPacks.status, 'running'),
        sql`${inspectorPacks.created_at} < ${new Date(now.getTime() - abandonedAfterMinutes * 60_000).toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: inspectorPacks.id });
  return rows.length;
}

/** Who generated a pack, as its manifest names them. */
export async function generatedByOf(
  db: Database,
  pack: Pick<PackRow, 'created_by' | 'inspector_link_id'>,
): Promise<PackManifest['generated_by']> {
  if (pack.created_by) {
    const [user] = await db
      .select({ name: users.name, surname: users.surname, email: users.email })
      .from(users)
      .where(eq(users.id, pack.created_by))
      .limit(1);
    if (user) {
      return {
        kind: 'user',
        name: `${user.name} ${user.surname}`.trim() || user.email,
        email: user.email,
      };
    }
  }
  if (pack.inspector_link_id) {
    const [link] = await db
      .select({ label: inspectorLinks.label })
      .from(inspectorLinks)
      .where(eq(inspectorLinks.id, pack.inspector_link_id))
      .limit(1);
    return {
      kind: 'inspector-link',
      name: link?.label ? `inspector link (${link.label})` : 'inspector link',
      email: null,
    };
  }
  return { kind: 'user', name: 'unknown', email: null };
}
