import { describe, expect, it } from 'vitest';
import { databaseElements } from '../../db/schema';
import { demoEmails, demoPassword, seedDemo } from '../../db/seed/demo';
import { signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

describe('demo catalogue', () => {
  it('gives the element and allergen screens content, once', async () => {
    expect((await seedDemo(context.db)).isCreated).toBe(true);
    expect((await seedDemo(context.db)).isCreated).toBe(false);
    expect(await context.db.select().from(databaseElements)).toHaveLength(9);

    const customer = await signIn(context.app, demoEmails.customer, demoPassword);
    const stores = await customer.inject({ method: 'GET', url: '/api/stores?search=Paris' });
    const paris = stores.json().items[0];
    const list = await customer.inject({ method: 'GET', url: `/api/stores/${paris.id}/elements` });
    const items = list.json().items as { name: string; is_remote: boolean; id: string | null }[];
    expect(items).toHaveLength(8);
    const cold = items.find((item) => item.name === 'Chambre froide positive')!;
    expect(cold.is_remote).toBe(true);
    const detail = await customer.inject({ method: 'GET', url: `/api/storeElements/${cold.id}` });
    expect(detail.json().element).toMatchObject({ minimum_temperature: 1, maximum_temperature: 4 });
    expect(detail.json().element.field_states.maximum_temperature).toBe('locked');

    const allergens = await customer.inject({
      method: 'GET',
      url: `/api/allergens?storeId=${paris.id}`,
    });
    expect(
      allergens.json().groups.map((group: { type_name: string | null }) => group.type_name),
    ).toEqual(['Desserts', 'Produits laitiers', 'Viandes']);
  });
});
