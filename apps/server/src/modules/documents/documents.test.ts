import { documentUploadOwner } from '@mise/shared/documents/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, stores } from '../../db/schema';
import { createLocalVideoHost, type VideoHost } from '../../platform/integrations/video-host';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { asDevice, buildDevice, png } from '../device/test-support';
import { encodeMetadata } from '../uploads/test-support';

/** The local video host (no network), with the removals it was asked for; it may be made to fail. */
const localVideoHost = createLocalVideoHost();
const videoRemovals: string[] = [];
let isVideoHostFailing = false;
const videoHost: VideoHost = {
  ...localVideoHost,
  async remove(videoId) {
    videoRemovals.push(videoId);
    if (isVideoHostFailing) throw new Error('video host unreachable');
    return localVideoHost.remove(videoId);
  },
};

const context = useTestApp({ integrations: { videoHost } });

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
      isVideo: false,
      videoId: null,
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

/** A small MP4 (its `ftyp` box is what the upload checks), then numbered bytes. */
const mp4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42', 'ascii'),
  Buffer.from(Array.from({ length: 500 }, (_, index) => index % 251)),
]);

describe('videos (spec 002 §3, §7: placeholder metadata, the local video host)', () => {
  it('records the video id and link, plays with ranges on the back-office and the tablet, and removes it from the host', async () => {
    const folder = (
      await managerA.inject({
        method: 'POST',
        url: '/api/documents/folders',
        payload: { owner: storeA1(), parent_id: null, name: 'Formations' },
      })
    ).json().item;
    const owner = documentUploadOwner(storeA1(), folder.id);
    // No extension in the name: the stored object takes its checked type's.
    const { outcome } = await upload(managerA, owner, 'Nettoyage friteuse', mp4, 'video/mp4');
    const documentId = outcome!.result!.documentId;
    const [row] = await context.db.select().from(documents).where(eq(documents.id, documentId));
    expect(row!.storage_key).toBe(
      `stores/${storeA1().id}/documents/${documentId}/Nettoyage-friteuse.mp4`,
    );
    const key = row!.storage_key!;

    const list = await customerA.inject({
      method: 'GET',
      url: listUrl(storeA1(), `&parent_id=${folder.id}`),
    });
    const item = list.json().items[0];
    expect(item).toMatchObject({
      id: documentId,
      name: 'Nettoyage friteuse',
      isVideo: true,
      videoId: key,
      url: `/api/files/${key}`,
      length: mp4.length,
      content_type: 'video/mp4',
    });
    expect(row).toMatchObject({ video_id: key, video_url: `/api/files/${key}` });

    // The back-office's player seeks: a range answers 206 with exactly those bytes.
    const part = await customerA.inject({
      method: 'GET',
      url: item.url,
      headers: { range: 'bytes=100-149' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.headers['content-range']).toBe(`bytes 100-149/${mp4.length}`);
    expect(part.rawPayload.equals(mp4.subarray(100, 150))).toBe(true);
    const whole = await customerA.inject({ method: 'GET', url: item.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(mp4)).toBe(true);
    // The document's own address still serves it, with ranges too.
    const tail = await managerA.inject({
      method: 'GET',
      url: `/api/documents/${documentId}/file`,
      headers: { range: 'bytes=-16' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(mp4.subarray(mp4.length - 16))).toBe(true);
    // Another tenant never reaches it.
    expect((await managerB.inject({ method: 'GET', url: item.url })).statusCode).toBe(404);

    // The store's tablet plays it with its device token (no outside service).
    const tablet = await buildDevice(context.db, storeA1().id);
    const onTablet = await asDevice(
      context.app,
      tablet.token,
    )({ method: 'GET', url: item.url, headers: { range: 'bytes=0-11' } });
    expect(onTablet.statusCode).toBe(206);
    expect(onTablet.rawPayload.equals(mp4.subarray(0, 12))).toBe(true);
    const otherStore = await buildDevice(context.db, tenants.b.stores[0]!.id);
    expect(
      (await asDevice(context.app, otherStore.token)({ method: 'GET', url: item.url })).statusCode,
    ).toBe(404);

    // Deleting the document asks the host to remove the video; the stored object goes too.
    videoRemovals.length = 0;
    const deleted = await managerA.inject({
      method: 'DELETE',
      url: `/api/documents/${documentId}`,
    });
    expect(deleted.statusCode).toBe(204);
    expect(videoRemovals).toEqual([key]);
    expect(await context.app.deps.storage.stat(key)).toBeNull();
    expect((await customerA.inject({ method: 'GET', url: item.url })).statusCode).toBe(404);
  });

  it('deletes a folder holding videos even when the host fails to remove them (only logged)', async () => {
    const folder = (
      await managerA.inject({
        method: 'POST',
        url: '/api/documents/folders',
        payload: { owner: storeA1(), parent_id: null, name: 'Vidéos anciennes' },
      })
    ).json().item;
    const owner = documentUploadOwner(storeA1(), folder.id);
    const first = await upload(managerA, owner, 'accueil.mp4', mp4, 'video/mp4');
    const second = await upload(managerA, owner, 'plonge.mp4', mp4, 'video/mp4');
    const keys = (
      await context.db
        .select({ key: documents.video_id })
        .from(documents)
        .where(eq(documents.parent_id, folder.id))
    ).map((row) => row.key);
    expect(keys).toHaveLength(2);
    expect(keys).toContain(
      `stores/${storeA1().id}/documents/${first.outcome!.result!.documentId}/accueil.mp4`,
    );
    expect(keys).toContain(
      `stores/${storeA1().id}/documents/${second.outcome!.result!.documentId}/plonge.mp4`,
    );

    videoRemovals.length = 0;
    isVideoHostFailing = true;
    try {
      const deleted = await managerA.inject({
        method: 'DELETE',
        url: `/api/documents/${folder.id}`,
      });
      expect(deleted.statusCode).toBe(204);
    } finally {
      isVideoHostFailing = false;
    }
    expect([...videoRemovals].sort()).toEqual([...keys].sort());
    const left = await context.db
      .select({ id: documents.id })
      .from(documents)
      .where(eq(documents.parent_id, folder.id));
    expect(left).toEqual([]);
    for (const key of keys) {
      expect(await context.app.deps.storage.stat(key!)).toBeNull();
    }
  });
});
