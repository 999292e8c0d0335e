import { mergeStoreRows } from '@mise/shared/catalogue/rules';
import type { DeviceElement } from '@mise/shared/device/schemas';
import { and, asc, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databaseElements,
  elementAttachments,
  elementLabels,
  elementTypes,
  storeElements,
  type TaskElementSnapshot,
} from '../../db/schema';
import { type AttachmentRow, fileUrl } from './attachments';
import {
  type DatabaseElementRow,
  type Effective,
  effectiveStoreValues,
  type StoreElementRow,
} from './element-values';
import { type LabelRow, presentStoreLabels } from './labels';

/*
 * GET /api/device/elements (issue 14): a store's active elements as its tablet uses them,
 * with the back-office's one inheritance rule (effectiveStoreValues: store override over
 * database element, locks), labels (presentStoreLabels: store label over origin label, the
 * origin's when it locks labels) and attachments (the origin's, then the store's own unless
 * the origin locks them). Five queries whatever the number of elements (database elements,
 * store elements, types, labels, attachments), none per element.
 */

type StoreRef = { id: string; database_id: string | null };

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  return groups;
}

/** One element of the store: its effective values and the rows its labels and files hang on. */
type StoreItem = {
  /** The id tasks and results use: the database element's when there is one, else the store's. */
  id: string;
  name: string;
  effective: Effective;
  origin: DatabaseElementRow | null;
  row: StoreElementRow | null;
};

export async function listDeviceElements(db: Database, store: StoreRef): Promise<DeviceElement[]> {
  const databaseId = store.database_id;
  const [databaseRows, storeRows, typeRows, labelRows, attachmentRows] = await Promise.all([
    databaseId
      ? db.select().from(databaseElements).where(eq(databaseElements.database_id, databaseId))
      : Promise.resolve([] as DatabaseElementRow[]),
    db.select().from(storeElements).where(eq(storeElements.store_id, store.id)),
    db
      .select({ id: elementTypes.id, name: elementTypes.name })
      .from(elementTypes)
      .where(
        databaseId
          ? or(eq(elementTypes.database_id, databaseId), eq(elementTypes.store_id, store.id))
          : eq(elementTypes.store_id, store.id),
      ),
    db
      .select()
      .from(elementLabels)
      .where(
        databaseId
          ? or(eq(elementLabels.database_id, databaseId), eq(elementLabels.store_id, store.id))
          : eq(elementLabels.store_id, store.id),
      )
      .orderBy(asc(elementLabels.index), asc(elementLabels.id)),
    db
      .select()
      .from(elementAttachments)
      .where(
        databaseId
          ? or(
              eq(elementAttachments.database_id, databaseId),
              eq(elementAttachments.store_id, store.id),
            )
          : eq(elementAttachments.store_id, store.id),
      )
      .orderBy(asc(elementAttachments.index), asc(elementAttachments.id)),
  ]);
  const originById = new Map(databaseRows.map((row) => [row.id, row]));
  const typeName = new Map(typeRows.map((type) => [type.id, type.name]));
  const databaseLabels = groupBy(labelRows, (row) => row.database_element_id);
  const storeLabels = groupBy(labelRows, (row) => row.store_element_id);
  const databaseFiles = groupBy(attachmentRows, (row) => row.database_element_id);
  const storeFiles = groupBy(attachmentRows, (row) => row.store_element_id);

  const databaseItems: StoreItem[] = databaseRows.map((origin) => {
    const effective = effectiveStoreValues(null, origin);
    return { id: origin.id, name: effective.values.name, effective, origin, row: null };
  });
  const storeItems = storeRows.map((row) => {
    // An override whose origin is not in the store's database counts as its own element.
    const origin = row.origin_id ? (originById.get(row.origin_id) ?? null) : null;
    const effective = effectiveStoreValues(row, origin);
    return {
      id: origin?.id ?? row.id,
      origin_id: origin?.id ?? null,
      name: effective.values.name,
      effective,
      origin,
      row,
    };
  });
  const elements: DeviceElement[] = [];
  for (const { row: item } of mergeStoreRows(databaseItems, storeItems)) {
    const { values, locks } = item.effective;
    if (!values.active) continue;
    const { origin, row } = item;
    const originLabels = origin ? (databaseLabels.get(origin.id) ?? []) : null;
    const labels = presentStoreLabels(
      row ? (storeLabels.get(row.id) ?? []) : ([] as LabelRow[]),
      originLabels,
      Boolean(origin && locks.labels),
    );
    const files: AttachmentRow[] = [
      ...(origin ? (databaseFiles.get(origin.id) ?? []) : []),
      ...(row && !(origin && locks.attachments) ? (storeFiles.get(row.id) ?? []) : []),
    ];
    elements.push({
      id: item.id,
      name: values.name,
      type_name: values.type_id ? (typeName.get(values.type_id) ?? null) : null,
      illustration_url: values.illustration_url,
      modules: {
        temperatures: values.temperatures_module_active,
        labels: values.labels_module_active,
        traceability: values.traceability_module_active,
        oils: values.oils_module_active,
        temperature_control: values.temperature_control_module_active,
        encyclopedia: values.encyclopedia_extension_active,
        display_active: values.mise_display_active,
      },
      minimum_temperature: values.minimum_temperature,
      maximum_temperature: values.maximum_temperature,
      temperature_require_picture: values.temperature_require_picture,
      temperature_picture: values.temperature_picture,
      maximum_polarity: values.maximum_polarity,
      oils_require_picture: values.oils_require_picture,
      reheating_temperature: values.reheating_temperature,
      reheating_duration: values.reheating_duration,
      cooling_temperature: values.cooling_temperature,
      cooling_duration: values.cooling_duration,
      allergens: values.allergens,
      attachments: files.map((file) => ({
        name: file.name,
        type: file.type,
        url: fileUrl(file.path),
      })),
      labels: labels
        .filter((label) => label.active)
        .map((label) => ({
          id: (label.id ?? label.origin_id)!,
          name: label.name,
          type: label.type,
          index: label.index,
          expiration_duration: label.expiration_duration,
          defrosting_duration: label.defrosting_duration,
          expiration_text: label.expiration_text,
          cumulate_expiration_duration: label.cumulate_expiration_duration,
          show_expiration_hour: label.show_expiration_hour,
          show_expiration_weekday: label.show_expiration_weekday,
        })),
    });
  }
  return elements;
}

/** What an unscheduled task needs of its element: its snapshot and its modules and durations. */
export type TaskElement = {
  /** As a task copies it (the generation's snapshot: id, name, limits). */
  snapshot: TaskElementSnapshot;
  traceability_module_active: boolean;
  temperature_control_module_active: boolean;
  cooling_duration: number | null;
  reheating_duration: number | null;
};

/**
 * One active element of the store by the id tasks use (a database element's id, overridden by
 * the store or not, or the store's own element's id), with its effective values; null when the
 * store has no such active element. Two queries.
 */
export async function findTaskElement(
  db: Database,
  store: StoreRef,
  id: string,
): Promise<TaskElement | null> {
  const [originRows, storeRows] = await Promise.all([
    store.database_id
      ? db
          .select()
          .from(databaseElements)
          .where(
            and(eq(databaseElements.id, id), eq(databaseElements.database_id, store.database_id)),
          )
          .limit(1)
      : Promise.resolve([] as DatabaseElementRow[]),
    db
      .select()
      .from(storeElements)
      .where(
        and(
          eq(storeElements.store_id, store.id),
          or(eq(storeElements.id, id), eq(storeElements.origin_id, id)),
        ),
      ),
  ]);
  const origin = originRows[0] ?? null;
  // The database element (with the store's override when there is one), else the store's own
  // element of that id (an override whose origin left the database counts as its own).
  const row = origin
    ? (storeRows.find((candidate) => candidate.origin_id === origin.id) ?? null)
    : (storeRows.find((candidate) => candidate.id === id) ?? null);
  if (!origin && !row) return null;
  if (!origin && row?.origin_id && store.database_id) {
    // A store override is referenced by its database element's id, never by its own.
    const [live] = await db
      .select({ id: databaseElements.id })
      .from(databaseElements)
      .where(
        and(
          eq(databaseElements.id, row.origin_id),
          eq(databaseElements.database_id, store.database_id),
        ),
      )
      .limit(1);
    if (live) return null;
  }
  const { values } = effectiveStoreValues(row, origin);
  if (!values.active) return null;
  return {
    snapshot: {
      id,
      name: values.name,
      minimum_temperature: values.minimum_temperature,
      maximum_temperature: values.maximum_temperature,
      maximum_polarity: values.maximum_polarity,
      reheating_temperature: values.reheating_temperature,
      cooling_temperature: values.cooling_temperature,
    },
    traceability_module_active: values.traceability_module_active,
    temperature_control_module_active: values.temperature_control_module_active,
    cooling_duration: values.cooling_duration,
    reheating_duration: values.reheating_duration,
  };
}
