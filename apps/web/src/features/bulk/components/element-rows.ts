import {
  type BulkElementRow,
  type BulkElementWrite,
  expandLocksAndStates,
} from '@mise/shared/catalogue/bulk';
import type { BulkLevel, BulkWrite } from '@mise/shared/catalogue/bulk-rules';
import {
  elementDefaults,
  elementLockKeys,
  polarityRange,
  temperatureRange,
} from '@mise/shared/catalogue/constants';
import type { FieldState } from '@mise/shared/catalogue/rules';
import { normalizeDuration, validateElement } from '@mise/shared/catalogue/rules';
import { type ElementValues, elementInputSchema } from '@mise/shared/catalogue/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import type { TFunction } from 'i18next';
import type { BulkColumn, SelectOption } from './bulk-columns';
import type { GridRow, RowIssue } from './bulk-row';

/** An element's values as the grid edits them (images are set on the single screen only). */
export type ElementGridValues = Omit<
  ElementValues,
  'illustration_url' | 'allergen_illustration_url'
>;

/** What an element row shows beside its values. */
export type ElementRowInfo = {
  type_name: string | null;
  label_count: number;
  attachment_count: number;
};

export type ElementGridRow = GridRow<ElementGridValues, ElementRowInfo>;

/**
 * Locks and states made whole, shared by every row that has the same ones (most rows of a
 * grid): 2,000 rows make a handful of these objects instead of 4,000. Never changed in place
 * (the grid's edits copy them), frozen to keep it so.
 */
const sharedFlags = new Map<string, Pick<ElementGridRow, 'locks' | 'states'>>();

function flagsOf(row: BulkElementRow): Pick<ElementGridRow, 'locks' | 'states'> {
  const isShareable = Object.keys(row.states).length === 0;
  const signature = `${row.origin_id === null ? 'own' : 'origin'}:${row.unlocked.join(',')}`;
  const known = isShareable ? sharedFlags.get(signature) : undefined;
  if (known) return known;
  const expanded = expandLocksAndStates(elementLockKeys, row);
  const flags = { locks: Object.freeze(expanded.locks), states: Object.freeze(expanded.states) };
  if (isShareable) sharedFlags.set(signature, flags);
  return flags;
}

/** A grid row of an element read from the API. */
export function elementGridRow(row: BulkElementRow): ElementGridRow {
  const values: ElementGridValues = {
    name: row.name,
    type_id: row.type_id,
    active: row.active,
    allergens: row.allergens,
    minimum_temperature: row.minimum_temperature,
    maximum_temperature: row.maximum_temperature,
    temperature_delivery_item: row.temperature_delivery_item,
    temperature_require_picture: row.temperature_require_picture,
    temperature_picture: row.temperature_picture,
    maximum_polarity: row.maximum_polarity,
    oils_require_picture: row.oils_require_picture,
    reheating_temperature: row.reheating_temperature,
    reheating_duration: row.reheating_duration,
    cooling_temperature: row.cooling_temperature,
    cooling_duration: row.cooling_duration,
    temperatures_module_active: row.temperatures_module_active,
    labels_module_active: row.labels_module_active,
    traceability_module_active: row.traceability_module_active,
    oils_module_active: row.oils_module_active,
    temperature_control_module_active: row.temperature_control_module_active,
    encyclopedia_extension_active: row.encyclopedia_extension_active,
    mise_display_active: row.mise_display_active,
  };
  const { locks, states } = flagsOf(row);
  return {
    key: row.key,
    id: row.id,
    origin_id: row.origin_id,
    version: row.id === null ? null : row.version,
    values,
    locks,
    states,
    info: {
      type_name: row.type_name,
      label_count: row.label_count,
      attachment_count: row.attachment_count,
    },
  };
}

/** A new element added on the grid: the single screen's defaults, locked at database level. */
export function newElementGridRow(
  key: string,
  input: { name: string; type_id: string | null },
  level: BulkLevel,
): ElementGridRow {
  const values: ElementGridValues = {
    name: input.name,
    type_id: input.type_id,
    active: true,
    allergens: [],
    minimum_temperature: null,
    maximum_temperature: null,
    temperature_delivery_item: false,
    temperature_require_picture: false,
    temperature_picture: false,
    maximum_polarity: elementDefaults.maximum_polarity,
    oils_require_picture: false,
    reheating_temperature: elementDefaults.reheating_temperature,
    reheating_duration: elementDefaults.reheating_duration,
    cooling_temperature: elementDefaults.cooling_temperature,
    cooling_duration: elementDefaults.cooling_duration,
    temperatures_module_active: true,
    labels_module_active: false,
    traceability_module_active: false,
    oils_module_active: false,
    temperature_control_module_active: false,
    encyclopedia_extension_active: false,
    mise_display_active: false,
  };
  return {
    key,
    id: null,
    origin_id: null,
    version: null,
    values,
    locks: Object.fromEntries(elementLockKeys.map((lock) => [lock, level === 'database'])),
    states: Object.fromEntries(elementLockKeys.map((lock) => [lock, 'own' as FieldState])),
    info: { type_name: null, label_count: 0, attachment_count: 0 },
  };
}

/** A write of the shared rules as the element bulk save takes it. */
export function elementWrite(write: BulkWrite, level: BulkLevel): BulkElementWrite {
  const values: Record<string, unknown> = { ...write.values };
  if (typeof values.name === 'string') values.name = values.name.trim();
  for (const key of ['reheating_duration', 'cooling_duration'] as const) {
    if (key in values) values[key] = normalizeDuration(values[key] as number | null);
  }
  return {
    key: write.key,
    id: write.id,
    ...(write.origin_id ? { origin_id: write.origin_id } : {}),
    ...(write.version !== undefined ? { version: write.version } : {}),
    values: values as BulkElementWrite['values'],
    ...(level === 'database' && write.locks ? { locks: write.locks } : {}),
  };
}

/* ---------- Columns (spec 001 §2.9) ---------- */

/** Element filter chips, in the spec's order, and the module that hides each. */
export const elementChips = [
  { name: 'general', module: null },
  { name: 'temperatures', module: 'temperatures' },
  { name: 'labels', module: 'labels' },
  { name: 'traceability', module: 'traceability' },
  { name: 'oils', module: 'oils' },
  { name: 'temperature_control', module: 'temperature_control' },
] as const satisfies readonly { name: string; module: ModuleKey | null }[];
export type ElementChip = (typeof elementChips)[number]['name'];

/** The single screen's rule for one value: its shared zod field schema. */
function fieldCheck(field: keyof typeof elementInputSchema.shape) {
  const schema = elementInputSchema.shape[field];
  return (value: unknown) => (schema.safeParse(value).success ? null : 'validation/invalid-input');
}

type ColumnContext = {
  t: TFunction;
  typeOptions: SelectOption[];
};

function booleanColumn(field: keyof ElementGridValues, label: string): BulkColumn {
  return { field, label, kind: 'boolean', width: 130, isLockable: true };
}

function temperatureColumn(field: keyof ElementGridValues, label: string): BulkColumn {
  return {
    field,
    label,
    kind: 'number',
    width: 150,
    range: temperatureRange,
    allowDecimal: true,
    suffix: ' °C',
    isLockable: true,
    check: fieldCheck(field as keyof typeof elementInputSchema.shape),
  };
}

/** The columns of each chip (the name column is always first). */
export function elementChipColumns(chip: ElementChip, context: ColumnContext): BulkColumn[] {
  const { t } = context;
  const label = (key: string) => t(`element.fields.${key}`);
  const moduleActive = (key: string) => t(`element.moduleActive.${key}`);
  switch (chip) {
    case 'general':
      return [
        {
          field: 'type_id',
          label: label('type_id'),
          kind: 'select',
          width: 200,
          options: context.typeOptions,
          emptyLabel: t('bulk.noType'),
          isLockable: true,
          format: (row) => {
            const typeId = (row.values as ElementGridValues).type_id;
            if (!typeId) return t('bulk.noType');
            return (
              context.typeOptions.find((option) => option.value === typeId)?.label ??
              (row.info as ElementRowInfo).type_name ??
              '…'
            );
          },
        },
        booleanColumn('active', t('common.active')),
      ];
    case 'temperatures':
      return [
        booleanColumn('temperatures_module_active', moduleActive('temperatures_module_active')),
        temperatureColumn('minimum_temperature', label('minimum_temperature')),
        temperatureColumn('maximum_temperature', label('maximum_temperature')),
      ];
    case 'labels':
      return [
        booleanColumn('labels_module_active', moduleActive('labels_module_active')),
        {
          field: 'label_count',
          label: t('bulk.columns.labelCount'),
          kind: 'summary',
          width: 130,
          isLockable: false,
          format: (row) => String((row.info as ElementRowInfo).label_count),
        },
      ];
    case 'traceability':
      return [
        booleanColumn('traceability_module_active', moduleActive('traceability_module_active')),
      ];
    case 'oils':
      return [
        booleanColumn('oils_module_active', moduleActive('oils_module_active')),
        {
          field: 'maximum_polarity',
          label: label('maximum_polarity'),
          kind: 'number',
          width: 150,
          range: polarityRange,
          allowDecimal: true,
          suffix: ' %',
          isLockable: true,
          check: fieldCheck('maximum_polarity'),
        },
      ];
    case 'temperature_control':
      return [
        booleanColumn(
          'temperature_control_module_active',
          moduleActive('temperature_control_module_active'),
        ),
        temperatureColumn('reheating_temperature', label('reheating_temperature')),
        temperatureColumn('cooling_temperature', label('cooling_temperature')),
      ];
  }
}

/** The name column, first of every chip. */
export function elementNameColumn(t: TFunction): BulkColumn {
  return {
    field: 'name',
    label: t('element.fields.name'),
    kind: 'text',
    width: 220,
    maxLength: 120,
    isLockable: true,
    check: fieldCheck('name'),
  };
}

/* ---------- Row checks (the single screen's, spec 001 §5) ---------- */

/**
 * The element screen's checks on a row: minimum not above maximum (both cells), a valid name,
 * at store level a type (unless the database locks it), then each value's field rule.
 */
export function elementRowIssues(row: ElementGridRow, level: BulkLevel): RowIssue[] {
  const values = row.values;
  const isTypeRequired = level === 'store' && row.states.type_id !== 'locked';
  const error = validateElement(values, isTypeRequired ? 'store' : 'database');
  const issues: RowIssue[] = [];
  if (error === 'invalid-temperature-input') {
    issues.push({ field: 'minimum_temperature', code: error });
    issues.push({ field: 'maximum_temperature', code: error });
  } else if (error === 'element/invalid-name') {
    issues.push({ field: 'name', code: error });
  } else if (error === 'element/select-type') {
    issues.push({ field: 'type_id', code: error });
  }
  const fields = [
    'name',
    'minimum_temperature',
    'maximum_temperature',
    'maximum_polarity',
    'reheating_temperature',
    'cooling_temperature',
  ] as const;
  for (const field of fields) {
    if (issues.some((issue) => issue.field === field)) continue;
    const code = fieldCheck(field)(values[field]);
    if (code) issues.push({ field, code });
  }
  return issues;
}
