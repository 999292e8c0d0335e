import { randomUUID } from 'node:crypto';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseElements, elementLabels, storeElements, stores } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildElementType,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { readPdf } from '../../test/read-pdf';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributor: Agent;
let manager: Agent;
let customer: Agent;

const databaseA = () => tenants.a.database.id;
const storeA1 = () => tenants.a.stores[0]!.id;

async function databaseRow(id: string) {
  const [row] = await context.db.select().from(databaseElements).where(eq(databaseElements.id, id));
  return row!;
}
async function storeRow(id: string) {
  const [row] = await context.db.select().from(storeElements).where(eq(storeElements.id, id));
  return row!;
}
async function labelRows(column: 'database_element_id' | 'store_element_id', id: string) {
  return context.db.select().from(elementLabels).where(eq(elementLabels[column], id));
}

const label = (name: string, values: Record<string, unknown> = {}) => ({
  active: true,
  name,
  type: 'expiration',
  expiration_duration: 48,
  defrosting_duration: 0,
  expiration_text: null,
  cumulate_expiration_duration: false,
  show_expiration_hour: true,
  show_expiration_weekday: false,
  ...values,
});

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

describe('inheritance database -> store', () => {
  it('locks, overrides and follows the database end to end', async () => {
    const type = await buildElementType(context.db, { database_id: databaseA(), name: 'Froid' });
    const created = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/elements`,
      payload: {
        name: 'Chambre froide',
        type_id: type.id,
        minimum_temperature: 0,
        maximum_temperature: 4,
        locks: { minimum_temperature: false, cooling_temperature: false, name: false },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const element = created.json().element;
    expect(element).toMatchObject({
      level: 'database',
      name: 'Chambre froide',
      type_name: 'Froid',
      maximum_polarity: 25,
      reheating_temperature: 63,
      reheating_duration: 60,
      cooling_temperature: 10,
      cooling_duration: 120,
      active: true,
      editable: true,
      version: 0,
    });
    expect(element.locks.maximum_temperature).toBe(true);
    expect(element.locks.minimum_temperature).toBe(false);

    // The store sees the database element before overriding it.
    const before = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA1()}/elements/origin/${element.id}`,
    });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().element).toMatchObject({
      id: null,
      is_remote: false,
      origin_id: element.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      editable: true,
    });
    expect(before.json().element.field_states.maximum_temperature).toBe('locked');
    expect(before.json().element.field_states.minimum_temperature).toBe('inherited');

    // The store overrides the unlocked minimum.
    const override = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: element.id, minimum_temperature: 1 },
    });
    expect(override.statusCode, override.body).toBe(200);
    const storeElement = override.json().element;
    expect(storeElement).toMatchObject({
      level: 'store',
      is_remote: true,
      origin_id: element.id,
      minimum_temperature: 1,
      maximum_temperature: 4,
      type_name: 'Froid',
    });
    expect(storeElement.field_states.minimum_temperature).toBe('overridden');
    expect(storeElement.field_states.maximum_temperature).toBe('locked');
    expect(storeElement.locks.maximum_temperature).toBe(true);

    // The database changes the locked maximum and unlocked fields: the store follows at once
    // where it has not overridden.
    const patched = await distributor.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: {
        version: 0,
        maximum_temperature: 5,
        minimum_temperature: 0.5,
        cooling_temperature: 8,
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().element.version).toBe(1);
    const after = await customer.inject({
      method: 'GET',
      url: `/api/storeElements/${storeElement.id}`,
    });
    expect(after.json().element).toMatchObject({
      minimum_temperature: 1,
      maximum_temperature: 5,
      cooling_temperature: 8,
    });
    expect(after.json().element.field_states.cooling_temperature).toBe('inherited');

    // A locked field from the store: 403, nothing written.
    const locked = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${storeElement.id}`,
      payload: { version: storeElement.version, maximum_temperature: 10, minimum_temperature: 2 },
    });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.code).toBe('element/field-locked');
    const untouched = await storeRow(storeElement.id);
    expect(untouched.maximum_temperature).toBeNull();
    expect(untouched.minimum_temperature).toBe(1);
    expect(untouched.version).toBe(storeElement.version);

    // The origin view now answers the store's row; a second override is refused.
    const originView = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA1()}/elements/origin/${element.id}`,
    });
    expect(originView.json().element.id).toBe(storeElement.id);
    const second = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: element.id, cooling_temperature: 3 },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('element/already-overridden');

    // Null gives the field back to the origin.
    const reverted = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${storeElement.id}`,
      payload: { version: storeElement.version, minimum_temperature: null },
    });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(reverted.json().element.minimum_temperature).toBe(0.5);
    expect(reverted.json().element.field_states.minimum_temperature).toBe('inherited');
  });

  it('refuses an origin of another database and locked fields at creation', async () => {
    const foreign = await buildDatabaseElement(context.db, { database_id: tenants.b.database.id });
    const response = await admin.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: foreign.id },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('element/unknown-origin');

    const origin = await buildDatabaseElement(context.db, { database_id: databaseA() });
    const locked = await admin.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: origin.id, name: 'Renamed' },
    });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.code).toBe('element/field-locked');
    const rows = await context.db
      .select()
      .from(storeElements)
      .where(eq(storeElements.origin_id, origin.id));
    expect(rows).toHaveLength(0);
  });

  it('lists the store: merged, sorted by name, overridden origins once, with filters', async () => {
    // A dedicated database and store keep this list independent of the other tests.
    const ownDatabase = await buildDatabase(context.db, {
      distributor_id: tenants.a.distributor.id,
    });
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: ownDatabase.id,
    });
    const type = await buildElementType(context.db, { database_id: ownDatabase.id, name: 'Sec' });
    const storeType = await buildElementType(context.db, { store_id: store.id, name: 'Maison' });
    const beurre = await buildDatabaseElement(context.db, {
      database_id: ownDatabase.id,
      name: 'Beurre',
      type_id: type.id,
      temperature_delivery_item: true,
      locks: { ...defaultElementLocks, name: false },
    });
    await buildDatabaseElement(context.db, {
      database_id: ownDatabase.id,
      name: 'ail',
      active: false,
    });
    const carotte = await buildDatabaseElement(context.db, {
      database_id: ownDatabase.id,
      name: 'Carotte',
    });
    // The store renames Beurre (unlocked) to "Yaourt" and has an element of its own with a probe.
    const renamed = await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: beurre.id,
      name: 'Yaourt',
    });
    const zeste = await buildStoreElement(context.db, {
      store_id: store.id,
      name: 'Zeste',
      type_id: storeType.id,
      active: true,
      probe_id: 'probe-1',
      temperature_delivery_item: false,
    });

    const list = async (query = '') => {
      const response = await admin.inject({
        method: 'GET',
        url: `/api/stores/${store.id}/elements${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().items as {
        key: string;
        id: string | null;
        name: string;
        is_remote: boolean;
        type_name: string | null;
      }[];
    };
    const all = await list();
    expect(all.map((item) => item.name)).toEqual(['Carotte', 'Yaourt', 'Zeste']);
    expect(all.find((item) => item.name === 'Yaourt')).toMatchObject({
      id: renamed.id,
      is_remote: true,
      type_name: 'Sec',
    });
    expect(all.find((item) => item.name === 'Carotte')).toMatchObject({
      id: null,
      key: `origin:${carotte.id}`,
      is_remote: false,
    });
    expect(all.find((item) => item.name === 'Zeste')?.type_name).toBe('Maison');
    expect(all.filter((item) => item.key.endsWith(beurre.id))).toHaveLength(0);

    expect((await list('?includeInactive=true')).map((item) => item.name)).toEqual([
      'ail',
      'Carotte',
      'Yaourt',
      'Zeste',
    ]);
    expect((await list('?search=YAO')).map((item) => item.name)).toEqual(['Yaourt']);
    expect((await list('?search=beurre')).map((item) => item.name)).toEqual([]);
    expect((await list('?tab=delivery')).map((item) => item.name)).toEqual(['Yaourt']);
    expect((await list('?tab=temperature')).map((item) => item.name)).toEqual(['Carotte', 'Zeste']);
    expect((await list('?tab=probes')).map((item) => item.id)).toEqual([zeste.id]);

    const databaseList = await admin.inject({
      method: 'GET',
      url: `/api/databases/${ownDatabase.id}/elements?includeInactive=true&search=a`,
    });
    expect(databaseList.json().items.map((item: { name: string }) => item.name)).toEqual([
      'ail',
      'Carotte',
    ]);
  });
});

describe('hidden modules', () => {
  it("hides the database's modules on its elements, and the store's and database's on the store's", async () => {
    const database = await buildDatabase(context.db, {
      distributor_id: tenants.a.distributor.id,
      hidden_modules: ['traceability'],
    });
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: database.id,
      hidden_modules: ['oils'],
    });
    const element = await buildDatabaseElement(context.db, { database_id: database.id });
    const atDatabase = await admin.inject({
      method: 'GET',
      url: `/api/databaseElements/${element.id}`,
    });
    expect(atDatabase.json().element.hidden_modules).toEqual(['traceability']);
    const atStore = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/elements/origin/${element.id}`,
    });
    expect([...atStore.json().element.hidden_modules].sort()).toEqual(['oils', 'traceability']);
  });
});

describe('bad input answers a clear 4xx and writes nothing', () => {
  const countElements = async () =>
    (
      await context.db
        .select()
        .from(databaseElements)
        .where(eq(databaseElements.database_id, databaseA()))
    ).length;

  it('refuses invalid elements at creation', async () => {
    const before = await countElements();
    const typeOfB = await buildElementType(context.db, { database_id: tenants.b.database.id });
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { name: 'Frigo', minimum_temperature: 5, maximum_temperature: 2 },
        400,
        'invalid-temperature-input',
      ],
      [{ name: '   ' }, 400, 'element/invalid-name'],
      [{ name: 'Frigo', type_id: randomUUID() }, 400, 'element/unknown-type'],
      [{ name: 'Frigo', type_id: typeOfB.id }, 400, 'element/unknown-type'],
      [
        {
          name: 'Frigo',
          labels: [
            label('Libre', { type: 'freeform_expiration', expiration_text: 'a\nb\nc\nd\ne\nf' }),
          ],
        },
        400,
        'freeform-line-limit',
      ],
      [{ name: 'Frigo', labels: [label('  ')] }, 400, 'label/invalid-name'],
      [{ name: 'Frigo', colour: 'red' }, 400, 'validation/invalid-input'],
      [{ name: 'Frigo', active: null }, 400, 'validation/invalid-input'],
      [{ name: 'Frigo', temperature_delivery_item: null }, 400, 'validation/invalid-input'],
    ];
    for (const [payload, status, code] of cases) {
      const response = await admin.inject({
        method: 'POST',
        url: `/api/databases/${databaseA()}/elements`,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    expect(await countElements()).toBe(before);
  });

  it('refuses invalid updates without writing the element or its labels', async () => {
    const element = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Saumon',
      minimum_temperature: 0,
      maximum_temperature: 2,
    });
    const kept = await buildLabel(context.db, {
      database_id: databaseA(),
      database_element_id: element.id,
      name: 'DLC',
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ maximum_temperature: -1 }, 'invalid-temperature-input'],
      [{ name: '' }, 'element/invalid-name'],
      [{ labels: [label('Autre', { id: randomUUID() })] }, 'label/unknown-label'],
      [
        {
          name: 'Saumon fumé',
          labels: [
            label('Texte', {
              type: 'freeform_expiration',
              expiration_text: 'x'.repeat(201),
            }),
          ],
        },
        'freeform-line-limit',
      ],
      [{ probe_id: 'probe' }, 'validation/invalid-input'],
      [{ attachments: [{ id: randomUUID(), name: 'x' }] }, 'attachment/unknown-attachment'],
      [{ unknown_field: true }, 'validation/invalid-input'],
    ];
    for (const [payload, code] of cases) {
      const response = await admin.inject({
        method: 'PATCH',
        url: `/api/databaseElements/${element.id}`,
        payload: { version: 0, ...payload },
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const row = await databaseRow(element.id);
    expect(row).toMatchObject({ name: 'Saumon', maximum_temperature: 2, version: 0 });
    const labels = await labelRows('database_element_id', element.id);
    expect(labels.map((item) => item.id)).toEqual([kept.id]);
  });

  it('needs a type at store level and refuses locks there', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { name: 'Sans type' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('element/select-type');

    const storeType = await buildElementType(context.db, { store_id: storeA1(), name: 'Local' });
    const created = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { name: 'Avec type', type_id: storeType.id, reheating_duration: 0 },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().element).toMatchObject({
      origin_id: null,
      type_name: 'Local',
      reheating_duration: null,
      cooling_duration: 120,
      maximum_polarity: 25,
      active: true,
    });
    expect(created.json().element.field_states.name).toBe('own');
    const otherStoreType = await buildElementType(context.db, {
      store_id: tenants.a.stores[1]!.id,
    });
    const wrongType = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${created.json().element.id}`,
      payload: { version: 0, type_id: otherStoreType.id },
    });
    expect(wrongType.json().error.code).toBe('element/unknown-type');
    const withLocks = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${created.json().element.id}`,
      payload: { version: 0, locks: { name: false } },
    });
    expect(withLocks.statusCode).toBe(400);
    expect((await storeRow(created.json().element.id)).version).toBe(0);
  });
});

describe('reviewer fixes', () => {
  it('lets a store override a database element without a type when type_id is locked (S2)', async () => {
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Sans type en base',
      locks: { ...defaultElementLocks, minimum_temperature: false },
    });
    const created = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: origin.id, minimum_temperature: 3 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().element.id;
    const updated = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${id}`,
      payload: { version: created.json().element.version, minimum_temperature: 4 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    // Type not locked: the store must still choose one.
    const unlockedType = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Type libre',
      locks: { ...defaultElementLocks, type_id: false, minimum_temperature: false },
    });
    const refused = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { origin_id: unlockedType.id, minimum_temperature: 3 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('element/select-type');
  });

  it('normalises labels to their type, a store override equal after normalisation (S6)', async () => {
    const sixLines = 'a\nb\nc\nd\ne\nf';
    const created = await admin.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/elements`,
      payload: {
        name: 'Étiquettes normalisées',
        locks: { ...defaultElementLocks, labels: false },
        labels: [
          label('Décongélation', {
            type: 'defrosting',
            defrosting_duration: 12,
            expiration_text: sixLines,
            show_expiration_hour: true,
            show_expiration_weekday: true,
          }),
          label('Nom', {
            type: 'name',
            expiration_duration: 48,
            cumulate_expiration_duration: true,
          }),
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const rows = (await labelRows('database_element_id', created.json().element.id)).sort(
      (left, right) => left.index - right.index,
    );
    expect(rows[0]).toMatchObject({
      type: 'defrosting',
      defrosting_duration: 12,
      expiration_duration: 48,
      expiration_text: null,
      show_expiration_hour: false,
      show_expiration_weekday: false,
    });
    expect(rows[1]).toMatchObject({
      type: 'name',
      expiration_duration: 0,
      defrosting_duration: 0,
      cumulate_expiration_duration: false,
    });
    // A store sends the label back with the flags the dialog used to keep: no override written.
    const element = created.json().element;
    const override = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: {
        origin_id: element.id,
        labels: element.labels.map(
          (item: { origin_id: string | null; id: string }, position: number) => ({
            ...label(position === 0 ? 'Décongélation' : 'Nom', {
              type: position === 0 ? 'defrosting' : 'name',
              defrosting_duration: position === 0 ? 12 : 5,
              expiration_duration: 48,
              show_expiration_hour: true,
              expiration_text: position === 0 ? sixLines : null,
            }),
            origin_id: item.id,
          }),
        ),
      },
    });
    expect(override.statusCode, override.body).toBe(200);
    expect(await labelRows('store_element_id', override.json().element.id)).toEqual([]);
    expect(override.json().element.labels.map((item: { state: string }) => item.state)).toEqual([
      'inherited',
      'inherited',
    ]);
  });

  it('clears store temperature overrides a new database minimum or maximum makes incoherent (S7)', async () => {
    const type = await buildElementType(context.db, { database_id: databaseA() });
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      type_id: type.id,
      minimum_temperature: 0,
      maximum_temperature: 10,
      locks: { ...defaultElementLocks, minimum_temperature: false, maximum_temperature: false },
    });
    const high = await buildStoreElement(context.db, {
      store_id: storeA1(),
      origin_id: origin.id,
      minimum_temperature: 6,
    });
    const bothOwn = await buildStoreElement(context.db, {
      store_id: tenants.a.stores[1]!.id,
      origin_id: origin.id,
      minimum_temperature: 6,
      maximum_temperature: 9,
    });
    const saved = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${origin.id}`,
      payload: { version: origin.version, maximum_temperature: 4 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await storeRow(high.id)).toMatchObject({
      minimum_temperature: null,
      maximum_temperature: null,
      version: high.version + 1,
    });
    // Its own pair is still coherent: kept.
    expect(await storeRow(bothOwn.id)).toMatchObject({
      minimum_temperature: 6,
      maximum_temperature: 9,
      version: bothOwn.version,
    });
    // Locking the maximum makes the second one incoherent too.
    const locked = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${origin.id}`,
      payload: { version: saved.json().element.version, locks: { maximum_temperature: true } },
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(await storeRow(bothOwn.id)).toMatchObject({
      minimum_temperature: null,
      maximum_temperature: null,
    });
    const seen = await customer.inject({ method: 'GET', url: `/api/storeElements/${high.id}` });
    expect(seen.json().element).toMatchObject({ minimum_temperature: 0, maximum_temperature: 4 });
  });

  it('answers the creation context: union of hidden modules, editable per role (S3, S5)', async () => {
    const database = await buildDatabase(context.db, {
      distributor_id: tenants.a.distributor.id,
      hidden_modules: ['oils'],
    });
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: database.id,
      hidden_modules: ['labels'],
    });
    const storeContext = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/elements/context`,
    });
    expect(storeContext.statusCode, storeContext.body).toBe(200);
    expect([...storeContext.json().hidden_modules].sort()).toEqual(['labels', 'oils']);
    expect(storeContext.json().editable).toBe(true);
    const databaseContext = await admin.inject({
      method: 'GET',
      url: `/api/databases/${database.id}/elements/context`,
    });
    expect(databaseContext.json()).toEqual({ hidden_modules: ['oils'], editable: true });
    const customerView = await customer.inject({
      method: 'GET',
      url: `/api/databases/${databaseA()}/elements/context`,
    });
    expect(customerView.statusCode).toBe(200);
    expect(customerView.json().editable).toBe(false);
    const customerStore = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA1()}/elements/context`,
    });
    expect(customerStore.json().editable).toBe(true);
    const outside = await customer.inject({
      method: 'GET',
      url: `/api/stores/${tenants.b.stores[0]!.id}/elements/context`,
    });
    expect(outside.statusCode).toBe(404);
  });

  it('stores allergens once and refuses tab on the database list', async () => {
    const created = await admin.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/elements`,
      payload: { name: 'Doublons', allergens: ['egg', 'fish', 'egg'] },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().element.allergens).toEqual(['egg', 'fish']);
    const patched = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${created.json().element.id}`,
      payload: { version: created.json().element.version, allergens: ['soy', 'soy'] },
    });
    expect(patched.json().element.allergens).toEqual(['soy']);
    const list = await admin.inject({
      method: 'GET',
      url: `/api/databases/${databaseA()}/elements?tab=probes`,
    });
    expect(list.statusCode).toBe(400);
    expect(list.json().error.code).toBe('validation/invalid-input');
  });
});

describe('versions', () => {
  it('answers exactly one 409 to two saves of the same version, labels untouched by the loser', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: databaseA() });
    const [first, second] = await Promise.all(
      ['Winner A', 'Winner B'].map((name) =>
        admin.inject({
          method: 'PATCH',
          url: `/api/databaseElements/${element.id}`,
          payload: { version: 0, name, labels: [label(`${name} label`)] },
        }),
      ),
    );
    const statuses = [first!.statusCode, second!.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first!.statusCode === 409 ? first! : second!;
    expect(loser.json().error.code).toBe('conflict/stale-version');
    const winner = first!.statusCode === 200 ? first! : second!;
    const winnerName = winner.json().element.name as string;
    const row = await databaseRow(element.id);
    expect(row).toMatchObject({ name: winnerName, version: 1 });
    const labels = await labelRows('database_element_id', element.id);
    expect(labels.map((item) => item.name)).toEqual([`${winnerName} label`]);

    // A stale save afterwards: 409, nothing written.
    const stale = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: 0, name: 'Late', labels: [] },
    });
    expect(stale.statusCode).toBe(409);
    expect((await labelRows('database_element_id', element.id)).length).toBe(1);
  });
});

describe('labels', () => {
  it('saves database labels in order and deletes those left out', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: databaseA() });
    const saved = await manager.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: 0, labels: [label('Un'), label('Deux'), label('Trois')] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const labels = saved.json().element.labels as { id: string; name: string; index: number }[];
    expect(labels.map((item) => [item.name, item.index])).toEqual([
      ['Un', 0],
      ['Deux', 1],
      ['Trois', 2],
    ]);
    const reordered = await manager.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: {
        version: 1,
        labels: [
          label('Trois bis', { id: labels[2]!.id }),
          label('Un', { id: labels[0]!.id, active: false }),
        ],
      },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(
      reordered
        .json()
        .element.labels.map((item: { name: string; active: boolean }) => [item.name, item.active]),
    ).toEqual([
      ['Trois bis', true],
      ['Un', false],
    ]);
    expect((await labelRows('database_element_id', element.id)).length).toBe(2);
  });

  it('merges origin and store labels, writing overrides only where they differ', async () => {
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      // Type unlocked: the store must choose one while the origin has none (S2).
      locks: { ...defaultElementLocks, labels: false, type_id: false },
    });
    const first = await buildLabel(context.db, {
      database_id: databaseA(),
      database_element_id: origin.id,
      name: 'Origine 1',
      index: 0,
      expiration_duration: 24,
    });
    const second = await buildLabel(context.db, {
      database_id: databaseA(),
      database_element_id: origin.id,
      name: 'Origine 2',
      index: 1,
      expiration_duration: 72,
    });
    const values = (row: typeof first) => ({
      active: row.active,
      name: row.name,
      type: row.type,
      expiration_duration: row.expiration_duration,
      defrosting_duration: row.defrosting_duration,
      expiration_text: row.expiration_text,
      cumulate_expiration_duration: row.cumulate_expiration_duration,
      show_expiration_hour: row.show_expiration_hour,
      show_expiration_weekday: row.show_expiration_weekday,
    });
    const created = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: {
        origin_id: origin.id,
        labels: [
          { origin_id: first.id, ...values(first) },
          { origin_id: second.id, ...values(second), name: 'Renommée' },
          label('Maison'),
        ],
      },
    });
    // The origin has no type: the store must select one.
    expect(created.statusCode).toBe(400);
    expect(created.json().error.code).toBe('element/select-type');
    const type = await buildElementType(context.db, { database_id: databaseA() });
    await context.db
      .update(databaseElements)
      .set({ type_id: type.id })
      .where(eq(databaseElements.id, origin.id));
    const ok = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: {
        origin_id: origin.id,
        labels: [
          { origin_id: first.id, ...values(first) },
          { origin_id: second.id, ...values(second), name: 'Renommée' },
          label('Maison'),
        ],
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const element = ok.json().element;
    expect(
      element.labels.map((item: { name: string; state: string; id: string | null }) => [
        item.name,
        item.state,
        item.id === null,
      ]),
    ).toEqual([
      ['Origine 1', 'inherited', true],
      ['Renommée', 'overridden', false],
      ['Maison', 'own', false],
    ]);
    const rows = await labelRows('store_element_id', element.id);
    expect(rows).toHaveLength(2);
    const override = rows.find((row) => row.origin_id === second.id)!;
    expect(override).toMatchObject({ name: 'Renommée', expiration_duration: null });

    // The database changes its label: the override follows where it did not differ.
    await context.db
      .update(elementLabels)
      .set({ expiration_duration: 96 })
      .where(eq(elementLabels.id, second.id));
    const read = await customer.inject({ method: 'GET', url: `/api/storeElements/${element.id}` });
    const renamed = read
      .json()
      .element.labels.find((item: { name: string }) => item.name === 'Renommée');
    expect(renamed.expiration_duration).toBe(96);

    // Leaving the origin labels out keeps them; the store's own label left out is deleted.
    const pruned = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: 0, labels: [] },
    });
    expect(pruned.statusCode, pruned.body).toBe(200);
    expect(pruned.json().element.labels.map((item: { name: string }) => item.name)).toEqual([
      'Origine 1',
      'Renommée',
    ]);
    const unknown = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: 1, labels: [{ origin_id: randomUUID(), ...label('X') }] },
    });
    expect(unknown.json().error.code).toBe('label/unknown-label');

    // Labels locked by the origin: they are the origin's, and sending labels is refused.
    await context.db
      .update(databaseElements)
      .set({ locks: { ...defaultElementLocks } })
      .where(eq(databaseElements.id, origin.id));
    const lockedRead = await customer.inject({
      method: 'GET',
      url: `/api/storeElements/${element.id}`,
    });
    expect(
      lockedRead
        .json()
        .element.labels.map((item: { name: string; state: string }) => [item.name, item.state]),
    ).toEqual([
      ['Origine 1', 'locked'],
      ['Origine 2', 'locked'],
    ]);
    expect(lockedRead.json().element.field_states.labels).toBe('locked');
    const refused = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: 1, labels: [] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('element/field-locked');
  });
});

describe('duplicate', () => {
  it('copies a database element with its values, locks and labels', async () => {
    const element = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Crème',
      allergens: ['milkOrLactose'],
      maximum_temperature: 4,
      locks: { ...defaultElementLocks, maximum_temperature: false },
    });
    await buildLabel(context.db, {
      database_id: databaseA(),
      database_element_id: element.id,
      name: 'DLC crème',
    });
    const response = await distributor.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/duplicate`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const copy = response.json().element;
    expect(copy.id).not.toBe(element.id);
    expect(copy).toMatchObject({
      name: 'Crème (Copy)',
      allergens: ['milkOrLactose'],
      maximum_temperature: 4,
      version: 0,
    });
    expect(copy.locks.maximum_temperature).toBe(false);
    expect(copy.labels.map((item: { name: string }) => item.name)).toEqual(['DLC crème']);
    expect((await labelRows('database_element_id', element.id)).length).toBe(1);
  });

  it('makes an own store element from the effective values of an override', async () => {
    const type = await buildElementType(context.db, { database_id: databaseA(), name: 'Lait' });
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Lait cru',
      type_id: type.id,
      maximum_temperature: 4,
      locks: { ...defaultElementLocks, minimum_temperature: false },
    });
    await buildLabel(context.db, {
      database_id: databaseA(),
      database_element_id: origin.id,
      name: 'Lait DLC',
    });
    const override = await buildStoreElement(context.db, {
      store_id: storeA1(),
      origin_id: origin.id,
      minimum_temperature: 1,
    });
    const response = await customer.inject({
      method: 'POST',
      url: `/api/storeElements/${override.id}/duplicate`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const copy = response.json().element;
    expect(copy).toMatchObject({
      origin_id: null,
      is_remote: true,
      name: 'Lait cru (Copy)',
      type_id: type.id,
      minimum_temperature: 1,
      maximum_temperature: 4,
    });
    expect(copy.field_states.maximum_temperature).toBe('own');
    expect(
      copy.labels.map((item: { name: string; state: string }) => [item.name, item.state]),
    ).toEqual([['Lait DLC', 'own']]);
  });
});

describe('element types', () => {
  it('lists database and store types, creates and renames them', async () => {
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: databaseA(),
    });
    const created = await manager.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/elementTypes`,
      payload: { name: '  Aaa viandes ' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().type).toMatchObject({ name: 'Aaa viandes', store_side: false });
    const blank = await manager.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/elementTypes`,
      payload: { name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.code).toBe('element-type/invalid-name');

    const storeType = await admin.inject({
      method: 'POST',
      url: `/api/stores/${store.id}/elementTypes`,
      payload: { name: 'Aab maison' },
    });
    expect(storeType.statusCode, storeType.body).toBe(200);
    expect(storeType.json().type).toMatchObject({ store_side: true, store_id: store.id });

    const list = await admin.inject({ method: 'GET', url: `/api/stores/${store.id}/elementTypes` });
    const names = list.json().items.map((item: { name: string }) => item.name) as string[];
    expect(names.slice(0, 2)).toEqual(['Aaa viandes', 'Aab maison']);
    const databaseList = await admin.inject({
      method: 'GET',
      url: `/api/databases/${databaseA()}/elementTypes`,
    });
    expect(
      databaseList.json().items.every((item: { store_side: boolean }) => !item.store_side),
    ).toBe(true);

    // A manager renames the database type; the store type is the store's (not manager-owned).
    const renamed = await manager.inject({
      method: 'PATCH',
      url: `/api/elementTypes/${created.json().type.id}`,
      payload: { name: 'Viandes' },
    });
    expect(renamed.json().type.name).toBe('Viandes');
    const refused = await manager.inject({
      method: 'PATCH',
      url: `/api/elementTypes/${storeType.json().type.id}`,
      payload: { name: 'Maison' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    await context.db.update(stores).set({ manager_owned: true }).where(eq(stores.id, store.id));
    const allowed = await manager.inject({
      method: 'PATCH',
      url: `/api/elementTypes/${storeType.json().type.id}`,
      payload: { name: 'Maison' },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});

describe('allergens', () => {
  it('groups active elements with allergens by type, untyped last', async () => {
    const database = await buildDatabase(context.db, {
      name: 'Carte',
      distributor_id: tenants.a.distributor.id,
    });
    const store = await buildStore(context.db, {
      name: 'Restaurant',
      distributor_id: tenants.a.distributor.id,
      database_id: database.id,
    });
    const viandes = await buildElementType(context.db, {
      database_id: database.id,
      name: 'Viandes',
    });
    const desserts = await buildElementType(context.db, {
      database_id: database.id,
      name: 'Desserts',
    });
    const unlocked = { ...defaultElementLocks, allergens: false };
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Tarte',
      type_id: desserts.id,
      allergens: ['glutenGrains', 'egg'],
    });
    const burger = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Burger',
      type_id: viandes.id,
      allergens: ['glutenGrains', 'sesame'],
      locks: unlocked,
    });
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Anchois',
      allergens: ['fish'],
    });
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Steak',
      type_id: viandes.id,
      allergens: [],
    });
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Ancien',
      type_id: viandes.id,
      allergens: ['peanut'],
      active: false,
    });
    const response = await customer.inject({
      method: 'GET',
      url: `/api/allergens?databaseId=${database.id}`,
    });
    // The customer owns no store of this database.
    expect(response.statusCode).toBe(404);
    const table = await admin.inject({
      method: 'GET',
      url: `/api/allergens?databaseId=${database.id}`,
    });
    expect(table.statusCode, table.body).toBe(200);
    expect(table.json()).toEqual({
      title: 'Carte',
      groups: [
        {
          type_id: desserts.id,
          type_name: 'Desserts',
          elements: [
            { key: expect.any(String), name: 'Tarte', allergens: ['glutenGrains', 'egg'] },
          ],
        },
        {
          type_id: viandes.id,
          type_name: 'Viandes',
          elements: [{ key: burger.id, name: 'Burger', allergens: ['glutenGrains', 'sesame'] }],
        },
        {
          type_id: null,
          type_name: null,
          elements: [{ key: expect.any(String), name: 'Anchois', allergens: ['fish'] }],
        },
      ],
    });

    // The store's table uses effective values: its override removes the burger's allergens.
    await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: burger.id,
      allergens: [],
    });
    const storeTable = await admin.inject({
      method: 'GET',
      url: `/api/allergens?storeId=${store.id}`,
    });
    expect(storeTable.json().title).toBe('Restaurant');
    expect(
      storeTable.json().groups.map((group: { type_name: string | null }) => group.type_name),
    ).toEqual(['Desserts', null]);
    const both = await admin.inject({
      method: 'GET',
      url: `/api/allergens?storeId=${store.id}&databaseId=${database.id}`,
    });
    expect(both.statusCode).toBe(400);

    const pdf = await admin.inject({
      method: 'GET',
      url: `/api/pdf/allergens?databaseId=${database.id}&lang=fr`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="allergens.pdf"');
    // The PDF prints the same table: the groups and their elements, none of the others.
    const text = (await readPdf(pdf.rawPayload)).map((page) => page.text).join('\n');
    for (const expected of ['Carte', 'Desserts', 'Tarte', 'Viandes', 'Burger', 'Anchois'])
      expect(text).toContain(expected);
    expect(text).not.toContain('Ancien');
    expect(text).not.toContain('Steak');
  });
});
