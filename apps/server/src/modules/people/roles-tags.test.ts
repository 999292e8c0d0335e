import { featureKeys } from '@mise/shared/people/constants';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, employeeRoles, storeTagLinks, storeTags } from '../../db/schema';
import { buildStore, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

const rolesUrl = (databaseId: string) => `/api/databases/${databaseId}/employeeRoles`;
const tagsUrl = (databaseId: string) => `/api/databases/${databaseId}/storeTags`;

async function rolesOf(databaseId: string) {
  return context.db
    .select()
    .from(employeeRoles)
    .where(eq(employeeRoles.database_id, databaseId))
    .orderBy(employeeRoles.name);
}

async function tagsOf(databaseId: string) {
  return context.db
    .select()
    .from(storeTags)
    .where(eq(storeTags.database_id, databaseId))
    .orderBy(storeTags.name);
}

async function linksOf(tagId: string) {
  const rows = await context.db
    .select({ store_id: storeTagLinks.store_id })
    .from(storeTagLinks)
    .where(eq(storeTagLinks.tag_id, tagId));
  return rows.map((row) => row.store_id).sort();
}

describe('employee roles', () => {
  it('answers 401 to an anonymous caller and 404 for a database of another tenant', async () => {
    const anonymous = await context.app.inject({
      method: 'GET',
      url: rolesUrl(tenants.a.database.id),
    });
    expect(anonymous.statusCode).toBe(401);
    const put = await context.app.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: { roles: [] },
    });
    expect(put.statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const read = await agent.inject({ method: 'GET', url: rolesUrl(tenants.b.database.id) });
      expect(read.statusCode).toBe(404);
      const write = await agent.inject({
        method: 'PUT',
        url: rolesUrl(tenants.b.database.id),
        payload: { roles: [{ name: 'Intrus', active: true, features_permissions: {} }] },
      });
      expect(write.statusCode).toBe(404);
    }
    expect(await rolesOf(tenants.b.database.id)).toEqual([]);
  });

  it('lets the manager save roles and offers only the features the database does not hide', async () => {
    await context.db
      .update(databases)
      .set({ hidden_modules: ['oils'], hidden_extensions: ['shop'] })
      .where(eq(databases.id, tenants.a.database.id));
    const saved = await managerA.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: {
        roles: [
          { name: ' Cuisinier ', active: true, features_permissions: { temperatures: true } },
          { name: 'Plongeur', active: true, features_permissions: { documents: true } },
        ],
      },
    });
    expect(saved.statusCode).toBe(200);
    const body = saved.json();
    expect(body.editable).toBe(true);
    expect(body.available_features).toEqual(
      featureKeys.filter((key) => key !== 'oils' && key !== 'shop'),
    );
    expect(body.items.map((role: { name: string }) => role.name)).toEqual([
      'Cuisinier',
      'Plongeur',
    ]);
    expect(body.items[0].features_permissions).toEqual({ temperatures: true });

    // The customer reads the roles (its role dropdown) but may not save them.
    const read = await customerA.inject({ method: 'GET', url: rolesUrl(tenants.a.database.id) });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    expect(read.json().items).toHaveLength(2);
    const refused = await customerA.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: { roles: [{ name: 'Client', active: true, features_permissions: {} }] },
    });
    expect(refused.statusCode).toBe(403);
    expect(await rolesOf(tenants.a.database.id)).toHaveLength(2);
  });

  it('refuses a hidden feature, a blank name and an unknown id, writing nothing', async () => {
    const before = await rolesOf(tenants.a.database.id);
    const [cook] = before;
    const attempts = [
      {
        status: 400,
        code: 'employee-role/hidden-feature',
        roles: [
          { id: cook!.id, name: 'Chef', active: true, features_permissions: {} },
          { name: 'Friteur', active: true, features_permissions: { oils: true } },
        ],
      },
      {
        status: 400,
        code: 'employee-role/invalid-name',
        roles: [
          { id: cook!.id, name: 'Chef', active: true, features_permissions: {} },
          { name: '   ', active: true, features_permissions: {} },
        ],
      },
      {
        status: 404,
        code: 'not-found',
        roles: [
          { id: cook!.id, name: 'Chef', active: true, features_permissions: {} },
          { id: crypto.randomUUID(), name: 'Fantôme', active: true, features_permissions: {} },
        ],
      },
      {
        status: 400,
        code: 'validation/invalid-input',
        roles: [{ name: 'Inconnu', active: true, features_permissions: { cleaning: true } }],
      },
    ];
    for (const attempt of attempts) {
      const response = await distributorA.inject({
        method: 'PUT',
        url: rolesUrl(tenants.a.database.id),
        payload: { roles: attempt.roles },
      });
      expect(response.statusCode, attempt.code).toBe(attempt.status);
      expect(response.json().error.code).toBe(attempt.code);
    }
    expect(await rolesOf(tenants.a.database.id)).toEqual(before);
  });

  it('refuses a role id of another database with 404', async () => {
    const [roleB] = await context.db
      .insert(employeeRoles)
      .values({ database_id: tenants.b.database.id, name: 'Rôle B' })
      .returning();
    const response = await admin.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: {
        roles: [{ id: roleB!.id, name: 'Volé', active: true, features_permissions: {} }],
      },
    });
    expect(response.statusCode).toBe(404);
    const [row] = await context.db
      .select()
      .from(employeeRoles)
      .where(eq(employeeRoles.id, roleB!.id));
    expect(row!.name).toBe('Rôle B');
    expect(row!.database_id).toBe(tenants.b.database.id);
  });

  it('renames, deactivates and keeps a grant the database has hidden since', async () => {
    const [cook, dish] = await rolesOf(tenants.a.database.id);
    // The database hides temperatures after the cook got it.
    await context.db
      .update(databases)
      .set({ hidden_modules: ['oils', 'temperatures'] })
      .where(eq(databases.id, tenants.a.database.id));
    const response = await admin.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: {
        roles: [
          {
            id: cook!.id,
            name: 'Chef',
            active: true,
            features_permissions: { temperatures: true },
          },
          { id: dish!.id, name: 'Plongeur', active: false, features_permissions: {} },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const after = await rolesOf(tenants.a.database.id);
    expect(after.map((role) => [role.name, role.active])).toEqual([
      ['Chef', true],
      ['Plongeur', false],
    ]);
    expect(after[0]!.features_permissions).toEqual({ temperatures: true });
    expect(response.json().available_features).not.toContain('temperatures');
    // Granting it to another role is refused.
    const refused = await admin.inject({
      method: 'PUT',
      url: rolesUrl(tenants.a.database.id),
      payload: {
        roles: [
          {
            id: dish!.id,
            name: 'Plongeur',
            active: false,
            features_permissions: { temperatures: true },
          },
        ],
      },
    });
    expect(refused.json().error.code).toBe('employee-role/hidden-feature');
    await context.db
      .update(databases)
      .set({ hidden_modules: [], hidden_extensions: [] })
      .where(eq(databases.id, tenants.a.database.id));
  });
});

describe('store tags', () => {
  it('answers 401 to an anonymous caller, 404 for another tenant and 403 to a customer write', async () => {
    const anonymous = await context.app.inject({
      method: 'GET',
      url: tagsUrl(tenants.a.database.id),
    });
    expect(anonymous.statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const read = await agent.inject({ method: 'GET', url: tagsUrl(tenants.b.database.id) });
      expect(read.statusCode).toBe(404);
      const write = await agent.inject({
        method: 'PUT',
        url: tagsUrl(tenants.b.database.id),
        payload: { tags: [{ name: 'Intrus', active: true, store_ids: [] }] },
      });
      expect(write.statusCode).toBe(404);
    }
    const refused = await customerA.inject({
      method: 'PUT',
      url: tagsUrl(tenants.a.database.id),
      payload: { tags: [{ name: 'Client', active: true, store_ids: [] }] },
    });
    expect(refused.statusCode).toBe(403);
    expect(await tagsOf(tenants.a.database.id)).toEqual([]);
    expect(await tagsOf(tenants.b.database.id)).toEqual([]);
  });

  it('saves tags with their stores and lists the database stores', async () => {
    const [storeA1, storeA2] = tenants.a.stores;
    const response = await managerA.inject({
      method: 'PUT',
      url: tagsUrl(tenants.a.database.id),
      payload: {
        tags: [
          { name: 'Nord', active: true, store_ids: [storeA1!.id, storeA2!.id, storeA1!.id] },
          { name: 'Sud', active: true, store_ids: [] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.editable).toBe(true);
    expect(body.items.map((tag: { name: string }) => tag.name)).toEqual(['Nord', 'Sud']);
    expect([...body.items[0].store_ids].sort()).toEqual([storeA1!.id, storeA2!.id].sort());
    expect(body.stores).toEqual(
      [storeA1!, storeA2!].map((store) => ({ id: store.id, name: store.name, city: store.city })),
    );

    // A customer reads the tags with its own stores only.
    const read = await customerA.inject({ method: 'GET', url: tagsUrl(tenants.a.database.id) });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    expect(read.json().stores.map((store: { id: string }) => store.id)).toEqual([storeA1!.id]);
    expect(read.json().items[0].store_ids).toEqual([storeA1!.id]);
  });

  it('refuses duplicate names among active tags (409) and writes nothing', async () => {
    const before = await tagsOf(tenants.a.database.id);
    const north = before.find((tag) => tag.name === 'Nord')!;
    const linksBefore = await linksOf(north.id);
    const attempts = [
      // Two new tags with the same name, ignoring case.
      [
        { name: 'Est', active: true, store_ids: [] },
        { name: 'EST ', active: true, store_ids: [] },
      ],
      // A new tag named like an active tag not given.
      [{ name: 'sud', active: true, store_ids: [] }],
      // A rename onto another active tag, with a link change that must not be written.
      [{ id: north.id, name: 'Sud', active: true, store_ids: [] }],
    ];
    for (const tags of attempts) {
      const response = await distributorA.inject({
        method: 'PUT',
        url: tagsUrl(tenants.a.database.id),
        payload: { tags },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        code: 'store-tag/duplicate-name',
        message: 'Deux tags ne peuvent pas avoir le même nom',
      });
    }
    expect(await tagsOf(tenants.a.database.id)).toEqual(before);
    expect(await linksOf(north.id)).toEqual(linksBefore);
  });

  it('refuses a blank name, a store of another database and an unknown tag id', async () => {
    const before = await tagsOf(tenants.a.database.id);
    const elsewhere = await buildStore(context.db, { distributor_id: tenants.a.distributor.id });
    const attempts = [
      {
        status: 400,
        code: 'store-tag/invalid-name',
        tags: [{ name: ' ', active: true, store_ids: [] }],
      },
      {
        status: 400,
        code: 'store-tag/unknown-store',
        tags: [{ name: 'Ouest', active: true, store_ids: [elsewhere.id] }],
      },
      {
        status: 400,
        code: 'store-tag/unknown-store',
        tags: [{ name: 'Ouest', active: true, store_ids: [tenants.b.stores[0]!.id] }],
      },
      {
        status: 404,
        code: 'not-found',
        tags: [{ id: crypto.randomUUID(), name: 'Ouest', active: true, store_ids: [] }],
      },
    ];
    for (const attempt of attempts) {
      const response = await admin.inject({
        method: 'PUT',
        url: tagsUrl(tenants.a.database.id),
        payload: { tags: attempt.tags },
      });
      expect(response.statusCode, attempt.code).toBe(attempt.status);
      expect(response.json().error.code).toBe(attempt.code);
    }
    expect(await tagsOf(tenants.a.database.id)).toEqual(before);
  });

  it('marks a removed tag inactive, frees its name and replaces the links of the tags given', async () => {
    const [storeA1, storeA2] = tenants.a.stores;
    const tags = await tagsOf(tenants.a.database.id);
    const north = tags.find((tag) => tag.name === 'Nord')!;
    const south = tags.find((tag) => tag.name === 'Sud')!;
    const response = await admin.inject({
      method: 'PUT',
      url: tagsUrl(tenants.a.database.id),
      payload: {
        tags: [
          { id: north.id, name: 'Nord', active: false, store_ids: [storeA1!.id] },
          { id: south.id, name: 'Sud', active: true, store_ids: [storeA2!.id] },
          { name: 'nord', active: true, store_ids: [storeA2!.id] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const after = await tagsOf(tenants.a.database.id);
    expect(after).toHaveLength(3);
    expect(after.find((tag) => tag.id === north.id)!.active).toBe(false);
    expect(await linksOf(north.id)).toEqual([storeA1!.id]);
    expect(await linksOf(south.id)).toEqual([storeA2!.id]);
    const fresh = after.find((tag) => tag.name === 'nord')!;
    expect(fresh.active).toBe(true);
    expect(await linksOf(fresh.id)).toEqual([storeA2!.id]);
  });

  it('lets two tags swap names in one save', async () => {
    const tags = (await tagsOf(tenants.a.database.id)).filter((tag) => tag.active);
    const south = tags.find((tag) => tag.name === 'Sud')!;
    const north = tags.find((tag) => tag.name === 'nord')!;
    const response = await admin.inject({
      method: 'PUT',
      url: tagsUrl(tenants.a.database.id),
      payload: {
        tags: [
          { id: south.id, name: 'nord', active: true, store_ids: [] },
          { id: north.id, name: 'Sud', active: true, store_ids: [] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const [southRow] = await context.db
      .select()
      .from(storeTags)
      .where(and(eq(storeTags.id, south.id)));
    expect(southRow!.name).toBe('nord');
  });

  it('lets one of two concurrent saves of the same new name win; the other answers 409', async () => {
    // On PostgreSQL both may pass the check and the partial unique index decides.
    const save = () =>
      admin.inject({
        method: 'PUT',
        url: tagsUrl(tenants.a.database.id),
        payload: { tags: [{ name: 'Centre', active: true, store_ids: [] }] },
      });
    const responses = await Promise.all([save(), save(), save()]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    for (const response of responses.filter((item) => item.statusCode === 409)) {
      expect(response.json().error.code).toBe('store-tag/duplicate-name');
    }
    const centres = (await tagsOf(tenants.a.database.id)).filter(
      (tag) => tag.active && tag.name.toLowerCase() === 'centre',
    );
    expect(centres).toHaveLength(1);
  });
});
