/** Business constants of the catalogue (spec 001 §3.2–3.5, §5, §9). */

/** The 14 allergens and their letters (spec 001 §3.5), in the spec's order. */
export const allergens = [
  { key: 'glutenGrains', letter: 'A' },
  { key: 'crustaceans', letter: 'B' },
  { key: 'egg', letter: 'C' },
  { key: 'fish', letter: 'D' },
  { key: 'peanut', letter: 'E' },
  { key: 'soy', letter: 'F' },
  { key: 'milkOrLactose', letter: 'G' },
  { key: 'edibleNuts', letter: 'H' },
  { key: 'celery', letter: 'L' },
  { key: 'mustard', letter: 'M' },
  { key: 'sesame', letter: 'N' },
  { key: 'sulphites', letter: 'O' },
  { key: 'lupines', letter: 'P' },
  { key: 'molluscs', letter: 'R' },
] as const;
export type AllergenKey = (typeof allergens)[number]['key'];
export const allergenKeys = allergens.map((allergen) => allergen.key) as [
  AllergenKey,
  ...AllergenKey[],
];

/** Label types (spec 001 §3.4). */
export const labelTypes = [
  'expiration',
  'defrosting',
  'name',
  'customer_expiration',
  'hourless_expiration',
  'freeform_expiration',
  'opening',
  'frozen',
  'expiration_editable',
  'defrosting_editable',
] as const;
export type LabelType = (typeof labelTypes)[number];

/** Freeform label text: fewer than 5 lines and at most 200 characters (spec 001 §9). */
export const freeformMaxLinesExclusive = 5;
export const freeformMaxCharacters = 200;
/** Database lists show the first 30 characters of a freeform text, then '...'. */
export const freeformPreviewLength = 30;

/** Element defaults (spec 001 §3.2, §9). */
export const elementDefaults = {
  maximum_polarity: 25,
  reheating_temperature: 63,
  reheating_duration: 60,
  cooling_temperature: 10,
  cooling_duration: 120,
} as const;

/** Suffix of duplicated names (spec 001 §9). */
export const copySuffix = ' (Copy)';

/** Stock image search debounce (spec 001 §9). */
export const stockImageSearchDebounceMs = 500;
/** Toast duration of a save error (spec 001 §8). */
export const saveErrorToastMs = 3000;

/**
 * Bounds the server enforces (the spec only gives the number picker's default of
 * ±999999999999999; see docs/decisions.md).
 */
export const temperatureRange = { min: -273, max: 1000 } as const;
export const polarityRange = { min: 0, max: 100 } as const;
/** Minutes (reheating and cooling durations). */
export const durationRange = { min: 0, max: 100_000 } as const;
/** Label durations, in hours. */
export const labelHoursRange = { min: 0, max: 24 * 3650 } as const;

/** Elements' data fields, in the order of spec 001 §3.2. */
export const elementFieldKeys = [
  'name',
  'type_id',
  'active',
  'illustration_url',
  'allergens',
  'allergen_illustration_url',
  'minimum_temperature',
  'maximum_temperature',
  'temperature_delivery_item',
  'temperature_require_picture',
  'temperature_picture',
  'maximum_polarity',
  'oils_require_picture',
  'reheating_temperature',
  'reheating_duration',
  'cooling_temperature',
  'cooling_duration',
  'temperatures_module_active',
  'labels_module_active',
  'traceability_module_active',
  'oils_module_active',
  'temperature_control_module_active',
  'encyclopedia_extension_active',
  'mise_display_active',
] as const;
export type ElementFieldKey = (typeof elementFieldKeys)[number];

/**
 * Lock flags of a database element: one per data field (name_lock, type_lock, ...) plus the
 * element's labels and attachments (labels_lock, attachments_lock). All default to locked
 * ("defaults are mostly true"; docs/decisions.md).
 */
export const elementLockKeys = [...elementFieldKeys, 'labels', 'attachments'] as const;
export type ElementLockKey = (typeof elementLockKeys)[number];
export const defaultElementLocks: Record<ElementLockKey, boolean> = Object.fromEntries(
  elementLockKeys.map((key) => [key, true]),
) as Record<ElementLockKey, boolean>;

/** Module tabs of the element screen and the module key that hides each (spec 001 §2.5). */
export const elementModuleTabs = [
  { tab: 'temperatures', module: 'temperatures', activeField: 'temperatures_module_active' },
  { tab: 'labels', module: 'labels', activeField: 'labels_module_active' },
  { tab: 'traceability', module: 'traceability', activeField: 'traceability_module_active' },
  { tab: 'oils', module: 'oils', activeField: 'oils_module_active' },
  {
    tab: 'temperature_control',
    module: 'temperature_control',
    activeField: 'temperature_control_module_active',
  },
  { tab: 'encyclopedia', module: 'encyclopedia', activeField: 'encyclopedia_extension_active' },
  { tab: 'recipe', module: null, activeField: 'mise_display_active' },
] as const;

/** Store element list tabs (spec 001 §2.5). */
export const storeElementTabs = ['temperature', 'delivery', 'probes'] as const;
export type StoreElementTab = (typeof storeElementTabs)[number];

/** Encyclopedia attachments (spec 001 §3.8). */
export const attachmentTypes = ['image', 'video', 'pdf'] as const;
export type AttachmentType = (typeof attachmentTypes)[number];
export const attachmentContentTypes: Record<string, { type: AttachmentType; extension: string }> = {
  'image/png': { type: 'image', extension: 'png' },
  'image/jpeg': { type: 'image', extension: 'jpg' },
  'image/webp': { type: 'image', extension: 'webp' },
  'image/gif': { type: 'image', extension: 'gif' },
  'video/mp4': { type: 'video', extension: 'mp4' },
  'video/webm': { type: 'video', extension: 'webm' },
  'video/quicktime': { type: 'video', extension: 'mov' },
  'application/pdf': { type: 'pdf', extension: 'pdf' },
};
/** Largest encyclopedia attachment accepted through a plain upload (docs/decisions.md). */
export const maxAttachmentBytes = 200 * 1024 * 1024;
export const attachmentNameMaxLength = 120;

/** GET /api/pdf/allergens: at most this many elements in one PDF (400 beyond). */
export const allergensPdfMaxElements = 2000;
/** GET /api/pdf/allergens: requests per minute and client. */
export const allergensPdfPerMinute = 10;
