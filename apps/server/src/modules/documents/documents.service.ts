import {
  type DocumentItem,
  type DocumentOwner,
  type DocumentRoot,
  documentPageSize,
} from '@mise/shared/documents/schemas';
import { and, asc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, distributors, documents, stores } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { VideoHost, VideoHostLog } from '../../platform/integrations/video-host';
import { likePattern } from '../../platform/like-pattern';
import { databaseFilter, distributorFilter, type Scope, storeFilter } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { deleteQueuedFiles, queueStorageDeletions } from '../files/storage-deletions';

/*
 * The document explorer (spec 002 §2, §3, §5, §6; issue 17). Who sees which root folders and who
 * may write in them is decided here, once per owner; every item query names its owner.
 */

type DocumentRow = typeof documents.$inferSelect;

/**
 * Spec 002 §6 (and §5's upload lock): distributors and admins see database and distributor
 * folders; customers, admins and managers see store folders, a manager only manager_owned
 * stores. Managers also see their databases' folders, where §5 lets them upload. A database or
 * store hiding the documents extension is skipped. Writes: database folders for admins,
 * distributors and managers (never customers); distributor folders for admins and
 * distributors; store folders for whoever sees them.
 */
function seesDatabases(scope: Scope) {
  return scope.role === 'admin' || scope.role === 'distributor' || scope.role === 'manager';
}
function seesDistributors(scope: Scope) {
  return scope.role === 'admin' || scope.role === 'distributor';
}
function seesStores(scope: Scope) {
  return scope.role === 'admin' || scope.role === 'customer' || scope.role === 'manager';
}
const hidesDocuments = sql`'documents' = any(${databases.hidden_extensions})`;

/** GET /api/documents/roots: the caller's root folders, by kind then name. */
export async function listRoots(db: Database, scope: Scope): Promise<{ items: DocumentRoot[] }> {
  const items: DocumentRoot[] = [];
  if (seesDatabases(scope)) {
    const rows = await db
      .select({ id: databases.id, name: databases.name })
      .from(databases)
      .where(and(databaseFilter(scope), sql`not ${hidesDocuments}`))
      .orderBy(asc(databases.name), asc(databases.id));
    for (const row of rows) {
      items.push({ owner: { kind: 'database', id: row.id }, name: row.name, writable: true });
    }
  }
  if (seesDistributors(scope)) {
    const rows = await db
      .select({ id: distributors.id, name: distributors.name })
      .from(distributors)
      .where(distributorFilter(scope))
      .orderBy(asc(distributors.name), asc(distributors.id));
    for (const row of rows) {
      items.push({ owner: { kind: 'distributor', id: row.id }, name: row.name, writable: true });
    }
  }
  if (seesStores(scope)) {
    const rows = await db
      .select({ id: stores.id, name: stores.name })
      .from(stores)
      .leftJoin(databases, eq(databases.id, stores.database_id))
      .where(
        and(
          storeFilter(scope),
          scope.role === 'manager' ? eq(stores.manager_owned, true) : undefined,
          sql`not 'documents' = any(${stores.hidden_extensions})`,
          sql`(${databases.id} is null or not ${hidesDocuments})`,
        ),
      )
      .orderBy(asc(stores.name), asc(stores.id));
    for (const row of rows) {
      items.push({ owner: { kind: 'store', id: row.id }, name: row.name, writable: true });
    }
  }
  return { items };
}

/** The owner folder when the caller sees it (404 otherwise), with its name and write right. */
export async function findRoot(
  db: Database,
  scope: Scope,
  owner: DocumentOwner,
): Promise<DocumentRoot> {
  let row: { name: string } | undefined;
  if (owner.kind === 'database' && seesDatabases(scope)) {
    [row] = await db
      .select({ name: databases.name })
      .from(databases)
      .where(and(eq(databases.id, owner.id), databaseFilter(scope), sql`not ${hidesDocuments}`))
      .limit(1);
  } else if (owner.kind === 'distributor' && seesDistributors(scope)) {
    [row] = await db
      .select({ name: distributors.name })
      .from(distributors)
      .where(and(eq(distributors.id, owner.id), distributorFilter(scope)))
      .limit(1);
  } else if (owner.kind === 'store' && seesStores(scope)) {
    [row] = await db
      .select({ name: stores.name })
      .from(stores)
      .leftJoin(databases, eq(databases.id, stores.database_id))
      .where(
        and(
          eq(stores.id, owner.id),
          storeFilter(scope),
          scope.role === 'manager' ? eq(stores.manager_owned, true) : undefined,
          sql`not 'documents' = any(${stores.hidden_extensions})`,
          sql`(${databases.id} is null or not ${hidesDocuments})`,
        ),
      )
      .limit(1);
  }
  if (!row) throw notFound();
  return { owner, name: row.name, writable: true };
}

function present(
  row: DocumentRow,
  names: ReadonlyMap<string, string>,
  root: DocumentRoot,
): DocumentItem {
  const ancestors = row.path.split('/').filter(Boolean);
  return {
    id: row.id,
    owner: { kind: row.owner_kind, id: row.owner_id },
    parent_id: row.parent_id,
    name: row.name,
    type: row.type,
    path: ancestors.map((id) => names.get(id) ?? ''),
    locked: row.locked,
    forceReadonly: !root.writable,
    isVideo: row.is_video,
    videoId: row.video_id,
    length: row.size,
    content_type: row.content_type,
    // A video plays from its host's link (spec 002 §3 placeholder metadata).
    url: row.type === 'file' ? (row.video_url ?? `/api/documents/${row.id}/file`) : null,
    uploaded_by: row.uploaded_by_name,
    updated_at: row.updated_at.toISOString(),
    version: row.version,
  };
}

/** Names of the folders on the paths of `rows` (one query). */
async function folderNames(db: Database, rows: DocumentRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => row.path.split('/').filter(Boolean)))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: documents.id, name: documents.name })
    .from(documents)
    .where(inArray(documents.id, ids));
  return new Map(found.map((row) => [row.id, row.name]));
}

export async function presentAll(db: Database, rows: DocumentRow[], root: DocumentRoot) {
  const names = await folderNames(db, rows);
  return rows.map((row) => present(row, names, root));
}

/** An item of an owner the caller sees (404 otherwise). */
export async function findItem(db: Database, scope: Scope, id: string) {
  const [row] = await db.select().from(documents).where(eq(documents.id, id)).limit(1);
  if (!row) throw notFound();
  const root = await findRoot(db, scope, { kind: row.owner_kind, id: row.owner_id });
  return { row, root };
}

async function findFolder(db: Database, owner: DocumentOwner, folderId: string) {
  const [folder] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.id, folderId),
        eq(documents.owner_id, owner.id),
        eq(documents.owner_kind, owner.kind),
      ),
    )
    .limit(1);
  if (folder?.type !== 'folder') throw notFound();
  return folder;
}

const cursorOf = (row: DocumentRow) =>
  Buffer.from(JSON.stringify([row.type === 'file', row.name.toLowerCase(), row.id])).toString(
    'base64url',
  );

function parseCursor(cursor: string): [boolean, string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      typeof value[0] === 'boolean' &&
      typeof value[1] === 'string' &&
      typeof value[2] === 'string' &&
      /^[0-9a-f-]{36}$/.test(value[2])
    ) {
      return value as [boolean, string, string];
    }
  } catch {
    // Falls through.
  }
  throw new AppError('validation/invalid-input', 'cursor: not a cursor of this list.');
}

/**
 * GET /api/documents: a page of a folder (folders first, then files, by name), or with a search
 * the items of this folder and below whose name holds it. One indexed query per page.
 */
export async function listFolder(
  db: Database,
  scope: Scope,
  query: {
    owner_kind: DocumentOwner['kind'];
    owner_id: string;
    parent_id?: string;
    search?: string;
    cursor?: string;
  },
) {
  const owner = { kind: query.owner_kind, id: query.owner_id };
  const root = await findRoot(db, scope, owner);
  const folder = query.parent_id ? await findFolder(db, owner, query.parent_id) : null;
  const search = query.search?.trim();
  const sortKey = sql`((${documents.type} = 'file'), lower(${documents.name}), ${documents.id})`;
  const after = query.cursor ? parseCursor(query.cursor) : null;
  const rows = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.owner_id, owner.id),
        eq(documents.owner_kind, owner.kind),
        search
          ? and(
              folder ? like(documents.path, `${folder.path}${folder.id}/%`) : undefined,
              sql`${documents.name} ilike ${likePattern(search)}`,
            )
          : folder
            ? eq(documents.parent_id, folder.id)
            : isNull(documents.parent_id),
        after ? sql`${sortKey} > (${after[0]}, ${after[1]}, ${after[2]}::uuid)` : undefined,
      ),
    )
    .orderBy(sql`(${documents.type} = 'file')`, sql`lower(${documents.name})`, asc(documents.id))
    .limit(documentPageSize + 1);
  const page = rows.slice(0, documentPageSize);
  const items = await presentAll(db, folder ? [folder, ...page] : page, root);
  const folderItem = folder ? items.shift()! : null;
  const breadcrumbIds = folder ? [...folder.path.split('/').filter(Boolean), folder.id] : [];
  const names = await folderNames(
    db,
    folder ? [{ ...folder, path: `${folder.path}${folder.id}/` }] : [],
  );
  return {
    items,
    next_cursor: rows.length > documentPageSize ? cursorOf(page[page.length - 1]!) : null,
    folder: folderItem,
    breadcrumb: breadcrumbIds.map((id) => ({ id, name: names.get(id) ?? '' })),
    writable: root.writable && !folder?.locked,
  };
}

/** A name for a file or folder: no path separator, no control character, not '.' or '..'. */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  if (
    trimmed === '' ||
    trimmed === '.' ||
    trimmed === '..' ||
    /[/\\]/.test(trimmed) ||
    /\p{Cc}/u.test(trimmed)
  ) {
    throw new AppError('documents.invalid-name');
  }
  return trimmed;
}

const isUniqueViolation = (error: unknown) => {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
};

/** Whether a name is free in a folder (case-insensitive), other than `exceptId`. */
export async function assertNameFree(
  db: Database,
  owner: DocumentOwner,
  parentId: string | null,
  name: string,
  exceptId?: string,
) {
  const [clash] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.owner_id, owner.id),
        parentId ? eq(documents.parent_id, parentId) : isNull(documents.parent_id),
        sql`lower(${documents.name}) = lower(${name})`,
        exceptId ? sql`${documents.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (clash) throw new AppError('documents.file-exists');
}

/** The folder a new item goes in: writable by the caller, not locked. */
export async function writableFolder(
  db: Database,
  scope: Scope,
  owner: DocumentOwner,
  parentId: string | null,
) {
  const root = await findRoot(db, scope, owner);
  if (!root.writable) throw forbidden();
  const folder = parentId ? await findFolder(db, owner, parentId) : null;
  if (folder?.locked) throw new AppError('documents.locked');
  return { root, folder };
}

const ownerColumns = (owner: DocumentOwner) => ({
  owner_kind: owner.kind,
  owner_id: owner.id,
  database_id: owner.kind === 'database' ? owner.id : null,
  distributor_id: owner.kind === 'distributor' ? owner.id : null,
  store_id: owner.kind === 'store' ? owner.id : null,
});

/** POST /api/documents/folders. */
export async function createFolder(
  db: Database,
  scope: Scope,
  body: { owner: DocumentOwner; parent_id: string | null; name: string },
  user: { id: string; name: string },
  now: Date,
) {
  const name = cleanName(body.name);
  const { root, folder } = await writableFolder(db, scope, body.owner, body.parent_id);
  await assertNameFree(db, body.owner, folder?.id ?? null, name);
  try {
    const [row] = await db
      .insert(documents)
      .values({
        ...ownerColumns(body.owner),
        parent_id: folder?.id ?? null,
        path: folder ? `${folder.path}${folder.id}/` : '/',
        name,
        type: 'folder',
        uploaded_by: user.id,
        uploaded_by_name: user.name,
        created_at: now,
        updated_at: now,
      })
      .returning();
    return { item: (await presentAll(db, [row!], root))[0]! };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('documents.file-exists');
    throw error;
  }
}

/**
 * Records a file of a folder: a finished upload (the tus purpose calls it) or a video's
 * placeholder whose bytes go to an outside video host (document-videos.ts).
 */
export async function recordFile(
  db: Database,
  values: {
    id: string;
    owner: DocumentOwner;
    folder: DocumentRow | null;
    name: string;
    /** The stored object; null for a video whose bytes went to an outside host. */
    key: string | null;
    size: number;
    contentType: string;
    /** A video's id and link at the video host (spec 002 §3, §7); no link yet: null. */
    video?: { id: string; url: string | null } | null;
    user: { id: string; name: string } | null;
  },
  now: Date,
) {
  try {
    await db.insert(documents).values({
      id: values.id,
      ...ownerColumns(values.owner),
      parent_id: values.folder?.id ?? null,
      path: values.folder ? `${values.folder.path}${values.folder.id}/` : '/',
      name: values.name,
      type: 'file',
      storage_key: values.key,
      size: values.size,
      content_type: values.contentType,
      is_video: values.contentType.startsWith('video/'),
      video_id: values.video?.id ?? null,
      video_url: values.video?.url ?? null,
      uploaded_by: values.user?.id ?? null,
      uploaded_by_name: values.user?.name ?? null,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('documents.file-exists');
    throw error;
  }
}

/**
 * PATCH /api/documents/:id: rename, lock or unlock, move (within the owner). A locked item is
 * only unlocked; a stale version answers 409.
 */
export async function updateItem(
  db: Database,
  scope: Scope,
  id: string,
  body: { version: number; name?: string; locked?: boolean; parent_id?: string | null },
  now: Date,
) {
  const { row, root } = await findItem(db, scope, id);
  if (!root.writable) throw forbidden();
  if (row.version !== body.version) throw new AppError('conflict/stale-version');
  const isRenaming = body.name !== undefined && body.name.trim() !== row.name;
  const isMoving = body.parent_id !== undefined && body.parent_id !== row.parent_id;
  if (row.locked && body.locked !== false && (isRenaming || isMoving)) {
    throw new AppError('documents.locked');
  }
  const owner = { kind: row.owner_kind, id: row.owner_id };
  const name = body.name !== undefined ? cleanName(body.name) : row.name;
  let parent: DocumentRow | null = null;
  if (isMoving && body.parent_id) {
    parent = await findFolder(db, owner, body.parent_id);
    const ancestry = `${parent.path}${parent.id}/`;
    if (parent.id === row.id || ancestry.includes(`/${row.id}/`)) {
      throw new AppError('documents.invalid-move');
    }
    if (parent.locked) throw new AppError('documents.locked');
  }
  const parentId = isMoving ? (body.parent_id ?? null) : row.parent_id;
  if (isRenaming || isMoving) await assertNameFree(db, owner, parentId, name, row.id);
  const newPath = isMoving ? (parent ? `${parent.path}${parent.id}/` : '/') : row.path;
  try {
    const saved = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(documents)
        .set({
          name,
          locked: body.locked ?? row.locked,
          parent_id: parentId,
          path: newPath,
          version: row.version + 1,
          updated_at: now,
        })
        .where(and(eq(documents.id, row.id), eq(documents.version, body.version)))
        .returning();
      if (!updated) throw new AppError('conflict/stale-version');
      if (isMoving && row.type === 'folder') {
        // Everything below follows: its path's prefix changes.
        const oldPrefix = `${row.path}${row.id}/`;
        const newPrefix = `${newPath}${row.id}/`;
        await tx
          .update(documents)
          .set({ path: sql`${newPrefix} || substr(${documents.path}, ${oldPrefix.length + 1})` })
          .where(and(eq(documents.owner_id, row.owner_id), like(documents.path, `${oldPrefix}%`)));
      }
      return updated;
    });
    return { item: (await presentAll(db, [saved], root))[0]! };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('documents.file-exists');
    throw error;
  }
}

/**
 * DELETE /api/documents/:id: the item and, for a folder, everything below; the stored objects
 * are removed after the rows (queued in the same transaction, so a failure is retried and no
 * row ever points to a missing object), then the video host is asked to remove their videos (a
 * failure there is only logged, spec 002 §8). A locked item, or one holding a locked item, is
 * kept.
 */
export async function deleteItem(
  db: Database,
  services: { storage: Storage; videoHost: VideoHost; log: VideoHostLog },
  scope: Scope,
  id: string,
) {
  const { row, root } = await findItem(db, scope, id);
  if (!root.writable) throw forbidden();
  if (row.locked) throw new AppError('documents.locked');
  const below =
    row.type === 'folder'
      ? await db
          .select({
            id: documents.id,
            key: documents.storage_key,
            videoId: documents.video_id,
            locked: documents.locked,
          })
          .from(documents)
          .where(
            and(
              eq(documents.owner_id, row.owner_id),
              like(documents.path, `${row.path}${row.id}/%`),
            ),
          )
      : [];
  if (below.some((item) => item.locked)) throw new AppError('documents.locked');
  const keys = [row.storage_key, ...below.map((item) => item.key)].filter(
    (key): key is string => typeof key === 'string',
  );
  await db.transaction(async (tx) => {
    await queueStorageDeletions(tx, keys);
    await tx.delete(documents).where(eq(documents.id, row.id));
  });
  await deleteQueuedFiles(db, services.storage, keys);
  const videoIds = [row.video_id, ...below.map((item) => item.videoId)].filter(
    (videoId): videoId is string => typeof videoId === 'string',
  );
  await Promise.all(
    videoIds.map(async (videoId) => {
      const isRemoved = await services.videoHost.remove(videoId).catch(() => false);
      if (!isRemoved) services.log({ videoId, documentId: row.id }, 'video removal failed');
    }),
  );
}
