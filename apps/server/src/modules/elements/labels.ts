import {
  type LabelValues,
  newLabelValues,
  normalizeLabel,
  resolveInheritance,
  validateLabel,
} from '@mise/shared/catalogue/rules';
import type { Label, LabelInput } from '@mise/shared/catalogue/schemas';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { elementLabels } from '../../db/schema';
import { AppError } from '../../platform/errors';

export type LabelRow = typeof elementLabels.$inferSelect;
type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

const labelKeys = [
  'active',
  'name',
  'type',
  'expiration_duration',
  'defrosting_duration',
  'expiration_text',
  'cumulate_expiration_duration',
  'show_expiration_hour',
  'show_expiration_weekday',
] as const satisfies readonly (keyof LabelValues)[];
type LabelKey = (typeof labelKeys)[number];

/**
 * A label's values, unset fields filled with a new label's (spec 001 §5), what its type
 * does not use cleared (normalizeLabel).
 */
function completeLabel(values: Partial<Record<LabelKey, unknown>>): LabelValues {
  const filled = { ...newLabelValues() } as Record<string, unknown>;
  for (const key of labelKeys) {
    if (values[key] !== null && values[key] !== undefined) filled[key] = values[key];
  }
  return normalizeLabel(filled as LabelValues);
}

const byIndex = <T extends { index: number }>(rows: T[]) =>
  [...rows].sort((left, right) => left.index - right.index);

export function labelsOfDatabaseElement(db: Pick<Database, 'select'>, elementIds: string[]) {
  if (elementIds.length === 0) return Promise.resolve([] as LabelRow[]);
  return db
    .select()
    .from(elementLabels)
    .where(inArray(elementLabels.database_element_id, elementIds))
    .orderBy(asc(elementLabels.index), asc(elementLabels.id));
}

export function labelsOfStoreElement(db: Pick<Database, 'select'>, elementId: string) {
  return db
    .select()
    .from(elementLabels)
    .where(eq(elementLabels.store_element_id, elementId))
    .orderBy(asc(elementLabels.index), asc(elementLabels.id));
}

/** The labels of several store elements (rows of their own: overrides and own labels). */
export function labelsOfStoreElements(db: Pick<Database, 'select'>, elementIds: string[]) {
  if (elementIds.length === 0) return Promise.resolve([] as LabelRow[]);
  return db
    .select()
    .from(elementLabels)
    .where(inArray(elementLabels.store_element_id, elementIds))
    .orderBy(asc(elementLabels.index), asc(elementLabels.id));
}

export function presentDatabaseLabels(rows: LabelRow[]): Label[] {
  return byIndex(rows).map((row) => ({
    ...completeLabel(row),
    id: row.id,
    origin_id: null,
    index: row.index,
    state: 'own' as const,
  }));
}

/**
 * A store element's labels (spec 001 §3.4): the origin's when it locks labels; otherwise the
 * origin's labels the store has not overridden (inherited) and the store's own rows, an
 * override falling back field by field to its origin label.
 */
export function presentStoreLabels(
  storeRows: LabelRow[],
  originRows: LabelRow[] | null,
  isLocked: boolean,
): Label[] {
  if (originRows && isLocked) {
    return byIndex(originRows).map((row) => ({
      ...completeLabel(row),
      id: null,
      origin_id: row.id,
      index: row.index,
      state: 'locked' as const,
    }));
  }
  const originById = new Map((originRows ?? []).map((row) => [row.id, row]));
  const overridden = new Set(storeRows.map((row) => row.origin_id).filter((id) => id !== null));
  const inherited = (originRows ?? [])
    .filter((row) => !overridden.has(row.id))
    .map((row) => ({
      ...completeLabel(row),
      id: null,
      origin_id: row.id,
      index: row.index,
      state: 'inherited' as const,
      rank: 0,
    }));
  const own = storeRows.map((row) => {
    const origin = row.origin_id ? originById.get(row.origin_id) : undefined;
    if (!origin) {
      return {
        ...completeLabel(row),
        id: row.id,
        origin_id: null,
        index: row.index,
        state: 'own' as const,
        rank: 1,
      };
    }
    const resolved = resolveInheritance<LabelKey, unknown>(labelKeys, row, {
      values: origin,
      locks: {},
    });
    return {
      ...completeLabel(resolved.values),
      id: row.id,
      origin_id: origin.id,
      index: row.index,
      state: 'overridden' as const,
      rank: 1,
    };
  });
  return [...inherited, ...own]
    .sort((left, right) => left.index - right.index || left.rank - right.rank)
    .map(({ rank: _rank, ...label }) => label);
}

/** The values of a label of the body, normalised to its type (normalizeLabel). */
function valuesOfInput(input: LabelInput): LabelValues {
  const { id: _id, origin_id: _origin, ...values } = input;
  return normalizeLabel(values);
}

function assertValidLabels(labels: LabelInput[]): void {
  const ids = new Set<string>();
  const origins = new Set<string>();
  for (const [position, label] of labels.entries()) {
    const error = validateLabel(valuesOfInput(label));
    if (error) {
      throw new AppError(error, undefined, [
        { path: `labels.${position}`, message: `Label "${label.name}" is not valid.` },
      ]);
    }
    for (const [seen, value] of [
      [ids, label.id],
      [origins, label.origin_id],
    ] as const) {
      if (value === undefined) continue;
      if (seen.has(value)) {
        throw new AppError('validation/invalid-input', 'A label appears twice in the list.');
      }
      seen.add(value);
    }
  }
}

const unknownLabel = (position: number) =>
  new AppError('label/unknown-label', undefined, [
    { path: `labels.${position}`, message: 'Unknown label.' },
  ]);

/**
 * Saves a database element's labels in list order (index rewritten from the position); ids
 * must be the element's; its labels left out are deleted, with the stores' overrides of them.
 */
export async function saveDatabaseLabels(
  tx: Executor,
  element: { id: string; database_id: string },
  labels: LabelInput[],
): Promise<void> {
  assertValidLabels(labels);
  const existing = await tx
    .select({ id: elementLabels.id })
    .from(elementLabels)
    .where(eq(elementLabels.database_element_id, element.id));
  const existingIds = new Set(existing.map((row) => row.id));
  for (const [position, label] of labels.entries()) {
    if (label.origin_id !== undefined) throw unknownLabel(position);
    if (label.id !== undefined && !existingIds.has(label.id)) throw unknownLabel(position);
  }
  const kept = new Set(labels.map((label) => label.id).filter((id) => id !== undefined));
  const removed = [...existingIds].filter((id) => !kept.has(id));
  if (removed.length) {
    // A store's override of a removed label would otherwise outlive it as a partial label.
    await tx.delete(elementLabels).where(inArray(elementLabels.origin_id, removed));
    await tx.delete(elementLabels).where(inArray(elementLabels.id, removed));
  }
  const now = new Date();
  for (const [position, label] of labels.entries()) {
    const values = { ...valuesOfInput(label), index: position };
    if (label.id) {
      await tx
        .update(elementLabels)
        .set({ ...values, updated_at: now })
        .where(
          and(eq(elementLabels.id, label.id), eq(elementLabels.database_element_id, element.id)),
        );
    } else {
      await tx.insert(elementLabels).values({
        ...values,
        database_id: element.database_id,
        database_element_id: element.id,
      });
    }
  }
}

/**
 * Saves a store element's labels (labels not locked by the origin). Inherited labels are
 * written as overrides only when their values or position differ from the origin label (the
 * equal fields stay null and keep following it); an override equal to its origin is removed.
 * The store's own labels left out are deleted; a database label cannot be deleted from a
 * store (leaving it out keeps it, with its override if any).
 */
export async function saveStoreLabels(
  tx: Executor,
  element: { id: string; store_id: string },
  originRows: LabelRow[],
  labels: LabelInput[],
): Promise<void> {
  assertValidLabels(labels);
  const existing = await tx
    .select()
    .from(elementLabels)
    .where(eq(elementLabels.store_element_id, element.id));
  const originById = new Map(originRows.map((row) => [row.id, row]));
  const existingById = new Map(existing.map((row) => [row.id, row]));
  const overrideOf = new Map(
    existing
      .filter((row) => row.origin_id !== null && originById.has(row.origin_id))
      .map((row) => [row.origin_id!, row]),
  );
  type Plan = { input: LabelInput; row: LabelRow | undefined; origin: LabelRow | undefined };
  const plans: Plan[] = labels.map((input, position) => {
    if (input.id !== undefined) {
      const row = existingById.get(input.id);
      if (!row) throw unknownLabel(position);
      const origin = row.origin_id ? originById.get(row.origin_id) : undefined;
      if (input.origin_id !== undefined && input.origin_id !== origin?.id)
        throw unknownLabel(position);
      return { input, row, origin };
    }
    if (input.origin_id !== undefined) {
      const origin = originById.get(input.origin_id);
      if (!origin) throw unknownLabel(position);
      return { input, row: overrideOf.get(origin.id), origin };
    }
    return { input, row: undefined, origin: undefined };
  });
  const listedRowIds = new Set(plans.map((plan) => plan.row?.id).filter((id) => id !== undefined));
  const removed = existing.filter(
    (row) =>
      !listedRowIds.has(row.id) && (row.origin_id === null || !originById.has(row.origin_id)),
  );
  if (removed.length) {
    await tx.delete(elementLabels).where(
      inArray(
        elementLabels.id,
        removed.map((row) => row.id),
      ),
    );
  }
  const now = new Date();
  for (const [position, { input, row, origin }] of plans.entries()) {
    const values = valuesOfInput(input);
    if (origin) {
      // Compared with the origin as presented (normalised), so an unchanged label stays equal.
      const originValues = completeLabel(origin);
      const differences = Object.fromEntries(
        labelKeys.map((key) => [key, values[key] === originValues[key] ? null : values[key]]),
      ) as Partial<Record<LabelKey, unknown>>;
      const isDifferent =
        position !== origin.index || labelKeys.some((key) => differences[key] !== null);
      if (!isDifferent) {
        if (row) await tx.delete(elementLabels).where(eq(elementLabels.id, row.id));
        continue;
      }
      const override = { ...differences, index: position } as Partial<LabelRow>;
      if (row) {
        await tx
          .update(elementLabels)
          .set({ ...override, updated_at: now })
          .where(eq(elementLabels.id, row.id));
      } else {
        await tx.insert(elementLabels).values({
          ...override,
          store_id: element.store_id,
          store_element_id: element.id,
          origin_id: origin.id,
        });
      }
      continue;
    }
    if (row) {
      await tx
        .update(elementLabels)
        .set({ ...values, index: position, origin_id: null, updated_at: now })
        .where(eq(elementLabels.id, row.id));
    } else {
      await tx.insert(elementLabels).values({
        ...values,
        index: position,
        store_id: element.store_id,
        store_element_id: element.id,
      });
    }
  }
}

/** Copies of labels for a duplicate (all values written). */
export function labelCopies(labels: Label[]): (LabelValues & { index: number })[] {
  return labels.map((label, position) => ({
    active: label.active,
    name: label.name,
    type: label.type,
    expiration_duration: label.expiration_duration,
    defrosting_duration: label.defrosting_duration,
    expiration_text: label.expiration_text,
    cumulate_expiration_duration: label.cumulate_expiration_duration,
    show_expiration_hour: label.show_expiration_hour,
    show_expiration_weekday: label.show_expiration_weekday,
    index: position,
  }));
}
