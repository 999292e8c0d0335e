import { documentUploadOwner } from '@mise/shared/documents/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, stores } from '../../db/schema';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { png } from '../device/test-support';
import { encodeMetadata } from '../uploads/test-support';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
let managerB: Agent;
let baseUrl: string;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  // Store A1 is manager-owned (its documents are the manager's to see); A2 hides documents.
  await context.db
    .update(stores)
    .set({ manager_owned: true })
    .where(eq(stores.id, tenants.a.stores[0]!.id));
  await context.db
    .update(stores)
    .set({ manager_owned: true, hidden_extensions: ['documents'] })
    .where(eq(stores.id, tenants.a.stores[1]!.id));
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  managerB = await signIn(context.app, tenants.b.users.manager.email, testPassword);
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

const storeA1 = () => ({ kind: 'store' as const, id: tenants.a.stores[0]!.id });
const listUrl = (owner: { kind: string; id: string }, extra = '') =>
  `/api/documents?owner_kind=${owner.kind}&owner_id=${owner.id}${extra}`;

/** Uploads a whole file through tus in one PATCH; answers the creation and the outcome. */
async function upload(
  agent: Agent,
  owner: string,
  filename: string,
  data: Buffer,
  filetype = 'image/png',
  declaredLength = data.length,
) {
  const headers = {
    'tus-resumable': '1.0.0',
    cookie: agent.cookie,
    'x-csrf-token': agent.csrf,
  };
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(declaredLength),
      'upload-metadata': encodeMetadata({ purpose: 'document', owner, filename, filetype }),
    },
  });
  if (created.status !== 201) return { created, outcome: null };
  const location = created.headers.get('location')!;
  const patch = await fetch(`${baseUrl}${location}`, {
    method: 'PATCH',
    headers: {
      ...headers,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(data),
  });
  expect(patch.status).toBe(204);
  const status = await fetch(`${baseUrl}${location}`, { headers });
  return { created, outcome: (await status.json()) as { result: { documentId: string } | null } };
}

describe('document roots', () => {
  it('shows each role the folders spec 002 §6 gives it, skipping a store that hides documents', async () => {
    const rootsOf = async (agent: Agent) =>
      (await agent.inject({ method: 'GET', url: '/api/documents/roots' }))
        .json()
        .items.map(
          (item: { owner: { kind: string; id: string } }) => `${item.owner.kind}:${item.owner.id}`,
        )
        .sort();
    const a = tenants.a;
    expect(await rootsOf(distributorA)).toEqual(
      [`database:${a.database.id}`, `distributor:${a.distributor.id}`].sort(),
    );
    expect(await rootsOf(managerA)).toEqual(
      [`database:${a.database.id}`, `store:${a.stores[0]!.id}`].sort(),
    );
    expect(await rootsOf(customerA)).toEqual([`store:${a.stores[0]!.id}`]);
    const adminRoots = await rootsOf(admin);
    expect(adminRoots).toContain(`distributor:${tenants.b.distributor.id}`);
    expect(adminRoots).toContain(`store:${tenants.b.stores[0]!.id}`);
    expect(adminRoots).not.toContain(`store:${a.stores[1]!.id}`);

    // Outside them: 404, whatever the role.
    for (const [agent, owner] of [
      [customerA, { kind: 'database', id: a.database.id }],
      [managerA, { kind: 'distributor', id: a.distributor.id }],
      [managerA, { kind: 'store', id: a.stores[1]!.id }],
      [managerB, storeA1()],
      [distributorA, storeA1()],
    ] as const) {
      const response = await agent.inject({ method: 'GET', url: listUrl(owner) });
      expect(response.statusCode, `${owner.kind}`).toBe(404);
    }
  });
});

describe('folders and files', () => {
  it('creates, renames, locks, moves and deletes folders with the spec codes', async () => {
    const create = (agent: Agent, name: string, parentId: string | null = null) =>
      agent.inject({
        method: 'POST',
        url: '/api/documents/folders',
        payload: { owner: storeA1(), parent_id: parentId, name },
      });
    const procedures = await create(managerA, 'Procédures');
    expect(procedures.statusCode, procedures.body).toBe(200);
    const folder = procedures.json().item;
    expect(folder).toMatchObject({
      type: 'folder',
      name: 'Procédures',
      parent_id: null,
      locked: false,
    });
    const clash = await create(customerA, 'procédures');
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe('documents.file-exists');
    expect((await create(managerA, '../etc')).json().error.code).toBe('documents.invalid-name');
    expect((await create(managerB, 'Intrus')).statusCode).toBe(404);

    const archive = (await create(managerA, 'Archives')).json().item;
    const sub = (await create(managerA, '2025', folder.id)).json().item;
    expect(sub.path).toEqual(['Procédures']);

    const patch = (id: string, body: object) =>
      managerA.inject({ method: 'PATCH', url: `/api/documents/${id}`, payload: body });
    const locked = await patch(folder.id, { version: folder.version, locked: true });
    expect(locked.json().item.locked).toBe(true);
    const renameLocked = await patch(folder.id, { version: folder.version + 1, name: 'Autre' });
    expect(renameLocked.json().error.code).toBe('documents.locked');
    expect(
      (await managerA.inject({ method: 'DELETE', url: `/api/documents/${folder.id}` })).json().error
        .code,
    ).toBe('documents.locked');
    // A locked folder takes no new item.
    expect((await create(managerA, '2026', folder.id)).json().error.code).toBe('documents.locked');
    const stale = await patch(folder.id, { version: folder.version, locked: false });
    expect(stale.statusCode).toBe(409);
    const unlocked = (await patch(folder.id, { version: folder.version + 1, locked: false })).json()
      .item;

    // Moving a folder carries what is inside; a folder never goes inside itself.
    const moved = await patch(folder.id, { version: unlocked.version, parent_id: archive.id });
    expect(moved.statusCode, moved.body).toBe(200);
    const inside = await managerA.inject({
      method: 'GET',
      url: listUrl(storeA1(), `&parent_id=${folder.id}`),
    });
    expect(inside.json().items[0]).toMatchObject({ id: sub.id, path: ['Archives', 'Procédures'] });
    expect(inside.json().breadcrumb.map((crumb: { name: string }) => crumb.name)).toEqual([
      'Archives',
      'Procédures',
    ]);
    const loop = await patch(archive.id, { version: archive.version, parent_id: sub.id });
    expect(loop.json().error.code).toBe('documents.invalid-move');

    const removed = await managerA.inject({
      method: 'DELETE',
      url: `/api/documents/${archive.id}`,
    });
    expect(removed.statusCode).toBe(204);
    const left = await context.db
      .select()
      .from(documents)
      .where(eq(documents.owner_id, storeA1().id));
    expect(left.map((row) => row.id)).not.toContain(sub.id);
  });

  it('uploads through tus into a folder, serves it with ranges, refuses a taken name, a locked or foreign folder and 500 MB', async () => {
    const folder = (
      await managerA.inject({
        method: 'POST',
        url: '/api/documents/folders',
        payload: { owner: storeA1(), parent_id: null, name: 'Photos' },
      })
    ).json().item;
    const owner = documentUploadOwner(storeA1(), folder.id);
    const { created, outcome } = await upload(managerA, owner, 'Chambre froide.png', png);
    expect(created.status).toBe(201);
    const documentId = outcome!.result!.documentId;
    const list = await customerA.inject({
      method: 'GET',
      url: listUrl(storeA1(), `&parent_id=${folder.id}`),
    });
    const item = list.json().items[0];
    expect(item).toMatchObject({
      id: documentId,
      name: 'Chambre froide.png',
      type: 'file',
      length: png.length,
      content_type: 'image/png',
      url: `/api/documents/${documentId}/file`,
    });

    const file = await customerA.inject({ method: 'GET', url: item.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(/^inline/);
    expect(file.rawPayload.equals(png)).toBe(true);
    const part = await customerA.inject({
      method: 'GET',
      url: item.url,
      headers: { range: 'bytes=0-7' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${png.length}`);
    expect((await managerB.inject({ method: 'GET', url: item.url })).statusCode).toBe(404);

    // A text claiming to be a PNG is kept as a download, never shown inline.
    const fake = await upload(
      managerA,
      owner,
      'fake.png',
      Buffer.from('<script>alert(1)</script>'),
    );
    const fakeFile = await managerA.inject({
      method: 'GET',
      url: `/api/documents/${fake.outcome!.result!.documentId}/file`,
    });
    expect(fakeFile.headers['content-type']).toBe('application/octet-stream');
    expect(fakeFile.headers['content-disposition']).toMatch(/^attachment/);

    const again = await upload(managerA, owner, 'chambre FROIDE.png', png);
    expect(again.created.status).toBe(409);
    expect(((await again.created.json()) as { error: { code: string } }).error.code).toBe(
      'documents.file-exists',
    );
    const tooBig = await upload(
      managerA,
      owner,
      'film.mp4',
      png,
      'video/mp4',
      500 * 1024 * 1024 + 1,
    );
    expect(tooBig.created.status).toBe(413);
    const foreign = await upload(managerB, owner, 'intrus.png', png);
    expect(foreign.created.status).toBe(404);
    const asDistributor = await upload(distributorA, owner, 'x.png', png);
    expect(asDistributor.created.status).toBe(404);

    // Deleting the file removes the stored object too.
    const [row] = await context.db.select().from(documents).where(eq(documents.id, documentId));
    expect(await context.app.deps.storage.stat(row!.storage_key!)).not.toBeNull();
    await managerA.inject({ method: 'DELETE', url: `/api/documents/${documentId}` });
    expect(await context.app.deps.storage.stat(row!.storage_key!)).toBeNull();
  });

  it('pages a large folder in name order, folders first, and searches below a folder', async () => {
    const owner = { kind: 'database' as const, id: tenants.a.database.id };
    const parent = (
      await distributorA.inject({
        method: 'POST',
        url: '/api/documents/folders',
        payload: { owner, parent_id: null, name: 'Fiches' },
      })
    ).json().item;
    await context.db.insert(documents).values(
      Array.from({ length: 250 }, (_, index) => ({
        owner_kind: 'database' as const,
        owner_id: owner.id,
        database_id: owner.id,
        parent_id: parent.id,
        path: `/${parent.id}/`,
        name: index % 50 === 0 ? `Dossier ${index}` : `fiche-${String(index).padStart(3, '0')}.pdf`,
        type: index % 50 === 0 ? ('folder' as const) : ('file' as const),
        storage_key: index % 50 === 0 ? null : `databases/${owner.id}/documents/x/${index}.pdf`,
        size: index % 50 === 0 ? null : 10,
      })),
    );
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await managerA.inject({
        method: 'GET',
        url: listUrl(owner, `&parent_id=${parent.id}${cursor ? `&cursor=${cursor}` : ''}`),
      });
      expect(response.statusCode, response.body).toBe(200);
      names.push(...response.json().items.map((item: { name: string }) => item.name));
      cursor = response.json().next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toHaveLength(250);
    expect(names.slice(0, 5)).toEqual([
      'Dossier 0',
      'Dossier 100',
      'Dossier 150',
      'Dossier 200',
      'Dossier 50',
    ]);
    expect(names[5]).toBe('fiche-001.pdf');
    expect(names.at(-1)).toBe('fiche-249.pdf');

    const search = await managerA.inject({
      method: 'GET',
      url: listUrl(owner, `&search=fiche-24`),
    });
    expect(search.json().items.map((item: { name: string }) => item.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `fiche-24${index}.pdf`),
    );
    expect(search.json().items[0].path).toEqual(['Fiches']);
  });
});
