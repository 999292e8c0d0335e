import pg from 'pg';

/**
 * A large catalogue for the catalogue benchmark, written with multi-row INSERTs (1 000 rows a
 * statement, RETURNING the ids the next tables need), under the demo distributor so its
 * account sees it:
 *
 * - one database of `elements` elements (default 2 000): 20 element types, 0–3 allergens
 *   (a quarter have none), a temperature range on one in three, 3 labels each; the locks
 *   leave the minimum and maximum temperatures and the labels open to stores;
 * - `stores` stores on it (default 100), each overriding `overrides` database elements
 *   (default 200: a probe, a minimum of 1 °C on cold elements, and one of the three labels
 *   overridden), and `ownElements` elements of its own (default 20, with a store type and
 *   3 labels each).
 */
export type CatalogueOptions = {
  elements: number;
  stores: number;
  overrides: number;
  ownElements: number;
};

export type CatalogueData = {
  databaseId: string;
  storeIds: string[];
  /** An overridden element of the first store (its origin has labels). */
  overrideId: string;
  /** An element of the first store's own. */
  ownElementId: string;
  rows: Record<string, number>;
};

const foods = [
  'Saumon',
  'Crème',
  'Poulet',
  'Bœuf',
  'Tarte',
  'Salade',
  'Fromage',
  'Jambon',
  'Mousse',
  'Pâte',
  'Sauce',
  'Soupe',
  'Gâteau',
  'Yaourt',
  'Beurre',
  'Œuf',
  'Crevette',
  'Légume',
  'Pain',
  'Huile',
];
const allergenCycle = [
  'glutenGrains',
  'crustaceans',
  'egg',
  'fish',
  'peanut',
  'soy',
  'milkOrLactose',
  'edibleNuts',
  'celery',
  'mustard',
  'sesame',
  'sulphites',
  'lupines',
  'molluscs',
];

/** Element locks: everything locked (the default) except the temperatures and the labels. */
const lockKeys = [
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
  'labels',
  'attachments',
];
const open = new Set(['minimum_temperature', 'maximum_temperature', 'labels']);
const locks = JSON.stringify(Object.fromEntries(lockKeys.map((key) => [key, !open.has(key)])));

const labelColumns = [
  'index',
  'active',
  'name',
  'type',
  'expiration_duration',
  'defrosting_duration',
  'expiration_text',
  'cumulate_expiration_duration',
  'show_expiration_hour',
  'show_expiration_weekday',
];
/** Three labels: a use-by date, an opening date, a defrosting one. */
const threeLabels = (prefix: string): unknown[][] => [
  [0, true, `${prefix} DLC`, 'expiration', 72, 0, null, false, true, false],
  [1, true, `${prefix} ouverture`, 'opening', 24, 0, null, false, true, false],
  [2, true, `${prefix} décongélation`, 'defrosting', 48, 24, null, true, false, false],
];

const allergensOf = (index: number) =>
  Array.from({ length: index % 4 }, (_, k) => allergenCycle[(index * 3 + k * 5) % 14]!);

/** Multi-row INSERTs of `rows`, `chunk` rows a statement; answers the RETURNING rows. */
export async function insertRows<T = Record<string, unknown>>(
  client: pg.Client,
  table: string,
  columns: string[],
  rows: unknown[][],
  returning = '',
  chunk = 1000,
): Promise<T[]> {
  const returned: T[] = [];
  const quoted = columns.map((column) => `"${column}"`).join(', ');
  for (let offset = 0; offset < rows.length; offset += chunk) {
    const slice = rows.slice(offset, offset + chunk);
    const placeholders = slice
      .map(
        (_, row) =>
          `(${columns.map((__, column) => `$${row * columns.length + column + 1}`).join(', ')})`,
      )
      .join(', ');
    const result = await client.query(
      `INSERT INTO ${table} (${quoted}) VALUES ${placeholders}${returning ? ` RETURNING ${returning}` : ''}`,
      slice.flat(),
    );
    returned.push(...(result.rows as T[]));
  }
  return returned;
}

export async function addCatalogueScaleData(
  url: string,
  options: CatalogueOptions,
): Promise<CatalogueData> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const distributor = await client.query<{ id: string }>(
      "SELECT id FROM distributors WHERE name = 'Mise Distribution France'",
    );
    const distributorId = distributor.rows[0]?.id;
    if (!distributorId) throw new Error('demo organisation missing');
    await client.query('BEGIN');
    const database = await client.query<{ id: string }>(
      `INSERT INTO databases (name, distributor_id) VALUES ('Bench Catalogue', $1) RETURNING id`,
      [distributorId],
    );
    const databaseId = database.rows[0]!.id;

    const types = await insertRows<{ id: string }>(
      client,
      'element_types',
      ['database_id', 'name'],
      foods.map((food) => [databaseId, `Type ${food}`]),
      'id',
    );

    // Database elements, named "<food> <n>" so a search on a food matches 1 in 20.
    const elementRows = Array.from({ length: options.elements }, (_, index) => {
      const isCold = index % 3 === 0;
      return [
        databaseId,
        `${foods[index % foods.length]} ${String(index + 1).padStart(4, '0')}`,
        types[index % types.length]!.id,
        allergensOf(index),
        isCold ? 0 : null,
        isCold ? 4 : null,
        index % 7 === 0,
        true,
        locks,
      ];
    });
    const elements = await insertRows<{ id: string; name: string }>(
      client,
      'database_elements',
      [
        'database_id',
        'name',
        'type_id',
        'allergens',
        'minimum_temperature',
        'maximum_temperature',
        'temperature_delivery_item',
        'labels_module_active',
        'locks',
      ],
      elementRows,
      'id',
    );
    const databaseLabels = await insertRows<{
      id: string;
      database_element_id: string;
      index: number;
    }>(
      client,
      'element_labels',
      ['database_id', 'database_element_id', ...labelColumns],
      elements.flatMap((element, index) =>
        threeLabels(`Étiquette ${index + 1}`).map((label) => [databaseId, element.id, ...label]),
      ),
      'id, database_element_id, index',
    );
    const firstLabelOf = new Map(
      databaseLabels
        .filter((label) => label.index === 0)
        .map((label) => [label.database_element_id, label.id]),
    );

    const stores = await insertRows<{ id: string }>(
      client,
      'stores',
      ['name', 'address', 'postal_code', 'city', 'distributor_id', 'database_id', 'mise_licence'],
      Array.from({ length: options.stores }, (_, index) => [
        `Catalogue store ${index + 1}`,
        `${index + 1} rue des Halles`,
        '69001',
        'Lyon',
        distributorId,
        databaseId,
        true,
      ]),
      'id',
    );
    const storeIds = stores.map((store) => store.id);
    const storeTypes = await insertRows<{ id: string }>(
      client,
      'element_types',
      ['store_id', 'name'],
      storeIds.map((storeId) => [storeId, 'Maison']),
      'id',
    );

    // Overrides: store k overrides `overrides` elements spread over the catalogue.
    const step = Math.max(1, Math.floor(options.elements / options.overrides));
    const overrideRows = storeIds.flatMap((storeId, store) =>
      Array.from({ length: Math.min(options.overrides, options.elements) }, (_, n) => {
        const index = (n * step + store) % options.elements;
        return [storeId, elements[index]!.id, `probe-${store}-${n}`, index % 3 === 0 ? 1 : null];
      }),
    );
    const overrides = await insertRows<{ id: string; store_id: string; origin_id: string }>(
      client,
      'store_elements',
      ['store_id', 'origin_id', 'probe_id', 'minimum_temperature'],
      overrideRows,
      'id, store_id, origin_id',
    );
    // One label override each (the use-by date: 48 h instead of 72, the rest inherited).
    await insertRows(
      client,
      'element_labels',
      ['store_id', 'store_element_id', 'origin_id', 'index', 'expiration_duration'],
      overrides.map((row) => [row.store_id, row.id, firstLabelOf.get(row.origin_id)!, 0, 48]),
    );

    const ownRows = storeIds.flatMap((storeId, store) =>
      Array.from({ length: options.ownElements }, (_, n) => [
        storeId,
        `Spécialité maison ${foods[n % foods.length]} ${n + 1}`,
        storeTypes[store]!.id,
        true,
        allergensOf(n + 1).length ? allergensOf(n + 1) : ['egg'],
        n % 2 === 0 ? 0 : null,
        n % 2 === 0 ? 3 : null,
      ]),
    );
    const own = await insertRows<{ id: string; store_id: string }>(
      client,
      'store_elements',
      [
        'store_id',
        'name',
        'type_id',
        'active',
        'allergens',
        'minimum_temperature',
        'maximum_temperature',
      ],
      ownRows,
      'id, store_id',
    );
    await insertRows(
      client,
      'element_labels',
      ['store_id', 'store_element_id', ...labelColumns],
      own.flatMap((row, index) =>
        threeLabels(`Maison ${index + 1}`).map((label) => [row.store_id, row.id, ...label]),
      ),
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');

    const counts = await client.query<{ table: string; rows: string }>(
      `SELECT 'database_elements' AS table, count(*) AS rows FROM database_elements WHERE database_id = $1
       UNION ALL SELECT 'store_elements', count(*) FROM store_elements s JOIN stores t ON t.id = s.store_id WHERE t.database_id = $1
       UNION ALL SELECT 'element_labels', count(*) FROM element_labels l
         LEFT JOIN stores t ON t.id = l.store_id WHERE l.database_id = $1 OR t.database_id = $1
       UNION ALL SELECT 'element_types', count(*) FROM element_types y
         LEFT JOIN stores t ON t.id = y.store_id WHERE y.database_id = $1 OR t.database_id = $1`,
      [databaseId],
    );
    const firstStore = storeIds[0]!;
    return {
      databaseId,
      storeIds,
      overrideId: overrides.find((row) => row.store_id === firstStore)!.id,
      ownElementId: own.find((row) => row.store_id === firstStore)!.id,
      rows: Object.fromEntries(counts.rows.map((row) => [row.table, Number(row.rows)])),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
