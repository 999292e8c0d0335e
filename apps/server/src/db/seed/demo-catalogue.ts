import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import type { Database } from '../client';
import { databaseElements, elementLabels, elementTypes, storeElements } from '../schema';

type Executor = Pick<Database, 'insert'>;

const label = (
  name: string,
  values: Partial<typeof elementLabels.$inferInsert> = {},
): Omit<typeof elementLabels.$inferInsert, 'database_element_id' | 'database_id'> => ({
  active: true,
  name,
  type: 'expiration',
  expiration_duration: 72,
  defrosting_duration: 0,
  expiration_text: null,
  cumulate_expiration_duration: false,
  show_expiration_hour: true,
  show_expiration_weekday: false,
  ...values,
});

/**
 * The demo catalogue of the demo database (spec 001 §2.5, §2.8): element types, elements with
 * allergens, temperatures and labels, and one store override (Paris keeps its cold room at
 * 1 °C minimum, a field the database leaves open).
 */
export async function seedDemoCatalogue(
  tx: Executor,
  databaseId: string,
  storeId: string,
): Promise<void> {
  const [cold, meat, dairy, desserts] = await tx
    .insert(elementTypes)
    .values(
      ['Chambres froides', 'Viandes', 'Produits laitiers', 'Desserts'].map((name) => ({
        database_id: databaseId,
        name,
      })),
    )
    .returning();
  const openMinimum = { ...defaultElementLocks, minimum_temperature: false, labels: false };
  const elements = await tx
    .insert(databaseElements)
    .values([
      {
        database_id: databaseId,
        name: 'Chambre froide positive',
        type_id: cold!.id,
        minimum_temperature: 0,
        maximum_temperature: 4,
        locks: openMinimum,
      },
      {
        database_id: databaseId,
        name: 'Congélateur',
        type_id: cold!.id,
        minimum_temperature: -25,
        maximum_temperature: -18,
      },
      {
        database_id: databaseId,
        name: 'Steak haché',
        type_id: meat!.id,
        minimum_temperature: 0,
        maximum_temperature: 2,
        temperature_delivery_item: true,
        labels_module_active: true,
        temperature_control_module_active: true,
        traceability_module_active: true,
      },
      {
        database_id: databaseId,
        name: 'Poulet rôti',
        type_id: meat!.id,
        allergens: ['mustard'],
        labels_module_active: true,
        temperature_control_module_active: true,
        encyclopedia_extension_active: true,
      },
      {
        database_id: databaseId,
        name: 'Crème fraîche',
        type_id: dairy!.id,
        allergens: ['milkOrLactose'],
        minimum_temperature: 0,
        maximum_temperature: 4,
        temperature_delivery_item: true,
        labels_module_active: true,
        traceability_module_active: true,
      },
      {
        database_id: databaseId,
        name: 'Tarte aux noix',
        type_id: desserts!.id,
        allergens: ['glutenGrains', 'egg', 'milkOrLactose', 'edibleNuts'],
        labels_module_active: true,
        mise_display_active: true,
        encyclopedia_extension_active: true,
      },
      {
        database_id: databaseId,
        name: 'Mousse au chocolat',
        type_id: desserts!.id,
        allergens: ['egg', 'milkOrLactose', 'soy'],
        minimum_temperature: 0,
        maximum_temperature: 3,
        labels_module_active: true,
      },
      {
        database_id: databaseId,
        name: 'Huile de friture',
        allergens: [],
        oils_module_active: true,
        temperatures_module_active: false,
        maximum_polarity: 25,
      },
      {
        database_id: databaseId,
        name: 'Saumon fumé',
        allergens: ['fish', 'sulphites'],
        minimum_temperature: 0,
        maximum_temperature: 4,
        active: false,
      },
    ])
    .returning();
  const byName = new Map(elements.map((element) => [element.name, element]));
  const labelled: [string, ReturnType<typeof label>[]][] = [
    ['Steak haché', [label('DLC ouverture', { type: 'opening', expiration_duration: 24 })]],
    [
      'Poulet rôti',
      [
        label('Consommer avant', { expiration_duration: 72 }),
        label('Décongélation', {
          type: 'defrosting',
          defrosting_duration: 24,
          expiration_duration: 48,
          cumulate_expiration_duration: true,
          show_expiration_hour: false,
        }),
      ],
    ],
    ['Crème fraîche', [label('Après ouverture', { type: 'opening', expiration_duration: 72 })]],
    [
      'Tarte aux noix',
      [
        label('Vitrine', {
          type: 'freeform_expiration',
          expiration_text: 'Contient des fruits à coque.\nÀ consommer dans la journée.',
          show_expiration_hour: false,
        }),
      ],
    ],
    ['Mousse au chocolat', [label('DLC', { expiration_duration: 48 })]],
  ];
  await tx.insert(elementLabels).values(
    labelled.flatMap(([name, labels]) =>
      labels.map((values, index) => ({
        ...values,
        index,
        database_id: databaseId,
        database_element_id: byName.get(name)!.id,
      })),
    ),
  );
  await tx.insert(storeElements).values({
    store_id: storeId,
    origin_id: byName.get('Chambre froide positive')!.id,
    minimum_temperature: 1,
  });
}
