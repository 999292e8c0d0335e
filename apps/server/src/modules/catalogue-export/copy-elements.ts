import { randomUUID } from 'node:crypto';
import type { CopyBody, CopyResponse } from '@mise/shared/catalogue/bulk';
import type { ElementFieldKey } from '@mise/shared/catalogue/constants';
import type { LabelValues } from '@mise/shared/catalogue/rules';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databaseElements,
  elementAttachments,
  elementLabels,
  elementTypes,
  storeElements,
} from '../../db/schema';
import {
  type AttachmentRow,
  attachmentsOfDatabaseElements,
  attachmentsOfStoreElements,
} from '../elements/attachments';
import {
  type ElementFiles,
  planElementFileCopies,
  storeElementFiles,
} from '../elements/duplicate-element';
import { storeTypesFilter } from '../elements/element-types.service';
import {
  type DatabaseElementRow,
  effectiveStoreValues,
  fieldsOf,
  type Locks,
  locksOf,
  type StoreElementRow,
} from '../elements/element-values';
import { combineStoreParts } from '../elements/elements.service';
import {
  type LabelRow,
  labelCopies,
  labelsOfDatabaseElement,
  labelsOfStoreElements,
  presentDatabaseLabels,
} from '../elements/labels';
import type { StoreRow } from '../stores/stores.service';
import {
  assertNoForeignIds,
  type DatabaseRow,
  type Executor,
  type ExportPlan,
  exportedBefore,
  exportedToStore,
  externalUrl,
  isSameDatabase,
  recordCopies,
  resolveStoreSelection,
  type StoreSelection,
  slices,
  type TargetOwner,
  typeMatcher,
  uniqueIds,
} from './export-support';

/*
 * Element copies (spec 001 §7 copyDatabaseElements, copyStoreElements): values, labels, type
 * (matched by name at the target, else created), locks at database level, and with
 * copyAttachments the pictures and encyclopedia attachments as new stored objects under the
 * target's keys. Read and planned here; written by the plan's `write` in the call's transaction.
 */

type Deps = { db: Database };
type LabelInsert = LabelValues & { index: number; origin_id?: string | null };
type FilePlan = ReturnType<typeof planElementFileCopies>;

/** One element to create at the target. */
type ElementCopy = {
  sourceId: string;
  newId: string;
  name: string;
  /** The element's fields as copied, type_id still the source's. */
  values: Record<ElementFieldKey, unknown>;
  /** The source's picture paths (the URL is kept without them only when external). */
  sourcePaths: { illustration: string | null; allergen: string | null };
  files: FilePlan;
  labels: LabelInsert[];
  /** Database level: the copied locks. Store level: the origin it overrides, if any. */
  locks?: Locks;
  originId?: string | null;
};

const noFiles: ElementFiles = {
  illustrationPath: null,
  allergenIllustrationPath: null,
  attachments: [],
};

function groupBy<T>(rows: T[], keyOf: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** The picture columns of a copy: the new file when it was written, else nothing of ours. */
function pictureColumns(copy: ElementCopy, written: Set<string>) {
  const pick = (
    planned: { url: string | null; path: string | null },
    url: unknown,
    path: string | null,
  ) =>
    planned.path && written.has(planned.path)
      ? planned
      : { url: path ? null : externalUrl(url as string | null), path: null };
  const illustration = pick(
    copy.files.illustration,
    copy.values.illustration_url,
    copy.sourcePaths.illustration,
  );
  const allergen = pick(
    copy.files.allergen,
    copy.values.allergen_illustration_url,
    copy.sourcePaths.allergen,
  );
  return {
    illustration_url: illustration.url,
    illustration_path: illustration.path,
    allergen_illustration_url: allergen.url,
    allergen_illustration_path: allergen.path,
  };
}

/** Names of the source types the copies use. */
async function sourceTypeNames(
  db: Pick<Database, 'select'>,
  copies: ElementCopy[],
): Promise<Map<string, string>> {
  const ids = uniqueIds(
    copies.map((copy) => copy.values.type_id as string | null).filter((id) => id !== null),
  );
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: elementTypes.id, name: elementTypes.name })
    .from(elementTypes)
    .where(inArray(elementTypes.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Writes the planned copies at the target: types, elements, labels, attachments, records. */
async function writeCopies(
  tx: Executor,
  target: TargetOwner,
  copies: ElementCopy[],
  typeNames: Map<string, string>,
  visibleTypes: { id: string; name: string }[],
  written: Set<string>,
) {
  const owner =
    target.level === 'database'
      ? { database_id: target.id, store_id: null }
      : { database_id: null, store_id: target.id };
  const matcher = typeMatcher<undefined>(visibleTypes, async (executor, name) => {
    const [row] = await executor
      .insert(elementTypes)
      .values({ ...owner, name })
      .returning({ id: elementTypes.id, name: elementTypes.name });
    return row!;
  });
  const typeOf = (id: unknown) => {
    const name = typeof id === 'string' ? typeNames.get(id) : undefined;
    return name === undefined ? null : { id: id as string, name, extra: undefined };
  };
  const elementRows: (typeof databaseElements.$inferInsert | typeof storeElements.$inferInsert)[] =
    [];
  for (const copy of copies) {
    const common = {
      ...copy.values,
      type_id: await matcher.resolve(tx, typeOf(copy.values.type_id)),
      ...pictureColumns(copy, written),
      id: copy.newId,
    };
    elementRows.push(
      target.level === 'database'
        ? ({
            ...common,
            database_id: target.id,
            locks: copy.locks,
          } as typeof databaseElements.$inferInsert)
        : ({
            ...common,
            store_id: target.id,
            origin_id: copy.originId ?? null,
            probe_id: null,
          } as typeof storeElements.$inferInsert),
    );
  }
  for (const slice of slices(elementRows, 40)) {
    if (target.level === 'database') {
      await tx.insert(databaseElements).values(slice as (typeof databaseElements.$inferInsert)[]);
    } else {
      await tx.insert(storeElements).values(slice as (typeof storeElements.$inferInsert)[]);
    }
  }
  const element = (id: string) =>
    target.level === 'database'
      ? { database_id: target.id, database_element_id: id }
      : { store_id: target.id, store_element_id: id };
  const labelRows = copies.flatMap((copy) =>
    copy.labels.map((label) => ({ ...label, ...element(copy.newId) })),
  );
  for (const slice of slices(labelRows, 16)) await tx.insert(elementLabels).values(slice);
  const attachmentRows = copies.flatMap((copy) =>
    copy.files.attachments
      .filter((attachment) => written.has(attachment.path))
      .map((attachment, position) => ({
        ...attachment,
        index: position,
        ...element(copy.newId),
      })),
  );
  for (const slice of slices(attachmentRows, 14)) {
    await tx.insert(elementAttachments).values(slice);
  }
  await recordCopies(
    tx,
    'element',
    target,
    copies.map((copy) => ({ source_id: copy.sourceId, copy_id: copy.newId })),
  );
  return { created_types: matcher.created };
}

function planOf(
  target: TargetOwner,
  copies: ElementCopy[],
  skipped: CopyResponse['skipped'],
  visibleTypes: { id: string; name: string }[],
  typeNames: Map<string, string>,
): ExportPlan {
  return {
    created: copies.map((copy) => ({ source_id: copy.sourceId, id: copy.newId, name: copy.name })),
    skipped,
    files: copies.flatMap((copy) => copy.files.copies),
    write: (tx, written) => writeCopies(tx, target, copies, typeNames, visibleTypes, written),
  };
}

/** POST /api/database/copyDatabaseElements: database elements into another database. */
export async function planDatabaseElements(
  deps: Deps,
  source: DatabaseRow,
  target: DatabaseRow,
  body: CopyBody,
): Promise<ExportPlan> {
  const { db } = deps;
  const owner: TargetOwner = { level: 'database', id: target.id };
  const ids = uniqueIds(body.objectIds);
  const rows = await db
    .select()
    .from(databaseElements)
    .where(and(eq(databaseElements.database_id, source.id), inArray(databaseElements.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknown = ids.filter((id) => !byId.has(id));
  await assertNoForeignIds(db, 'element', unknown);
  const exported = await exportedBefore(db, 'element', owner, [...byId.keys()]);
  const skipped: CopyResponse['skipped'] = [];
  const selected: DatabaseElementRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) skipped.push({ source_id: id, name: null, reason: 'not-found' });
    else if (exported.has(id))
      skipped.push({ source_id: id, name: row.name, reason: 'already-exported' });
    else selected.push(row);
  }
  const selectedIds = selected.map((row) => row.id);
  const [labels, attachments, visibleTypes] = await Promise.all([
    labelsOfDatabaseElement(db, selectedIds),
    body.copyAttachments
      ? attachmentsOfDatabaseElements(db, selectedIds)
      : Promise.resolve([] as AttachmentRow[]),
    db
      .select({ id: elementTypes.id, name: elementTypes.name })
      .from(elementTypes)
      .where(eq(elementTypes.database_id, target.id)),
  ]);
  const labelsOf = groupBy(labels, (label) => label.database_element_id);
  const attachmentsOf = groupBy(attachments, (attachment) => attachment.database_element_id);
  const prefix = `databases/${target.id}`;
  const copies = selected.map((row): ElementCopy => {
    const newId = randomUUID();
    return {
      sourceId: row.id,
      newId,
      name: row.name,
      values: fieldsOf(row),
      sourcePaths: {
        illustration: row.illustration_path,
        allergen: row.allergen_illustration_path,
      },
      files: planElementFileCopies(
        prefix,
        newId,
        body.copyAttachments
          ? {
              illustrationPath: row.illustration_path,
              allergenIllustrationPath: row.allergen_illustration_path,
              attachments: attachmentsOf.get(row.id) ?? [],
            }
          : noFiles,
      ),
      labels: labelCopies(presentDatabaseLabels(labelsOf.get(row.id) ?? [])),
      locks: locksOf(row),
    };
  });
  const typeNames = await sourceTypeNames(db, copies);
  return planOf(owner, copies, skipped, visibleTypes, typeNames);
}

/** A store's own label rows as copied onto an override of the same origin. */
function ownLabelCopies(rows: LabelRow[]): LabelInsert[] {
  return rows.map((row) => ({
    active: row.active,
    name: row.name,
    type: row.type,
    expiration_duration: row.expiration_duration,
    defrosting_duration: row.defrosting_duration,
    expiration_text: row.expiration_text,
    cumulate_expiration_duration: row.cumulate_expiration_duration,
    show_expiration_hour: row.show_expiration_hour,
    show_expiration_weekday: row.show_expiration_weekday,
    index: row.index,
    origin_id: row.origin_id,
  })) as LabelInsert[];
}

/** A selected store element, with its effective name. */
type StoreItem = StoreSelection<StoreElementRow, DatabaseElementRow> & { name: string };

/**
 * POST /api/stores/copyStoreElements: a store's elements into another store (docs/decisions.md).
 * An object is a store element of the source or a database element of its database (as the
 * store sees it). Into a store of the same database, an element with an origin becomes an
 * override of that origin with the source's own values (skipped when the target already
 * overrides it); otherwise the target gets an element of its own with the effective values,
 * labels and attachments.
 */
export async function planStoreElements(
  deps: Deps,
  source: StoreRow,
  target: StoreRow,
  body: CopyBody,
): Promise<ExportPlan> {
  const { db } = deps;
  const owner: TargetOwner = { level: 'store', id: target.id };
  const ids = uniqueIds(body.objectIds);
  const storeRows = await db
    .select()
    .from(storeElements)
    .where(
      and(
        eq(storeElements.store_id, source.id),
        or(inArray(storeElements.id, ids), inArray(storeElements.origin_id, ids)),
      ),
    );
  const originIds = uniqueIds([
    ...ids,
    ...storeRows.map((row) => row.origin_id).filter((id) => id !== null),
  ]);
  const origins = source.database_id
    ? await db
        .select()
        .from(databaseElements)
        .where(
          and(
            eq(databaseElements.database_id, source.database_id),
            inArray(databaseElements.id, originIds),
          ),
        )
    : [];
  const { resolved, items: found } = resolveStoreSelection(ids, storeRows, origins);
  await assertNoForeignIds(
    db,
    'element',
    resolved.filter((entry) => !entry.item).map((entry) => entry.id),
  );
  const nameOf = new Map(
    [...found.values()].map((item) => [
      item.sourceId,
      effectiveStoreValues(item.row, item.origin).values.name,
    ]),
  );
  const sameDatabase = isSameDatabase(source, target);
  const isExported = await exportedToStore(db, 'element', { owner, sameDatabase }, [
    ...found.values(),
  ]);
  const skipped: CopyResponse['skipped'] = [];
  const selected: StoreItem[] = [];
  const seen = new Set<string>();
  for (const { id, item } of resolved) {
    if (!item) {
      skipped.push({ source_id: id, name: null, reason: 'not-found' });
      continue;
    }
    if (seen.has(item.sourceId)) continue;
    seen.add(item.sourceId);
    const name = nameOf.get(item.sourceId) ?? '';
    if (isExported(item)) {
      skipped.push({ source_id: item.sourceId, name, reason: 'already-exported' });
    } else {
      selected.push({ ...item, name });
    }
  }
  const rowIds = selected.flatMap((item) => (item.row ? [item.row.id] : []));
  const selectedOriginIds = selected.flatMap((item) => (item.origin ? [item.origin.id] : []));
  const [ownLabels, originLabels, ownAttachments, originAttachments, visibleTypes] =
    await Promise.all([
      labelsOfStoreElements(db, rowIds),
      labelsOfDatabaseElement(db, sameDatabase ? [] : selectedOriginIds),
      body.copyAttachments
        ? attachmentsOfStoreElements(db, rowIds)
        : Promise.resolve([] as AttachmentRow[]),
      body.copyAttachments && !sameDatabase
        ? attachmentsOfDatabaseElements(db, selectedOriginIds)
        : Promise.resolve([] as AttachmentRow[]),
      db
        .select({ id: elementTypes.id, name: elementTypes.name })
        .from(elementTypes)
        .where(storeTypesFilter(target)),
    ]);
  const ownLabelsOf = groupBy(ownLabels, (label) => label.store_element_id);
  const originLabelsOf = groupBy(originLabels, (label) => label.database_element_id);
  const ownAttachmentsOf = groupBy(ownAttachments, (attachment) => attachment.store_element_id);
  const originAttachmentsOf = groupBy(
    originAttachments,
    (attachment) => attachment.database_element_id,
  );
  const prefix = `stores/${target.id}`;
  const copies = selected.map((item): ElementCopy => {
    const newId = randomUUID();
    const { row, origin } = item;
    if (sameDatabase && origin) {
      // An override of the same origin: the source's own values, labels and files.
      return {
        sourceId: item.sourceId,
        newId,
        name: item.name,
        values: fieldsOf(row ?? {}),
        sourcePaths: {
          illustration: row?.illustration_path ?? null,
          allergen: row?.allergen_illustration_path ?? null,
        },
        files: planElementFileCopies(
          prefix,
          newId,
          body.copyAttachments && row
            ? {
                illustrationPath: row.illustration_path,
                allergenIllustrationPath: row.allergen_illustration_path,
                attachments: ownAttachmentsOf.get(row.id) ?? [],
              }
            : noFiles,
        ),
        labels: row ? ownLabelCopies(ownLabelsOf.get(row.id) ?? []) : [],
        originId: origin.id,
      };
    }
    // An element of the target's own: the effective values, labels and files.
    const parts = combineStoreParts(row, origin, {
      originLabels: origin ? (originLabelsOf.get(origin.id) ?? []) : null,
      originAttachments: origin ? (originAttachmentsOf.get(origin.id) ?? []) : [],
      ownLabels: row ? (ownLabelsOf.get(row.id) ?? []) : [],
      ownAttachments: row ? (ownAttachmentsOf.get(row.id) ?? []) : [],
    });
    const files = storeElementFiles(row, origin, parts);
    return {
      sourceId: item.sourceId,
      newId,
      name: item.name,
      values: fieldsOf(parts.effective.values),
      sourcePaths: {
        illustration: files.illustrationPath,
        allergen: files.allergenIllustrationPath,
      },
      files: planElementFileCopies(prefix, newId, body.copyAttachments ? files : noFiles),
      labels: labelCopies(parts.labels),
      originId: null,
    };
  });
  const typeNames = await sourceTypeNames(db, copies);
  return planOf(owner, copies, skipped, visibleTypes, typeNames);
}
