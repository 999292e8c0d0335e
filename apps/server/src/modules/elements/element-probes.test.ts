import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { probes, storeElements } from '../../db/schema';
import {
  buildDatabaseElement,
  buildElementType,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { buildProbe } from './test-support';

/**
 * A store element bound to one of its store's probes (spec 001 probe_id, issue 15): the save
 * accepts only a probe of the element's own store, the read answers the probe or flags it
 * missing ('La sonde précédemment selectionnée est introuvable'), lists flag it in one query.
 */

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let customer: Agent;
let ownProbe: Awaited<ReturnType<typeof buildProbe>>;
let secondOwnProbe: Awaited<ReturnType<typeof buildProbe>>;
let siblingStoreProbe: Awaited<ReturnType<typeof buildProbe>>;
let otherTenantProbe: Awaited<ReturnType<typeof buildProbe>>;
let unownedProbe: Awaited<ReturnType<typeof buildProbe>>;

let typeId: string;
const storeA1 = () => tenants.a.stores[0]!.id;

async function storeRow(id: string) {
  const [row] = await context.db.select().from(storeElements).where(eq(storeElements.id, id));
  return row!;
}

async function newElement(values: Partial<typeof storeElements.$inferInsert> = {}) {
  return buildStoreElement(context.db, {
    store_id: storeA1(),
    name: 'Chambre froide',
    type_id: typeId,
    ...values,
  });
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  typeId = (await buildElementType(context.db, { database_id: tenants.a.database.id })).id;
  const lastReadingAt = new Date('2026-11-24T08:00:00Z');
  ownProbe = await buildProbe(context.db, {
    store_id: storeA1(),
    name: 'Sonde chambre froide',
    last_temperature: 3.5,
    last_temperature_timestamp: lastReadingAt,
  });
  secondOwnProbe = await buildProbe(context.db, { store_id: storeA1(), name: 'Sonde vitrine' });
  siblingStoreProbe = await buildProbe(context.db, { store_id: tenants.a.stores[1]!.id });
  otherTenantProbe = await buildProbe(context.db, { store_id: tenants.b.stores[0]!.id });
  unownedProbe = await buildProbe(context.db, { store_id: null });
});

describe('binding a store element to a probe', () => {
  it("binds one of the store's probes and the read answers it with its last reading", async () => {
    const element = await newElement();
    const response = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: element.version, probe_id: ownProbe.probe_uid },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().element).toMatchObject({
      probe_id: ownProbe.probe_uid,
      probe: {
        probe_uid: ownProbe.probe_uid,
        name: 'Sonde chambre froide',
        last_temperature: 3.5,
        last_temperature_timestamp: '2026-11-24T08:00:00.000Z',
      },
      probe_missing: false,
    });
    expect((await storeRow(element.id)).probe_id).toBe(ownProbe.probe_uid);
  });

  it('creates an element with a probe of the store, and null unbinds it', async () => {
    const type = await buildElementType(context.db, { database_id: tenants.a.database.id });
    const created = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { name: 'Vitrine', type_id: type.id, probe_id: secondOwnProbe.probe_uid },
    });
    expect(created.statusCode).toBe(200);
    const element = created.json().element;
    expect(element).toMatchObject({
      probe_id: secondOwnProbe.probe_uid,
      probe: { name: 'Sonde vitrine', last_temperature: null },
      probe_missing: false,
    });
    const unbound = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: element.version, probe_id: null },
    });
    expect(unbound.statusCode).toBe(200);
    expect(unbound.json().element).toMatchObject({
      probe_id: null,
      probe: null,
      probe_missing: false,
    });
    expect((await storeRow(element.id)).probe_id).toBeNull();
  });

  for (const [label, probe] of [
    ["another store's probe of the same database", () => siblingStoreProbe],
    ["another tenant's probe", () => otherTenantProbe],
    ['a probe of no store', () => unownedProbe],
    ['an unknown probeUID', () => ({ probe_uid: 'no-such-probe' })],
  ] as const) {
    it(`refuses ${label} with 422 element/unknown-probe and writes nothing`, async () => {
      const element = await newElement({ probe_id: ownProbe.probe_uid });
      const response = await distributor.inject({
        method: 'PATCH',
        url: `/api/storeElements/${element.id}`,
        payload: { version: element.version, name: 'Renommé', probe_id: probe().probe_uid },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('element/unknown-probe');
      const row = await storeRow(element.id);
      expect(row.probe_id).toBe(ownProbe.probe_uid);
      expect(row.name).toBe('Chambre froide');
      expect(row.version).toBe(element.version);
    });
  }

  it("refuses another tenant's probe on creation too, with nothing created", async () => {
    const type = await buildElementType(context.db, { database_id: tenants.a.database.id });
    const count = async () =>
      (
        await context.db
          .select({ id: storeElements.id })
          .from(storeElements)
          .where(eq(storeElements.store_id, storeA1()))
      ).length;
    const before = await count();
    const response = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/elements`,
      payload: { name: 'Congélateur', type_id: type.id, probe_id: otherTenantProbe.probe_uid },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('element/unknown-probe');
    expect(await count()).toBe(before);
  });

  it('refuses a probe on a database element', async () => {
    const element = await buildDatabaseElement(context.db, {
      database_id: tenants.a.database.id,
    });
    const response = await distributor.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: element.version, probe_id: ownProbe.probe_uid },
    });
    expect(response.statusCode).toBe(400);
    const read = await distributor.inject({ url: `/api/databaseElements/${element.id}` });
    expect(read.json().element).toMatchObject({
      probe_id: null,
      probe: null,
      probe_missing: false,
    });
  });
});

describe('a previously selected probe that is no longer the store’s', () => {
  it('is flagged missing on the read and in the list, and other fields still save', async () => {
    const moved = await buildProbe(context.db, { store_id: storeA1(), name: 'Sonde déplacée' });
    const element = await newElement({ name: 'Chambre négative', probe_id: moved.probe_uid });
    // The probe is given to another store (removeOwnership, then a new owner).
    await context.db
      .update(probes)
      .set({ store_id: tenants.a.stores[1]!.id })
      .where(eq(probes.id, moved.id));

    const read = await customer.inject({ url: `/api/storeElements/${element.id}` });
    expect(read.json().element).toMatchObject({
      probe_id: moved.probe_uid,
      probe: null,
      probe_missing: true,
    });

    const list = await customer.inject({
      url: `/api/stores/${storeA1()}/elements?tab=probes&includeInactive=true`,
    });
    const items = list.json().items as { id: string; probe_missing: boolean }[];
    expect(items.find((item) => item.id === element.id)?.probe_missing).toBe(true);
    const bound = await newElement({ name: 'Bound', probe_id: ownProbe.probe_uid });
    const again = await customer.inject({
      url: `/api/stores/${storeA1()}/elements?tab=probes&includeInactive=true`,
    });
    const boundItem = (again.json().items as { id: string; probe_missing: boolean }[]).find(
      (item) => item.id === bound.id,
    );
    expect(boundItem?.probe_missing).toBe(false);

    // Saving another field keeps the (missing) binding rather than refusing the save.
    const renamed = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${element.id}`,
      payload: { version: element.version, name: 'Chambre négative 2' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().element).toMatchObject({
      name: 'Chambre négative 2',
      probe_missing: true,
    });
  });
});
