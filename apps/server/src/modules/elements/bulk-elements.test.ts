import {
  type BulkElementRow,
  bulkElementRowSchema,
  bulkElementsResponseSchema,
  compactLocksAndStates,
  expandLocksAndStates,
} from '@mise/shared/catalogue/bulk';
import {
  defaultElementLocks,
  type ElementLockKey,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import type { FieldState } from '@mise/shared/catalogue/rules';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseElements, elementAttachments, storeElements } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildElementType,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';

/**
 * Expert mode, elements (spec 001 §2.9, §4; issue 19): GET/POST /api/databases/:id/elements/bulk
 * and /api/stores/:id/elements/bulk, on both drivers. Store A1 is owned by customer A and not
 * manager-owned.
 */

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let manager: Agent;
let customer: Agent;
let otherDistributor: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  otherDistributor = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
});

/** A database of tenant A of its own (its rows counted exactly), and a store on it. */
async function freshCatalogue() {
  const database = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
  const store = await buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: database.id,
  });
  return { database, store };
}

const databaseUrl = (id: string) => `/api/databases/${id}/elements/bulk`;
const storeUrl = (id: string) => `/api/stores/${id}/elements/bulk`;

async function read(agent: Agent, url: string) {
  const response = await agent.inject({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return bulkElementsResponseSchema.parse(response.json());
}

const save = (agent: Agent, url: string, rows: unknown[]) =>
  agent.inject({ method: 'POST', url, payload: { rows } });

async function databaseRow(id: string) {
  const [row] = await context.db.select().from(databaseElements).where(eq(databaseElements.id, id));
  return row!;
}
async function storeRow(id: string) {
  const [row] = await context.db.select().from(storeElements).where(eq(storeElements.id, id));
  return row!;
}

async function addAttachment(values: {
  database_element_id?: string;
  store_element_id?: string;
  database_id?: string;
  store_id?: string;
}) {
  await context.db.insert(elementAttachments).values({
    name: 'Fiche',
    type: 'pdf',
    content_type: 'application/pdf',
    path: `bulk/${crypto.randomUUID()}.pdf`,
    size: 10,
    ...values,
  });
}

/** A row as the single screens show it, without what a grid row leaves out. */
function gridView(element: Record<string, unknown>) {
  const {
    labels,
    attachments,
    hidden_modules: _hidden,
    probe: _probe,
    editable: _editable,
    locks,
    field_states,
    ...rest
  } = element as Record<string, unknown> & {
    labels: unknown[];
    attachments: unknown[];
    locks: Record<ElementLockKey, boolean>;
    field_states: Record<ElementLockKey, FieldState>;
  };
  const sparse = compactLocksAndStates(
    elementLockKeys,
    locks,
    field_states,
    rest.origin_id !== null,
  );
  return {
    ...rest,
    unlocked: sparse.unlocked,
    states: sparse.states,
    label_count: labels.length,
    attachment_count: attachments.length,
  };
}

/** A grid row's locks and field states made whole (they travel sparse). */
const whole = (row: BulkElementRow) => expandLocksAndStates(elementLockKeys, row);

describe('database level', () => {
  it('reads every element with its effective values and locks, in a fixed number of queries', async () => {
    const { database } = await freshCatalogue();
    const type = await buildElementType(context.db, { database_id: database.id, name: 'Froid' });
    const fridge = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Chambre froide',
      type_id: type.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      locks: { ...defaultElementLocks, minimum_temperature: false, labels: false },
    });
    const inactive = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Ancien congélateur',
      active: false,
    });
    await buildLabel(context.db, { database_id: database.id, database_element_id: fridge.id });
    await buildLabel(context.db, { database_id: database.id, database_element_id: fridge.id });
    await addAttachment({ database_id: database.id, database_element_id: fridge.id });
    for (let index = 0; index < 8; index += 1) {
      await buildDatabaseElement(context.db, { database_id: database.id, name: `Bac ${index}` });
    }

    const body = await read(distributor, databaseUrl(database.id));
    expect(body.editable).toBe(true);
    expect(body.rows).toHaveLength(10);
    expect(body.rows.map((row) => row.name)).toEqual([
      'Ancien congélateur',
      ...Array.from({ length: 8 }, (_, index) => `Bac ${index}`),
      'Chambre froide',
    ]);
    const row = body.rows.find((item) => item.id === fridge.id)!;
    expect(row).toMatchObject({
      key: fridge.id,
      level: 'database',
      type_name: 'Froid',
      minimum_temperature: 0,
      maximum_temperature: 4,
      maximum_polarity: 25,
      label_count: 2,
      attachment_count: 1,
      version: 0,
    });
    expect(whole(row).locks.minimum_temperature).toBe(false);
    expect(whole(row).locks.maximum_temperature).toBe(true);
    expect(whole(row).locks.labels).toBe(false);
    expect(new Set(Object.values(whole(row).states))).toEqual(new Set(['own']));
    // Sent sparse: the two unlocked fields, no state (every field is the row's own).
    expect(row.unlocked).toEqual(['minimum_temperature', 'labels']);
    expect(row.states).toEqual({});
    expect(body.rows.find((item) => item.id === inactive.id)?.active).toBe(false);
    // Built in the schema's shape and order: the plain JSON is what zod would have sent.
    const raw = (
      await distributor.inject({ method: 'GET', url: databaseUrl(database.id) })
    ).json() as { rows: Record<string, unknown>[] };
    expect(Object.keys(raw.rows[0]!)).toEqual(Object.keys(bulkElementRowSchema.shape));

    // The single screen shows the same values.
    const single = await distributor.inject({
      method: 'GET',
      url: `/api/databaseElements/${fridge.id}`,
    });
    expect({ ...row, key: undefined }).toEqual({
      ...gridView(single.json().element),
      key: undefined,
    });

    // The statements do not grow with the rows.
    const measure = () =>
      countQueries(context.database, () =>
        distributor.inject({ method: 'GET', url: databaseUrl(database.id) }),
      );
    const few = await measure();
    for (let index = 0; index < 30; index += 1) {
      const element = await buildDatabaseElement(context.db, { database_id: database.id });
      await buildLabel(context.db, { database_id: database.id, database_element_id: element.id });
    }
    expect(await measure()).toBe(few);
  });

  it('saves 3 changed rows and 1 new one, and writes nothing else', async () => {
    const { database } = await freshCatalogue();
    const elements = [];
    for (let index = 0; index < 6; index += 1) {
      elements.push(
        await buildDatabaseElement(context.db, {
          database_id: database.id,
          name: `Frigo ${index}`,
        }),
      );
    }
    const rows = (await read(distributor, databaseUrl(database.id))).rows;
    const rowOf = (id: string) => rows.find((row) => row.id === id)!;
    const [first, second, third] = elements.map((element) => rowOf(element.id));
    const response = await save(distributor, databaseUrl(database.id), [
      { key: first!.key, id: first!.id, version: first!.version, values: { name: 'Frigo A' } },
      {
        key: second!.key,
        id: second!.id,
        version: second!.version,
        // A freezer: -25 °C to -15 °C is kept as sent.
        values: { minimum_temperature: -25, maximum_temperature: -15 },
        locks: { minimum_temperature: false },
      },
      {
        key: third!.key,
        id: third!.id,
        version: third!.version,
        values: { active: false, cooling_duration: 0 },
      },
      {
        key: 'new-1',
        id: null,
        values: { name: 'Cellule de refroidissement', reheating_temperature: 70 },
        locks: { name: false },
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().rows as BulkElementRow[];
    expect(saved.map((row) => row.key)).toEqual([first!.key, second!.key, third!.key, 'new-1']);
    expect(saved[0]).toMatchObject({ name: 'Frigo A', version: 1 });
    expect(saved[1]).toMatchObject({ minimum_temperature: -25, maximum_temperature: -15 });
    expect(whole(saved[1]!).locks.minimum_temperature).toBe(false);
    expect(saved[2]).toMatchObject({ active: false, cooling_duration: null });
    expect(saved[3]).toMatchObject({
      name: 'Cellule de refroidissement',
      reheating_temperature: 70,
      maximum_polarity: 25,
      version: 0,
    });
    expect(whole(saved[3]!).locks.name).toBe(false);
    expect(whole(saved[3]!).locks.type_id).toBe(true);

    expect(await databaseRow(second!.id!)).toMatchObject({
      minimum_temperature: -25,
      maximum_temperature: -15,
      version: 1,
      name: 'Frigo 1',
    });
    expect(await databaseRow(third!.id!)).toMatchObject({ active: false, cooling_duration: null });
    const created = await databaseRow(saved[3]!.id!);
    expect(created).toMatchObject({ database_id: database.id, name: 'Cellule de refroidissement' });
    // The three others: untouched.
    for (const element of elements.slice(3)) {
      const row = await databaseRow(element.id);
      expect(row.version).toBe(0);
      expect(row.updated_at.getTime()).toBe(element.updated_at.getTime());
    }
    const after = await read(distributor, databaseUrl(database.id));
    expect(after.rows).toHaveLength(7);

    // The statements of a save (outside its transaction: the reads, the checks, the answer)
    // do not grow with its rows.
    const measure = (rows: BulkElementRow[]) =>
      countQueries(context.database, async () => {
        const response = await save(
          distributor,
          databaseUrl(database.id),
          rows.map((row) => ({
            key: row.key,
            id: row.id,
            version: row.version,
            values: { minimum_temperature: -20, maximum_temperature: -10 },
          })),
        );
        expect(response.statusCode, response.body).toBe(200);
      });
    const few = await measure(after.rows.slice(0, 2));
    for (let index = 0; index < 20; index += 1) {
      await buildDatabaseElement(context.db, { database_id: database.id });
    }
    const many = (await read(distributor, databaseUrl(database.id))).rows.slice(2);
    expect(many).toHaveLength(25);
    expect(await measure(many)).toBe(few);
  });

  it('answers 409 naming a stale row, and writes nothing', async () => {
    const { database } = await freshCatalogue();
    const stale = await buildDatabaseElement(context.db, { database_id: database.id });
    const other = await buildDatabaseElement(context.db, { database_id: database.id });
    // Someone else saves the first one on its screen meanwhile.
    const patched = await distributor.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${stale.id}`,
      payload: { version: 0, name: 'Changed elsewhere' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const response = await save(distributor, databaseUrl(database.id), [
      { key: other.id, id: other.id, version: 0, values: { name: 'Mine' } },
      { key: stale.id, id: stale.id, version: 0, values: { name: 'Mine too' } },
      { key: 'new-1', id: null, values: { name: 'Nouveau' } },
    ]);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'conflict/stale-rows',
      issues: [{ path: stale.id }],
    });
    expect(await databaseRow(other.id)).toMatchObject({ name: other.name, version: 0 });
    expect(await databaseRow(stale.id)).toMatchObject({ name: 'Changed elsewhere', version: 1 });
    expect((await read(distributor, databaseUrl(database.id))).rows).toHaveLength(2);
  });

  it('refuses a minimum above the maximum with the single screen code, under the row key', async () => {
    const { database } = await freshCatalogue();
    const fine = await buildDatabaseElement(context.db, { database_id: database.id });
    const wrong = await buildDatabaseElement(context.db, {
      database_id: database.id,
      maximum_temperature: 4,
    });
    const response = await save(distributor, databaseUrl(database.id), [
      { key: fine.id, id: fine.id, version: 0, values: { name: 'Bien' } },
      { key: wrong.id, id: wrong.id, version: 0, values: { minimum_temperature: 8 } },
    ]);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid-temperature-input',
      issues: [{ path: `${wrong.id}.minimum_temperature` }],
    });
    const single = await distributor.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${wrong.id}`,
      payload: { version: 0, minimum_temperature: 8 },
    });
    expect(single.json().error.code).toBe('invalid-temperature-input');
    expect(await databaseRow(fine.id)).toMatchObject({ name: fine.name, version: 0 });

    // A new row without a name, a type of another database: the single screen's codes too.
    const unnamed = await save(distributor, databaseUrl(database.id), [
      { key: 'new-1', id: null, values: { minimum_temperature: 1 } },
    ]);
    expect(unnamed.json().error).toMatchObject({
      code: 'element/invalid-name',
      issues: [{ path: 'new-1.name' }],
    });
    const foreignType = await buildElementType(context.db, { database_id: tenants.b.database.id });
    const typed = await save(distributor, databaseUrl(database.id), [
      { key: fine.id, id: fine.id, version: 0, values: { type_id: foreignType.id } },
    ]);
    expect(typed.json().error).toMatchObject({
      code: 'element/unknown-type',
      issues: [{ path: `${fine.id}.type_id` }],
    });
    expect(await databaseRow(fine.id)).toMatchObject({ type_id: null, version: 0 });
  });

  it('refuses other tenants, their elements, and customers as the single calls do', async () => {
    const mine = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const theirs = await buildDatabaseElement(context.db, { database_id: tenants.b.database.id });
    // Another tenant's database: not found, read or written.
    expect(
      (await otherDistributor.inject({ method: 'GET', url: databaseUrl(tenants.a.database.id) }))
        .statusCode,
    ).toBe(404);
    const foreign = await save(otherDistributor, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, version: 0, values: { name: 'Pris' } },
    ]);
    expect(foreign.statusCode).toBe(404);
    // Another tenant's element sent to one's own database: not found, nothing written.
    const smuggled = await save(distributor, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, version: 0, values: { name: 'Renommé' } },
      { key: theirs.id, id: theirs.id, version: 0, values: { name: 'Pris' } },
    ]);
    expect(smuggled.statusCode).toBe(404);
    expect(smuggled.json().error.issues).toEqual([
      { path: theirs.id, message: expect.any(String) },
    ]);
    expect(await databaseRow(theirs.id)).toMatchObject({ name: theirs.name, version: 0 });
    expect(await databaseRow(mine.id)).toMatchObject({ name: mine.name, version: 0 });
    // A customer reads the database (not editable) but may not save it.
    const read = await customer.inject({ method: 'GET', url: databaseUrl(tenants.a.database.id) });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    const refused = await save(customer, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, version: 0, values: { name: 'Client' } },
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    expect(await databaseRow(mine.id)).toMatchObject({ name: mine.name, version: 0 });
    // A body naming a row twice or an existing row without its version.
    const twice = await save(distributor, databaseUrl(tenants.a.database.id), [
      { key: 'a', id: mine.id, version: 0, values: { name: 'A' } },
      { key: 'b', id: mine.id, version: 0, values: { name: 'B' } },
    ]);
    expect(twice.statusCode).toBe(400);
    const unversioned = await save(distributor, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, values: { name: 'A' } },
    ]);
    expect(unversioned.json().error).toMatchObject({
      code: 'validation/invalid-input',
      issues: [{ path: `${mine.id}.version` }],
    });
  });
});

describe('store level', () => {
  /** Database elements with various locks, a store overriding one, and one of its own. */
  async function storeCatalogue() {
    const { database, store } = await freshCatalogue();
    const databaseType = await buildElementType(context.db, {
      database_id: database.id,
      name: 'Froid',
    });
    const storeType = await buildElementType(context.db, { store_id: store.id, name: 'Maison' });
    const locked = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Armoire verrouillée',
      type_id: databaseType.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    const open = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Bac ouvert',
      type_id: databaseType.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      locks: {
        ...defaultElementLocks,
        minimum_temperature: false,
        maximum_temperature: false,
        labels: false,
      },
    });
    const overridden = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Chambre froide',
      type_id: databaseType.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      locks: {
        ...defaultElementLocks,
        minimum_temperature: false,
        maximum_temperature: false,
        labels: false,
      },
    });
    const originLabel = await buildLabel(context.db, {
      database_id: database.id,
      database_element_id: overridden.id,
      index: 0,
    });
    await buildLabel(context.db, {
      database_id: database.id,
      database_element_id: overridden.id,
      index: 1,
    });
    await addAttachment({ database_id: database.id, database_element_id: overridden.id });
    const override = await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: overridden.id,
      minimum_temperature: 1,
    });
    await buildLabel(context.db, {
      store_id: store.id,
      store_element_id: override.id,
      origin_id: originLabel.id,
      name: 'Étiquette du magasin',
      index: 0,
    });
    await buildLabel(context.db, {
      store_id: store.id,
      store_element_id: override.id,
      name: 'Étiquette en plus',
      index: 2,
    });
    const own = await buildStoreElement(context.db, {
      store_id: store.id,
      name: 'Vitrine',
      type_id: storeType.id,
      active: true,
      allergens: [],
    });
    return { database, store, databaseType, storeType, locked, open, overridden, override, own };
  }

  it('shows inherited values and locked fields, merged with the store rows, as the single screens', async () => {
    const fixture = await storeCatalogue();
    // Store A1's owner reads it; the store here is fresh, so the distributor reads it.
    const body = await read(distributor, storeUrl(fixture.store.id));
    expect(body.editable).toBe(true);
    expect(body.rows.map((row) => row.key)).toEqual([
      `origin:${fixture.locked.id}`,
      `origin:${fixture.open.id}`,
      fixture.override.id,
      fixture.own.id,
    ]);
    const [locked, open, override, own] = body.rows;
    expect(locked).toMatchObject({
      id: null,
      origin_id: fixture.locked.id,
      is_remote: false,
      level: 'store',
      name: 'Armoire verrouillée',
      type_name: 'Froid',
      version: 0,
    });
    expect(whole(locked!).states.name).toBe('locked');
    expect(whole(locked!).states.minimum_temperature).toBe('locked');
    expect(whole(locked!).locks.name).toBe(true);
    expect(whole(open!).states.minimum_temperature).toBe('inherited');
    expect(override).toMatchObject({
      id: fixture.override.id,
      origin_id: fixture.overridden.id,
      is_remote: true,
      minimum_temperature: 1,
      maximum_temperature: 4,
      name: 'Chambre froide',
      type_name: 'Froid',
      label_count: 3,
      attachment_count: 1,
    });
    expect(whole(override!).states).toMatchObject({
      minimum_temperature: 'overridden',
      maximum_temperature: 'inherited',
      name: 'locked',
      labels: 'overridden',
      // Attachments are locked by default: the origin's only.
      attachments: 'locked',
    });
    expect(own).toMatchObject({ origin_id: null, type_name: 'Maison', is_remote: true });
    expect(whole(own!).states.name).toBe('own');

    // Each row as the element screen presents it.
    const singles = await Promise.all([
      distributor.inject({
        method: 'GET',
        url: `/api/stores/${fixture.store.id}/elements/origin/${fixture.locked.id}`,
      }),
      distributor.inject({
        method: 'GET',
        url: `/api/stores/${fixture.store.id}/elements/origin/${fixture.open.id}`,
      }),
      distributor.inject({ method: 'GET', url: `/api/storeElements/${fixture.override.id}` }),
      distributor.inject({ method: 'GET', url: `/api/storeElements/${fixture.own.id}` }),
    ]);
    singles.forEach((single, index) => {
      expect(single.statusCode, single.body).toBe(200);
      expect({ ...body.rows[index], key: undefined }).toEqual({
        ...gridView(single.json().element),
        key: undefined,
      });
    });

    const measure = () =>
      countQueries(context.database, () =>
        distributor.inject({ method: 'GET', url: storeUrl(fixture.store.id) }),
      );
    const few = await measure();
    for (let index = 0; index < 20; index += 1) {
      const element = await buildDatabaseElement(context.db, {
        database_id: fixture.database.id,
        locks: { ...defaultElementLocks, minimum_temperature: false },
      });
      if (index % 2) {
        await buildStoreElement(context.db, {
          store_id: fixture.store.id,
          origin_id: element.id,
          minimum_temperature: -2,
        });
      }
    }
    expect(await measure()).toBe(few);
  });

  it('saves an override of an inherited row, a changed override and a new element of its own', async () => {
    const fixture = await storeCatalogue();
    const response = await save(distributor, storeUrl(tenants.a.stores[0]!.id), [
      { key: 'new-1', id: null, values: { name: 'Vide', type_id: fixture.storeType.id } },
    ]);
    // Store A1 is on database A: the store type of another store is refused there.
    expect(response.json().error).toMatchObject({
      code: 'element/unknown-type',
      issues: [{ path: 'new-1.type_id' }],
    });

    const saved = await save(distributor, storeUrl(fixture.store.id), [
      {
        key: `origin:${fixture.open.id}`,
        id: null,
        origin_id: fixture.open.id,
        values: { minimum_temperature: -25, maximum_temperature: -15 },
      },
      {
        key: fixture.override.id,
        id: fixture.override.id,
        version: 0,
        values: { maximum_temperature: 6 },
      },
      { key: 'new-1', id: null, values: { name: 'Saladier', type_id: fixture.storeType.id } },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const rows = saved.json().rows as BulkElementRow[];
    expect(rows.map((row) => row.key)).toEqual([
      `origin:${fixture.open.id}`,
      fixture.override.id,
      'new-1',
    ]);
    expect(rows[0]).toMatchObject({
      origin_id: fixture.open.id,
      is_remote: true,
      minimum_temperature: -25,
      maximum_temperature: -15,
      name: 'Bac ouvert',
      version: 0,
    });
    expect(whole(rows[0]!).states.minimum_temperature).toBe('overridden');
    expect(rows[1]).toMatchObject({ minimum_temperature: 1, maximum_temperature: 6, version: 1 });
    expect(rows[2]).toMatchObject({ name: 'Saladier', type_name: 'Maison', origin_id: null });

    const created = await storeRow(rows[0]!.id!);
    // An override holds only what the store changed; the rest follows the database.
    expect(created).toMatchObject({
      origin_id: fixture.open.id,
      minimum_temperature: -25,
      maximum_temperature: -15,
      name: null,
    });
    expect(await storeRow(fixture.own.id)).toMatchObject({ version: 0, name: 'Vitrine' });
    // The locked database row was not written.
    expect(
      await context.db
        .select()
        .from(storeElements)
        .where(eq(storeElements.origin_id, fixture.locked.id)),
    ).toEqual([]);
  });

  it('refuses a field locked at the origin, with the single screen code', async () => {
    const fixture = await storeCatalogue();
    const response = await save(distributor, storeUrl(fixture.store.id), [
      {
        key: fixture.override.id,
        id: fixture.override.id,
        version: 0,
        values: { maximum_temperature: 5 },
      },
      {
        key: `origin:${fixture.locked.id}`,
        id: null,
        origin_id: fixture.locked.id,
        values: { minimum_temperature: 2 },
      },
    ]);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error).toMatchObject({
      code: 'element/field-locked',
      issues: [{ path: `origin:${fixture.locked.id}.minimum_temperature` }],
    });
    const single = await distributor.inject({
      method: 'POST',
      url: `/api/stores/${fixture.store.id}/elements`,
      payload: { origin_id: fixture.locked.id, minimum_temperature: 2 },
    });
    expect(single.json().error.code).toBe('element/field-locked');
    expect(await storeRow(fixture.override.id)).toMatchObject({
      maximum_temperature: null,
      version: 0,
    });

    // Changing the name of an override whose origin locks it, and locks at store level.
    const renamed = await save(distributor, storeUrl(fixture.store.id), [
      { key: fixture.override.id, id: fixture.override.id, version: 0, values: { name: 'X' } },
    ]);
    expect(renamed.json().error).toMatchObject({
      code: 'element/field-locked',
      issues: [{ path: `${fixture.override.id}.name` }],
    });
    const locks = await save(distributor, storeUrl(fixture.store.id), [
      {
        key: fixture.own.id,
        id: fixture.own.id,
        version: 0,
        values: {},
        locks: { name: false },
      },
    ]);
    expect(locks.json().error).toMatchObject({
      code: 'validation/invalid-input',
      issues: [{ path: `${fixture.own.id}.locks` }],
    });
    // An element of its own needs a type at store level (element/select-type).
    const untyped = await save(distributor, storeUrl(fixture.store.id), [
      { key: 'new-1', id: null, values: { name: 'Sans type' } },
    ]);
    expect(untyped.json().error).toMatchObject({
      code: 'element/select-type',
      issues: [{ path: 'new-1.type_id' }],
    });
  });

  it('answers 409 when a database row was overridden meanwhile, or an override changed', async () => {
    const fixture = await storeCatalogue();
    // Someone else overrides the open element on its screen after the grid was read.
    const elsewhere = await distributor.inject({
      method: 'POST',
      url: `/api/stores/${fixture.store.id}/elements`,
      payload: { origin_id: fixture.open.id, minimum_temperature: 2 },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    await context.db
      .update(storeElements)
      .set({ version: 3 })
      .where(eq(storeElements.id, fixture.override.id));
    const response = await save(distributor, storeUrl(fixture.store.id), [
      { key: fixture.own.id, id: fixture.own.id, version: 0, values: { name: 'Vitrine 2' } },
      {
        key: `origin:${fixture.open.id}`,
        id: null,
        origin_id: fixture.open.id,
        values: { minimum_temperature: 3 },
      },
      {
        key: fixture.override.id,
        id: fixture.override.id,
        version: 0,
        values: { minimum_temperature: 3 },
      },
    ]);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error.code).toBe('conflict/stale-rows');
    expect(
      (response.json().error.issues as { path: string }[]).map((issue) => issue.path).sort(),
    ).toEqual([`origin:${fixture.open.id}`, fixture.override.id].sort());
    expect(await storeRow(fixture.own.id)).toMatchObject({ name: 'Vitrine', version: 0 });
    expect(await storeRow(elsewhere.json().element.id)).toMatchObject({ minimum_temperature: 2 });
  });

  it('refuses other tenants and a manager on a store that is not manager-owned', async () => {
    const storeA1 = tenants.a.stores[0]!;
    const own = await buildStoreElement(context.db, {
      store_id: storeA1.id,
      name: 'Plan de travail',
      type_id: (await buildElementType(context.db, { store_id: storeA1.id })).id,
    });
    const theirs = await buildStoreElement(context.db, {
      store_id: tenants.b.stores[0]!.id,
      name: 'Autre',
    });
    const rows = [{ key: own.id, id: own.id, version: 0, values: { name: 'Pris' } }];
    expect(
      (await otherDistributor.inject({ method: 'GET', url: storeUrl(storeA1.id) })).statusCode,
    ).toBe(404);
    expect((await save(otherDistributor, storeUrl(storeA1.id), rows)).statusCode).toBe(404);
    // The manager reads store A1 but may not save it (not manager-owned), as on its screen.
    const managed = await manager.inject({ method: 'GET', url: storeUrl(storeA1.id) });
    expect(managed.statusCode).toBe(200);
    expect(managed.json().editable).toBe(false);
    const refused = await save(manager, storeUrl(storeA1.id), rows);
    expect(refused.statusCode).toBe(403);
    const single = await manager.inject({
      method: 'PATCH',
      url: `/api/storeElements/${own.id}`,
      payload: { version: 0, name: 'Pris' },
    });
    expect(single.statusCode).toBe(403);
    // Another store's element sent to store A1: not found, nothing written.
    const smuggled = await save(distributor, storeUrl(storeA1.id), [
      ...rows,
      { key: theirs.id, id: theirs.id, version: 0, values: { name: 'Pris' } },
    ]);
    expect(smuggled.statusCode).toBe(404);
    const [ownAfter, theirsAfter] = await Promise.all([storeRow(own.id), storeRow(theirs.id)]);
    expect(ownAfter).toMatchObject({ name: 'Plan de travail', version: 0 });
    expect(theirsAfter).toMatchObject({ name: 'Autre', version: 0 });
    // The store's distributor saves it.
    const saved = await save(distributor, storeUrl(storeA1.id), rows);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      await context.db
        .select({ name: storeElements.name })
        .from(storeElements)
        .where(inArray(storeElements.id, [own.id])),
    ).toEqual([{ name: 'Pris' }]);
  });

  it('refuses a customer expert mode: its store’s grid reads not editable, its saves and copies answer 403', async () => {
    const fixture = await storeCatalogue();
    // A customer owning two stores of database A: the store copy calls would have both.
    const storeA2 = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: fixture.database.id,
    });
    const owner = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [fixture.store.id, storeA2.id],
    });
    const ownerAgent = await signIn(context.app, owner.email, testPassword);

    const grid = await read(ownerAgent, storeUrl(fixture.store.id));
    expect(grid.editable).toBe(false);
    expect(grid.rows).toHaveLength(4);

    const refused = await save(ownerAgent, storeUrl(fixture.store.id), [
      {
        key: fixture.own.id,
        id: fixture.own.id,
        version: 0,
        values: { name: 'Vitrine réfrigérée' },
      },
      { key: 'new-1', id: null, values: { name: 'Saladier', type_id: fixture.storeType.id } },
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    expect(await storeRow(fixture.own.id)).toMatchObject({ name: 'Vitrine', version: 0 });
    const storeRows = await context.db
      .select({ id: storeElements.id })
      .from(storeElements)
      .where(eq(storeElements.store_id, fixture.store.id));
    expect(storeRows).toHaveLength(2);

    // The export of expert mode: refused too, nothing copied into the other store.
    const copy = await ownerAgent.inject({
      method: 'POST',
      url: '/api/stores/copyStoreElements',
      headers: { 'idempotency-key': 'customer-copy-1' },
      payload: {
        sourceId: fixture.store.id,
        targetId: storeA2.id,
        objectIds: [fixture.own.id],
        copyAttachments: false,
      },
    });
    expect(copy.statusCode).toBe(403);
    expect(copy.json().error.code).toBe('permission/denied');
    expect(
      await context.db
        .select({ id: storeElements.id })
        .from(storeElements)
        .where(eq(storeElements.store_id, storeA2.id)),
    ).toEqual([]);

    // The element screen still lets the owner change its store's element (spec 001 §6 hides
    // only expert mode from customers).
    const single = await ownerAgent.inject({
      method: 'PATCH',
      url: `/api/storeElements/${fixture.own.id}`,
      payload: { version: 0, name: 'Vitrine réfrigérée' },
    });
    expect(single.statusCode, single.body).toBe(200);
  });
});
