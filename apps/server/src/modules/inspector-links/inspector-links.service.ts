import type { HistoryFilter } from '@mise/shared/history/constants';
import type { HistoryStore, TaskDetail } from '@mise/shared/history/schemas';
import {
  type InspectionHistory,
  type InspectorLink,
  inspectorLinkExpiry,
  inspectorLinkListSize,
  inspectorLinkStatus,
  inspectorPagePath,
  isDayInPeriod,
  validateInspectorLinkPeriod,
} from '@mise/shared/records/links';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { and, count, desc, eq, inArray, max } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { inspectorLinks, inspectorLinkUses, users } from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import {
  findHistoryStore,
  findTaskDetail,
  searchHistory,
  visibleModules,
} from '../history/history.service';

/*
 * Read-only inspector links (issue 21). Whoever may read a store's history (the history's
 * rule: in the scope, active and licensed, a manager only with store access or on a
 * manager-owned store) creates, lists and revokes the store's links: a link never opens more
 * than its creator reads. The link's secret is 256 bits from the CSPRNG, answered once inside
 * the URL's fragment and stored as its sha256 only. An inspector's request reads through a
 * scope made of the link's one store, and only days of the link's period.
 */

export type LinkRow = typeof inspectorLinks.$inferSelect;

const creators = alias(users, 'link_creator');
const revokers = alias(users, 'link_revoker');

type PresentableLink = {
  link: LinkRow;
  creatorName: string | null;
  creatorSurname: string | null;
  creatorEmail: string | null;
  revokerName: string | null;
  revokerSurname: string | null;
  revokerEmail: string | null;
};

const person = (name: string | null, surname: string | null, email: string | null) =>
  email === null ? null : { name: `${name ?? ''} ${surname ?? ''}`.trim(), email };

function presentLink(
  row: PresentableLink,
  uses: { count: number; last: Date | null } | undefined,
  now: Date,
): InspectorLink {
  const { link } = row;
  return {
    id: link.id,
    store_id: link.store_id,
    label: link.label,
    period_start: link.period_start,
    period_end: link.period_end,
    created_at: link.created_at.toISOString(),
    expires_at: link.expires_at.toISOString(),
    created_by: person(row.creatorName, row.creatorSurname, row.creatorEmail),
    revoked_at: link.revoked_at?.toISOString() ?? null,
    revoked_by: person(row.revokerName, row.revokerSurname, row.revokerEmail),
    status: inspectorLinkStatus(link, now),
    last_used_at: uses?.last ? new Date(uses.last).toISOString() : null,
    use_count: uses?.count ?? 0,
  };
}

/** The links of a store (or one of them), newest first, with who made them and their uses. */
async function selectLinks(
  db: Database,
  storeId: string,
  now: Date,
  linkId?: string,
): Promise<InspectorLink[]> {
  const rows = await db
    .select({
      link: inspectorLinks,
      creatorName: creators.name,
      creatorSurname: creators.surname,
      creatorEmail: creators.email,
      revokerName: revokers.name,
      revokerSurname: revokers.surname,
      revokerEmail: revokers.email,
    })
    .from(inspectorLinks)
    .leftJoin(creators, eq(creators.id, inspectorLinks.created_by))
    .leftJoin(revokers, eq(revokers.id, inspectorLinks.revoked_by))
    .where(
      and(eq(inspectorLinks.store_id, storeId), linkId ? eq(inspectorLinks.id, linkId) : undefined),
    )
    .orderBy(desc(inspectorLinks.created_at), desc(inspectorLinks.id))
    .limit(inspectorLinkListSize);
  const ids = rows.map((row) => row.link.id);
  const useRows = ids.length
    ? await db
        .select({
          linkId: inspectorLinkUses.link_id,
          count: count(),
          last: max(inspectorLinkUses.used_at),
        })
        .from(inspectorLinkUses)
        .where(inArray(inspectorLinkUses.link_id, ids))
        .groupBy(inspectorLinkUses.link_id)
    : [];
  const uses = new Map(useRows.map((row) => [row.linkId, row]));
  return rows.map((row) => presentLink(row, uses.get(row.link.id), now));
}

/** POST /api/stores/:storeId/inspector-links: the link and its URL (the only time it shows). */
export async function createLink(
  db: Database,
  scope: Scope,
  storeId: string,
  body: { label: string; period_start: string; period_end: string; expires_in_days: number },
  options: { publicUrl: string; now: Date },
): Promise<{ link: InspectorLink; url: string }> {
  const problem = validateInspectorLinkPeriod(body.period_start, body.period_end);
  if (problem) throw new AppError(problem, undefined, [{ path: 'period_end', message: problem }]);
  const store = await findHistoryStore(db, scope, storeId);
  const token = newToken();
  const [row] = await db
    .insert(inspectorLinks)
    .values({
      store_id: store.id,
      token_hash: hashToken(token),
      label: body.label,
      period_start: body.period_start,
      period_end: body.period_end,
      expires_at: inspectorLinkExpiry(options.now, body.expires_in_days),
      created_by: scope.userId,
      created_at: options.now,
    })
    .returning({ id: inspectorLinks.id });
  const [link] = await selectLinks(db, store.id, options.now, row!.id);
  return { link: link!, url: `${options.publicUrl}${inspectorPagePath}#${token}` };
}

/** GET /api/stores/:storeId/inspector-links: the store's links, never their token. */
export async function listLinks(
  db: Database,
  scope: Scope,
  storeId: string,
  now: Date,
): Promise<InspectorLink[]> {
  const store = await findHistoryStore(db, scope, storeId);
  return selectLinks(db, store.id, now);
}

/**
 * DELETE /api/stores/:storeId/inspector-links/:id: the link stops opening at once. Revoking a
 * revoked link keeps its first revocation (who and when).
 */
export async function revokeLink(
  db: Database,
  scope: Scope,
  storeId: string,
  linkId: string,
  now: Date,
): Promise<InspectorLink> {
  const store = await findHistoryStore(db, scope, storeId);
  const [row] = await db
    .select({ id: inspectorLinks.id, revoked_at: inspectorLinks.revoked_at })
    .from(inspectorLinks)
    .where(and(eq(inspectorLinks.id, linkId), eq(inspectorLinks.store_id, store.id)))
    .limit(1);
  if (!row) throw notFound();
  if (row.revoked_at === null) {
    await db
      .update(inspectorLinks)
      .set({ revoked_at: now, revoked_by: scope.userId })
      .where(eq(inspectorLinks.id, row.id));
  }
  const [link] = await selectLinks(db, store.id, now, row.id);
  return link!;
}

/* ---------- The inspector's side ---------- */

/** The link a token opens now, or null (unknown, expired or revoked). */
export async function findOpenLink(
  db: Database,
  token: string,
  now: Date,
): Promise<LinkRow | null> {
  const [link] = await db
    .select()
    .from(inspectorLinks)
    .where(eq(inspectorLinks.token_hash, hashToken(token)))
    .limit(1);
  if (!link || inspectorLinkStatus(link, now) !== 'active') return null;
  return link;
}

/** One use of a link: what was opened (a route pattern), from where; never the token. */
export async function recordUse(
  db: Database,
  linkId: string,
  use: { action: string; ip: string | null; userAgent: string | null; at: Date },
): Promise<void> {
  await db.insert(inspectorLinkUses).values({
    link_id: linkId,
    used_at: use.at,
    action: use.action.slice(0, 200),
    ip: use.ip?.slice(0, 100) ?? null,
    user_agent: use.userAgent?.slice(0, 500) ?? null,
  });
}

/**
 * The scope an inspector reads through: exactly the link's store, as an owner of it sees it
 * (role customer: no manager access rule, the history's active and licensed rule applies).
 */
export function linkScope(link: LinkRow): Scope {
  return {
    userId: link.created_by ?? '00000000-0000-0000-0000-000000000000',
    role: 'customer',
    isAll: false,
    distributorIds: [],
    databaseIds: [],
    ownedStoreIds: [link.store_id],
  };
}

/** GET /api/inspect: the link's store (404 once it is inactive or unlicensed). */
export async function inspectionStore(db: Database, link: LinkRow): Promise<HistoryStore> {
  return findHistoryStore(db, linkScope(link), link.store_id);
}

/** GET /api/inspect/history: one day of the period, one module, through the history's search. */
export async function inspectionHistory(
  db: Database,
  link: LinkRow,
  query: { day: string; module: TaskModule; filter: HistoryFilter; limit: number; cursor?: string },
  now: Date,
): Promise<InspectionHistory> {
  if (!isDayInPeriod(query.day, link.period_start, link.period_end)) throw notFound();
  const page = await searchHistory(
    db,
    linkScope(link),
    link.store_id,
    {
      start: query.day,
      end: query.day,
      module: query.module,
      filter: query.filter,
      limit: query.limit,
      cursor: query.cursor,
    },
    now,
  );
  return { day: query.day, module: query.module, items: page.items, next_cursor: page.next_cursor };
}

/** GET /api/inspect/tasks/:id: a task of the link's store, of a day of its period, shown module. */
export async function inspectionTask(
  db: Database,
  link: LinkRow,
  taskId: string,
  now: Date,
): Promise<TaskDetail> {
  const scope = linkScope(link);
  const task = await findTaskDetail(db, scope, taskId, now);
  if (!isDayInPeriod(task.day, link.period_start, link.period_end)) throw notFound();
  const store = await findHistoryStore(db, scope, link.store_id);
  if (!visibleModules(store).includes(task.module)) throw notFound();
  return task;
}
