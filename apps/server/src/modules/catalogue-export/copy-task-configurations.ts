import { randomUUID } from 'node:crypto';
import type { CopyBody, CopyResponse } from '@mise/shared/catalogue/bulk';
import type { ConfigurationModule } from '@mise/shared/tasks/constants';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type ConfigurationContent,
  storeTaskConfigurations,
  taskConfigurations,
  taskTypes,
} from '../../db/schema';
import type { FileCopy } from '../elements/duplicate-element';
import { type StoreRow, storeHiddenModules } from '../stores/stores.service';
import {
  configurationElementChoices,
  type ElementChoice,
  type ElementOwner,
  visibleElementNames,
} from '../task-configurations/configuration-elements';
import {
  type DatabaseConfigurationRow,
  effectiveStoreConfiguration,
  elementIdsOf,
  locksOf,
  type StoreConfigurationRow,
} from '../task-configurations/task-configuration-values';
import { storeTaskTypesFilter } from '../task-configurations/task-types.service';
import {
  actionAttachmentsFolder,
  assertNoForeignIds,
  copiedAttachmentKey,
  type DatabaseRow,
  type Executor,
  type ExportPlan,
  exportedBefore,
  exportedToStore,
  isSameDatabase,
  nameKey,
  recordCopies,
  resolveStoreSelection,
  slices,
  type TargetOwner,
  typeMatcher,
  uniqueIds,
} from './export-support';

/*
 * Task configuration copies (spec 001 §7 copyDatabaseTaskConfs, copyStoreTaskConfs): type
 * (matched by name at the target, else created with its colour), schedules, recurrence,
 * description, flags, locks at database level, action sub-tasks (their attachments copied
 * under the target's task_configurations_attachments with copyAttachments, else left out) and
 * the elements referenced, matched at the target by name (else skipped 'missing-elements').
 */

type Deps = { db: Database };

/** The configuration's columns as copied (type_id still the source's). */
type ConfigurationColumns = {
  module: ConfigurationModule;
  name: string | null;
  description: string | null;
  type_id: string | null;
  active: boolean | null;
  recurrence: string | null;
  recurrence_anchor: string | null;
  starts: number[] | null;
  durations: number[] | null;
  requires_manager: boolean | null;
  notify_late: boolean | null;
  configuration: ConfigurationContent | null;
};

type ConfigurationCopy = {
  sourceId: string;
  newId: string;
  name: string;
  columns: ConfigurationColumns;
  /** The content with the copied action attachments that were written. */
  content: (written: Set<string>) => ConfigurationContent | null;
  files: FileCopy[];
  locks?: ReturnType<typeof locksOf>;
  originId?: string | null;
};

/**
 * Element references mapped to the target's elements a configuration of the module may use
 * (the editor's choices): the same element when the target sees it (a store of the same
 * database), else the one of the same name. Answers the names the target lacks.
 */
function mapElements(
  content: ConfigurationContent | null,
  sourceNames: Map<string, string>,
  choices: ElementChoice[],
): { content: ConfigurationContent | null; missing: string[] } {
  const ids = elementIdsOf(content);
  if (!content || ids.length === 0) return { content, missing: [] };
  const choiceIds = new Set(choices.map((choice) => choice.id));
  const byName = new Map<string, string>();
  for (const choice of choices) {
    if (!byName.has(nameKey(choice.name))) byName.set(nameKey(choice.name), choice.id);
  }
  const mapped: string[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const name = sourceNames.get(id);
    // A reference to an element deleted since designates nothing: left out, as the editor does.
    if (name === undefined) continue;
    const match = choiceIds.has(id) ? id : byName.get(nameKey(name));
    if (match === undefined) {
      if (!missing.includes(name)) missing.push(name);
    } else if (!mapped.includes(match)) {
      mapped.push(match);
    }
  }
  const key = 'temperature_elements' in content ? 'temperature_elements' : 'oil_elements';
  return { content: { ...content, [key]: mapped } as ConfigurationContent, missing };
}

/** Action attachments copied under the target's folder (or left out without copyAttachments). */
function planActionFiles(
  content: ConfigurationContent | null,
  folder: string,
  isCopying: boolean,
): { files: FileCopy[]; content: (written: Set<string>) => ConfigurationContent | null } {
  if (!content || !('actions' in content)) return { files: [], content: () => content };
  const files: FileCopy[] = [];
  const actions = content.actions.map((action) => ({
    ...action,
    attachments: isCopying
      ? action.attachments.map((attachment) => {
          const to = copiedAttachmentKey(folder, attachment.path);
          files.push({ from: attachment.path, to });
          return { name: attachment.name, path: to };
        })
      : [],
  }));
  return {
    files,
    content: (written) => ({
      actions: actions.map((action) => ({
        ...action,
        attachments: action.attachments.filter((attachment) => written.has(attachment.path)),
      })),
    }),
  };
}

/** The element choices of the target for a module, read once per module. */
function choicesReader(db: Pick<Database, 'select'>, owner: ElementOwner) {
  const cache = new Map<string, Promise<ElementChoice[]>>();
  return (module: ConfigurationModule): Promise<ElementChoice[]> => {
    if (module === 'actions') return Promise.resolve([]);
    let choices = cache.get(module);
    if (!choices) {
      choices = configurationElementChoices(db, owner, module);
      cache.set(module, choices);
    }
    return choices;
  };
}

type Candidate = {
  sourceId: string;
  name: string;
  module: ConfigurationModule;
  columns: ConfigurationColumns;
  locks?: ReturnType<typeof locksOf>;
  originId?: string | null;
};

/**
 * The skips shared by both levels (hidden module, missing elements) and the copies of the
 * others, their element references mapped and action files planned.
 */
async function planCopies(
  db: Pick<Database, 'select'>,
  candidates: Candidate[],
  context: {
    hiddenModules: readonly string[];
    sourceOwner: ElementOwner;
    targetOwner: ElementOwner;
    target: TargetOwner;
    isCopyingFiles: boolean;
  },
): Promise<{ copies: ConfigurationCopy[]; skipped: Map<string, CopyResponse['skipped'][number]> }> {
  const skipped = new Map<string, CopyResponse['skipped'][number]>();
  const shown = candidates.filter((candidate) => {
    if (!context.hiddenModules.includes(candidate.module)) return true;
    skipped.set(candidate.sourceId, {
      source_id: candidate.sourceId,
      name: candidate.name,
      reason: 'module-hidden',
    });
    return false;
  });
  const sourceNames = await visibleElementNames(
    db,
    context.sourceOwner,
    shown.flatMap((candidate) => elementIdsOf(candidate.columns.configuration)),
  );
  const choicesOf = choicesReader(db, context.targetOwner);
  const folder = actionAttachmentsFolder(context.target);
  const copies: ConfigurationCopy[] = [];
  for (const candidate of shown) {
    const mapped = mapElements(
      candidate.columns.configuration,
      sourceNames,
      await choicesOf(candidate.module),
    );
    if (mapped.missing.length) {
      skipped.set(candidate.sourceId, {
        source_id: candidate.sourceId,
        name: candidate.name,
        reason: 'missing-elements',
        missing: mapped.missing,
      });
      continue;
    }
    const actionFiles = planActionFiles(mapped.content, folder, context.isCopyingFiles);
    copies.push({
      sourceId: candidate.sourceId,
      newId: randomUUID(),
      name: candidate.name,
      columns: candidate.columns,
      content: actionFiles.content,
      files: actionFiles.files,
      locks: candidate.locks,
      originId: candidate.originId,
    });
  }
  return { copies, skipped };
}

/** Source task types (name and colour) of the copies. */
async function sourceTypes(db: Pick<Database, 'select'>, copies: ConfigurationCopy[]) {
  const ids = uniqueIds(
    copies.map((copy) => copy.columns.type_id).filter((id): id is string => id !== null),
  );
  if (ids.length === 0) return new Map<string, { name: string; color: string }>();
  const rows = await db
    .select({ id: taskTypes.id, name: taskTypes.name, color: taskTypes.color })
    .from(taskTypes)
    .where(inArray(taskTypes.id, ids));
  return new Map(rows.map((row) => [row.id, { name: row.name, color: row.color }]));
}

async function writeCopies(
  tx: Executor,
  target: TargetOwner,
  copies: ConfigurationCopy[],
  types: Map<string, { name: string; color: string }>,
  visibleTypes: { id: string; name: string }[],
  written: Set<string>,
) {
  const owner =
    target.level === 'database'
      ? { database_id: target.id, store_id: null }
      : { database_id: null, store_id: target.id };
  const matcher = typeMatcher<string>(visibleTypes, async (executor, name, color) => {
    const [row] = await executor
      .insert(taskTypes)
      .values({ ...owner, name, color })
      .returning({ id: taskTypes.id, name: taskTypes.name });
    return row!;
  });
  const rows: (
    | typeof taskConfigurations.$inferInsert
    | typeof storeTaskConfigurations.$inferInsert
  )[] = [];
  for (const copy of copies) {
    const sourceType = copy.columns.type_id ? types.get(copy.columns.type_id) : undefined;
    const columns = {
      ...copy.columns,
      id: copy.newId,
      type_id: await matcher.resolve(
        tx,
        sourceType && copy.columns.type_id
          ? { id: copy.columns.type_id, name: sourceType.name, extra: sourceType.color }
          : null,
      ),
      configuration: copy.content(written),
    };
    rows.push(
      target.level === 'database'
        ? ({
            ...columns,
            database_id: target.id,
            locks: copy.locks,
          } as typeof taskConfigurations.$inferInsert)
        : ({
            ...columns,
            store_id: target.id,
            origin_id: copy.originId ?? null,
          } as typeof storeTaskConfigurations.$inferInsert),
    );
  }
  for (const slice of slices(rows, 18)) {
    if (target.level === 'database') {
      await tx
        .insert(taskConfigurations)
        .values(slice as (typeof taskConfigurations.$inferInsert)[]);
    } else {
      await tx
        .insert(storeTaskConfigurations)
        .values(slice as (typeof storeTaskConfigurations.$inferInsert)[]);
    }
  }
  await recordCopies(
    tx,
    'task-configuration',
    target,
    copies.map((copy) => ({ source_id: copy.sourceId, copy_id: copy.newId })),
  );
  return { created_types: matcher.created };
}

/** The answer's lists in the order of the selection, and the plan's writer. */
function planOf(
  order: { id: string; sourceId: string | null; name: string | null }[],
  early: Map<string, CopyResponse['skipped'][number]>,
  planned: Awaited<ReturnType<typeof planCopies>>,
  write: ExportPlan['write'],
): ExportPlan {
  const createdBySource = new Map(planned.copies.map((copy) => [copy.sourceId, copy]));
  const created: CopyResponse['created'] = [];
  const skipped: CopyResponse['skipped'] = [];
  const seen = new Set<string>();
  for (const entry of order) {
    if (entry.sourceId === null) {
      skipped.push({ source_id: entry.id, name: null, reason: 'not-found' });
      continue;
    }
    if (seen.has(entry.sourceId)) continue;
    seen.add(entry.sourceId);
    const skip = early.get(entry.sourceId) ?? planned.skipped.get(entry.sourceId);
    if (skip) {
      skipped.push(skip);
      continue;
    }
    const copy = createdBySource.get(entry.sourceId);
    if (copy) created.push({ source_id: copy.sourceId, id: copy.newId, name: copy.name });
  }
  return {
    created,
    skipped,
    files: planned.copies.flatMap((copy) => copy.files),
    write,
  };
}

const columnsOfDatabaseRow = (row: DatabaseConfigurationRow): ConfigurationColumns => ({
  module: row.module,
  name: row.name,
  description: row.description,
  type_id: row.type_id,
  active: row.active,
  recurrence: row.recurrence,
  recurrence_anchor: row.recurrence_anchor,
  starts: row.starts,
  durations: row.durations,
  requires_manager: row.requires_manager,
  notify_late: row.notify_late,
  configuration: row.configuration,
});

/** POST /api/database/copyDatabaseTaskConfs: database configurations into another database. */
export async function planDatabaseConfigurations(
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
    .from(taskConfigurations)
    .where(and(eq(taskConfigurations.database_id, source.id), inArray(taskConfigurations.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  await assertNoForeignIds(
    db,
    'task-configuration',
    ids.filter((id) => !byId.has(id)),
  );
  const exported = await exportedBefore(db, 'task-configuration', owner, [...byId.keys()]);
  const early = new Map<string, CopyResponse['skipped'][number]>();
  const candidates: Candidate[] = [];
  for (const row of rows) {
    if (exported.has(row.id)) {
      early.set(row.id, { source_id: row.id, name: row.name, reason: 'already-exported' });
    } else {
      candidates.push({
        sourceId: row.id,
        name: row.name,
        module: row.module,
        columns: columnsOfDatabaseRow(row),
        locks: locksOf(row),
      });
    }
  }
  const planned = await planCopies(db, candidates, {
    hiddenModules: target.hidden_modules,
    sourceOwner: { level: 'database', databaseId: source.id },
    targetOwner: { level: 'database', databaseId: target.id },
    target: owner,
    isCopyingFiles: body.copyAttachments,
  });
  const [types, visibleTypes] = await Promise.all([
    sourceTypes(db, planned.copies),
    db
      .select({ id: taskTypes.id, name: taskTypes.name })
      .from(taskTypes)
      .where(eq(taskTypes.database_id, target.id)),
  ]);
  return planOf(
    ids.map((id) => ({ id, sourceId: byId.has(id) ? id : null, name: byId.get(id)?.name ?? null })),
    early,
    planned,
    (tx, written) => writeCopies(tx, owner, planned.copies, types, visibleTypes, written),
  );
}

/** A store configuration's own columns (null: follows its origin). */
const ownColumns = (
  row: StoreConfigurationRow | null,
  module: ConfigurationModule,
): ConfigurationColumns => ({
  module,
  name: row?.name ?? null,
  description: row?.description ?? null,
  type_id: row?.type_id ?? null,
  active: row?.active ?? null,
  recurrence: row?.recurrence ?? null,
  recurrence_anchor: row?.recurrence_anchor ?? null,
  starts: row?.starts ?? null,
  durations: row?.durations ?? null,
  requires_manager: row?.requires_manager ?? null,
  notify_late: row?.notify_late ?? null,
  configuration: row?.configuration ?? null,
});

/**
 * POST /api/stores/copyStoreTaskConfs: a store's configurations into another store, with the
 * same rule as its elements (docs/decisions.md): into a store of the same database, a
 * configuration with an origin becomes an override of that origin with the source's own
 * values (skipped when the target already overrides it); otherwise a configuration of the
 * target's own with the effective values.
 */
export async function planStoreConfigurations(
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
    .from(storeTaskConfigurations)
    .where(
      and(
        eq(storeTaskConfigurations.store_id, source.id),
        or(
          inArray(storeTaskConfigurations.id, ids),
          inArray(storeTaskConfigurations.origin_id, ids),
        ),
      ),
    );
  const originIds = uniqueIds([
    ...ids,
    ...storeRows.map((row) => row.origin_id).filter((id) => id !== null),
  ]);
  const origins = source.database_id
    ? await db
        .select()
        .from(taskConfigurations)
        .where(
          and(
            eq(taskConfigurations.database_id, source.database_id),
            inArray(taskConfigurations.id, originIds),
          ),
        )
    : [];
  const { resolved, items } = resolveStoreSelection(ids, storeRows, origins);
  await assertNoForeignIds(
    db,
    'task-configuration',
    resolved.filter((entry) => !entry.item).map((entry) => entry.id),
  );
  const sameDatabase = isSameDatabase(source, target);
  const [isExported, hiddenModules] = await Promise.all([
    exportedToStore(db, 'task-configuration', { owner, sameDatabase }, [...items.values()]),
    storeHiddenModules(db, target),
  ]);
  const early = new Map<string, CopyResponse['skipped'][number]>();
  const candidates: Candidate[] = [];
  const names = new Map<string, string>();
  for (const item of items.values()) {
    const effective = effectiveStoreConfiguration(item.row, item.origin);
    const name = effective.values.name;
    names.set(item.sourceId, name);
    if (isExported(item)) {
      early.set(item.sourceId, { source_id: item.sourceId, name, reason: 'already-exported' });
      continue;
    }
    if (sameDatabase && item.origin) {
      // An override of the same origin: the source's own columns.
      candidates.push({
        sourceId: item.sourceId,
        name,
        module: effective.module,
        columns: ownColumns(item.row, effective.module),
        originId: item.origin.id,
      });
      continue;
    }
    const values = effective.values;
    candidates.push({
      sourceId: item.sourceId,
      name,
      module: effective.module,
      columns: {
        module: effective.module,
        name: values.name,
        description: values.description,
        type_id: values.type_id,
        active: values.active,
        recurrence: values.recurrence,
        recurrence_anchor: effective.recurrence_anchor,
        starts: values.starts,
        durations: values.durations,
        requires_manager: values.requires_manager,
        notify_late: values.notify_late,
        configuration: values.configuration as ConfigurationContent,
      },
      originId: null,
    });
  }
  const planned = await planCopies(db, candidates, {
    hiddenModules,
    sourceOwner: { level: 'store', store: source },
    targetOwner: { level: 'store', store: target },
    target: owner,
    isCopyingFiles: body.copyAttachments,
  });
  const [types, visibleTypes] = await Promise.all([
    sourceTypes(db, planned.copies),
    db
      .select({ id: taskTypes.id, name: taskTypes.name })
      .from(taskTypes)
      .where(storeTaskTypesFilter(target)),
  ]);
  return planOf(
    resolved.map(({ id, item }) => ({
      id,
      sourceId: item?.sourceId ?? null,
      name: item ? (names.get(item.sourceId) ?? null) : null,
    })),
    early,
    planned,
    (tx, written) => writeCopies(tx, owner, planned.copies, types, visibleTypes, written),
  );
}
