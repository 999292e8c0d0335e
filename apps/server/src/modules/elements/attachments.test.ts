import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseElements, elementAttachments, storageDeletions } from '../../db/schema';
import { type StockImages, StockImagesError } from '../../platform/integrations/stock-images';
import { createLocalStorage } from '../../platform/storage';
import {
  buildDatabaseElement,
  buildElementType,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { flushStorageDeletions } from '../files/storage-deletions';
import {
  attachmentVersionQuery,
  multipart,
  pdf,
  pdfUpload,
  png,
  pngUpload,
  versionQuery,
} from './test-support';

const stockDownloads: string[] = [];
const stockImages: StockImages = {
  configured: true,
  search: async () => [],
  download: async (url) => {
    if (url.includes('refused')) throw new StockImagesError('refused', 'Not the provider');
    stockDownloads.push(url);
    if (url.endsWith('.txt')) return { data: Buffer.from('hello'), contentType: 'image/png' };
    return { data: png, contentType: 'image/png' };
  },
};
const context = useTestApp({ integrations: { stockImages } });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let customer: Agent;

async function databaseRow(id: string) {
  const [row] = await context.db.select().from(databaseElements).where(eq(databaseElements.id, id));
  return row!;
}

const fileExists = (url: string) =>
  existsSync(join(context.config.DATA_DIR, 'files', url.replace(/^\/api\/files\//, '')));

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

describe('encyclopedia attachments', () => {
  it('uploads, renames, reorders, downloads and deletes after save', async () => {
    const databaseId = tenants.a.database.id;
    const element = await buildDatabaseElement(context.db, { database_id: databaseId });
    const upload = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments${await versionQuery(context.db, 'database', element.id)}`,
      ...pdfUpload('Fiche technique é.pdf'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const [sheet] = upload.json().element.attachments;
    expect(upload.json().attachment).toEqual(sheet);
    expect(sheet).toMatchObject({
      name: 'Fiche technique é.pdf',
      type: 'pdf',
      size: pdf.length,
      index: 0,
      inherited: false,
    });
    expect(sheet.url).toBe(
      `/api/files/databases/${databaseId}/element_attachments/${element.id}/${sheet.id}.pdf`,
    );
    expect(fileExists(sheet.url)).toBe(true);

    const served = await customer.inject({ method: 'GET', url: sheet.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    const picture = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments${await versionQuery(context.db, 'database', element.id)}`,
      ...pngUpload(),
    });
    expect(picture.statusCode, picture.body).toBe(200);
    const second = picture.json().element.attachments[1];
    expect(second).toMatchObject({ type: 'image', index: 1 });

    const renamed = await admin.inject({
      method: 'PATCH',
      url: `/api/elementAttachments/${sheet.id}${await attachmentVersionQuery(context.db, sheet.id)}`,
      payload: { name: 'Fiche HACCP' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().element.attachments[0].name).toBe('Fiche HACCP');

    const download = await customer.inject({
      method: 'GET',
      url: `/api/elementAttachments/${sheet.id}/download`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Fiche HACCP.pdf"; filename*=UTF-8''Fiche%20HACCP.pdf`,
    );
    expect(download.rawPayload.equals(pdf)).toBe(true);

    // Reorder and rename through the element save.
    const version = renamed.json().element.version;
    const reordered = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: {
        version,
        attachments: [
          { id: second.id, name: 'Photo' },
          { id: sheet.id, name: 'Fiche' },
        ],
      },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(
      reordered
        .json()
        .element.attachments.map((item: { name: string; index: number }) => [
          item.name,
          item.index,
        ]),
    ).toEqual([
      ['Photo', 0],
      ['Fiche', 1],
    ]);

    // Left out of the list: deleted, and its file removed once saved.
    const pruned = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: version + 1, attachments: [{ id: second.id, name: 'Photo' }] },
    });
    expect(pruned.statusCode, pruned.body).toBe(200);
    expect(pruned.json().element.attachments.map((item: { id: string }) => item.id)).toEqual([
      second.id,
    ]);
    expect(fileExists(sheet.url)).toBe(false);
    expect(fileExists(second.url)).toBe(true);
    expect(await context.db.select().from(storageDeletions)).toEqual([]);
    const gone = await customer.inject({
      method: 'GET',
      url: `/api/elementAttachments/${sheet.id}/download`,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses a wrong file type and stores nothing', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    for (const file of [
      { data: Buffer.from('<html></html>'), filename: 'page.html', contentType: 'text/html' },
      { data: png, filename: 'fake.pdf', contentType: 'application/pdf' },
      { data: Buffer.from('%PDF-1.4 not a png'), filename: 'fake.png', contentType: 'image/png' },
    ]) {
      const response = await admin.inject({
        method: 'POST',
        url: `/api/databaseElements/${element.id}/attachments${await versionQuery(context.db, 'database', element.id)}`,
        ...multipart(file),
      });
      expect(response.statusCode, file.filename).toBe(415);
      expect(response.json().error.code).toBe('file/unsupported-type');
    }
    const rows = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.database_element_id, element.id));
    expect(rows).toEqual([]);
    const folder = join(
      context.config.DATA_DIR,
      'files',
      `databases/${tenants.a.database.id}/element_attachments/${element.id}`,
    );
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });

  it('shows origin attachments read-only at store level and refuses uploads when locked', async () => {
    const databaseId = tenants.a.database.id;
    const storeId = tenants.a.stores[0]!.id;
    const type = await buildElementType(context.db, { database_id: databaseId });
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseId,
      type_id: type.id,
      locks: { ...defaultElementLocks, attachments: false },
    });
    const originUpload = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${origin.id}/attachments${await versionQuery(context.db, 'database', origin.id)}`,
      ...pdfUpload(),
    });
    expect(originUpload.statusCode).toBe(200);
    const override = await buildStoreElement(context.db, {
      store_id: storeId,
      origin_id: origin.id,
    });
    const own = await customer.inject({
      method: 'POST',
      url: `/api/storeElements/${override.id}/attachments${await versionQuery(context.db, 'store', override.id)}`,
      ...pngUpload(),
    });
    expect(own.statusCode, own.body).toBe(200);
    const attachments = own.json().element.attachments;
    expect(attachments.map((item: { inherited: boolean }) => item.inherited)).toEqual([
      true,
      false,
    ]);
    expect(attachments[1].url).toMatch(
      new RegExp(
        `^/api/files/stores/${storeId}/element_attachments/${override.id}/[0-9a-f-]+\\.png$`,
      ),
    );
    expect(own.json().element.field_states.attachments).toBe('overridden');
    // An inherited attachment is not the store's to rename or list.
    const rename = await customer.inject({
      method: 'PATCH',
      url: `/api/elementAttachments/${attachments[0].id}${await attachmentVersionQuery(context.db, attachments[0].id)}`,
      payload: { name: 'Mine' },
    });
    expect(rename.statusCode).toBe(403);
    const inheritedInList = await customer.inject({
      method: 'PATCH',
      url: `/api/storeElements/${override.id}`,
      payload: {
        version: own.json().element.version,
        attachments: [{ id: attachments[0].id, name: 'x' }],
      },
    });
    expect(inheritedInList.json().error.code).toBe('attachment/unknown-attachment');

    // Locked by the origin: uploads refused, nothing stored.
    const lockedOrigin = await buildDatabaseElement(context.db, {
      database_id: databaseId,
      type_id: type.id,
    });
    const lockedOverride = await buildStoreElement(context.db, {
      store_id: storeId,
      origin_id: lockedOrigin.id,
    });
    const refused = await customer.inject({
      method: 'POST',
      url: `/api/storeElements/${lockedOverride.id}/attachments${await versionQuery(context.db, 'store', lockedOverride.id)}`,
      ...pdfUpload(),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('element/field-locked');
    const rows = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.store_element_id, lockedOverride.id));
    expect(rows).toEqual([]);
  });
});

describe('illustrations', () => {
  it('stores pictures under element_pictures, replaces and clears them', async () => {
    const databaseId = tenants.a.database.id;
    const element = await buildDatabaseElement(context.db, { database_id: databaseId });
    const first = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration${await versionQuery(context.db, 'database', element.id)}`,
      ...pngUpload(),
    });
    expect(first.statusCode, first.body).toBe(200);
    const firstUrl = first.json().element.illustration_url as string;
    expect(firstUrl).toMatch(
      new RegExp(
        `^/api/files/databases/${databaseId}/element_pictures/${element.id}/[0-9a-f]+\\.png$`,
      ),
    );
    expect(fileExists(firstUrl)).toBe(true);
    const allergen = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/allergenIllustration${await versionQuery(context.db, 'database', element.id)}`,
      ...pngUpload(),
    });
    expect(allergen.json().element.allergen_illustration_url).toMatch(
      new RegExp(`/element_pictures/${element.id}/allergen_illustration/[0-9a-f]+\\.png$`),
    );
    const notImage = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration${await versionQuery(context.db, 'database', element.id)}`,
      ...pdfUpload(),
    });
    expect(notImage.statusCode).toBe(415);

    const stock = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration/stock${await versionQuery(context.db, 'database', element.id)}`,
      payload: { url: 'https://stock.test/1.png' },
    });
    expect(stock.statusCode, stock.body).toBe(200);
    expect(stockDownloads).toContain('https://stock.test/1.png');
    const stockUrl = stock.json().element.illustration_url as string;
    expect(stockUrl).not.toBe(firstUrl);
    expect(fileExists(firstUrl)).toBe(false);
    expect(fileExists(stockUrl)).toBe(true);
    const bad = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration/stock${await versionQuery(context.db, 'database', element.id)}`,
      payload: { url: 'https://stock.test/1.txt' },
    });
    expect(bad.statusCode).toBe(415);

    // Duplicate copies the files.
    const withSheet = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments${await versionQuery(context.db, 'database', element.id)}`,
      ...pdfUpload(),
    });
    const sheet = withSheet.json().element.attachments[0];
    const copy = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/duplicate`,
    });
    const copied = copy.json().element;
    expect(copied.illustration_url).toMatch(`/element_pictures/${copied.id}/`);
    expect(fileExists(copied.illustration_url)).toBe(true);
    expect(copied.attachments).toHaveLength(1);
    expect(copied.attachments[0].id).not.toBe(sheet.id);
    expect(copied.attachments[0].url).toMatch(`/element_attachments/${copied.id}/`);
    expect(fileExists(copied.attachments[0].url)).toBe(true);
    expect(fileExists(sheet.url)).toBe(true);

    const cleared = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: withSheet.json().element.version, illustration_url: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().element.illustration_url).toBeNull();
    expect(fileExists(stockUrl)).toBe(false);
    expect(fileExists(copied.illustration_url)).toBe(true);
  });

  it('answers stock-images/not-configured without a provider, and 400 to a refused address', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const refused = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration/stock${await versionQuery(context.db, 'database', element.id)}`,
      payload: { url: 'http://10.0.0.1/refused.png' },
    });
    expect(refused.statusCode).toBe(400);
    expect((await databaseRow(element.id)).illustration_url).toBeNull();
    stockImages.configured = false;
    try {
      const pick = await admin.inject({
        method: 'POST',
        url: `/api/databaseElements/${element.id}/illustration/stock${await versionQuery(context.db, 'database', element.id)}`,
        payload: { url: 'https://stock.test/1.png' },
      });
      expect(pick.statusCode).toBe(503);
      expect(pick.json().error.code).toBe('stock-images/not-configured');
    } finally {
      stockImages.configured = true;
    }
  });
});

describe('/api/files for catalogue files', () => {
  it("serves a store attachment and an inherited database picture to the store's customer only", async () => {
    const otherCustomer = await signIn(context.app, tenants.b.users.customer.email, testPassword);
    const databaseId = tenants.a.database.id;
    const storeId = tenants.a.stores[0]!.id;
    const type = await buildElementType(context.db, { database_id: databaseId });
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseId,
      type_id: type.id,
      locks: { ...defaultElementLocks, attachments: false },
    });
    const picture = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${origin.id}/illustration?version=${origin.version}`,
      ...pngUpload(),
    });
    expect(picture.statusCode, picture.body).toBe(200);
    const override = await buildStoreElement(context.db, {
      store_id: storeId,
      origin_id: origin.id,
    });
    const upload = await customer.inject({
      method: 'POST',
      url: `/api/storeElements/${override.id}/attachments?version=${override.version}`,
      ...pdfUpload(),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const storeElement = upload.json().element;
    expect(storeElement.field_states.illustration_url).toBe('locked');
    const inheritedPicture = storeElement.illustration_url as string;
    expect(inheritedPicture).toBe(picture.json().element.illustration_url);
    const storeAttachment = upload.json().attachment.url as string;
    expect(storeAttachment).toMatch(`/api/files/stores/${storeId}/element_attachments/`);
    for (const url of [inheritedPicture, storeAttachment]) {
      expect((await customer.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      expect((await otherCustomer.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});

describe('versions of uploads', () => {
  it('answers 409 to an upload, stock pick or rename with a stale version and stores nothing', async () => {
    const databaseId = tenants.a.database.id;
    const element = await buildDatabaseElement(context.db, { database_id: databaseId });
    const stale = (await databaseRow(element.id)).version;
    // Another user saves: the version moves.
    const saved = await admin.inject({
      method: 'PATCH',
      url: `/api/databaseElements/${element.id}`,
      payload: { version: stale, name: 'Saved by someone else' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const current = saved.json().element.version;
    const folder = (kind: string) =>
      join(context.config.DATA_DIR, 'files', `databases/${databaseId}/${kind}/${element.id}`);
    const filesIn = (kind: string) => {
      const path = folder(kind);
      return existsSync(path) ? readdirSync(path, { recursive: true }) : [];
    };
    for (const [suffix, upload] of [
      ['illustration', pngUpload()],
      ['allergenIllustration', pngUpload()],
      ['attachments', pdfUpload()],
    ] as const) {
      const response = await admin.inject({
        method: 'POST',
        url: `/api/databaseElements/${element.id}/${suffix}?version=${stale}`,
        ...upload,
      });
      expect(response.statusCode, suffix).toBe(409);
      expect(response.json().error.code).toBe('conflict/stale-version');
    }
    const stock = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration/stock?version=${stale}`,
      payload: { url: 'https://stock.test/stale.png' },
    });
    expect(stock.statusCode).toBe(409);
    expect(stockDownloads).not.toContain('https://stock.test/stale.png');
    const missing = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration`,
      ...pngUpload(),
    });
    expect(missing.statusCode).toBe(400);
    const row = await databaseRow(element.id);
    expect(row).toMatchObject({
      version: current,
      illustration_url: null,
      allergen_illustration_url: null,
    });
    expect(filesIn('element_pictures')).toEqual([]);
    expect(filesIn('element_attachments')).toEqual([]);
    expect(
      await context.db
        .select()
        .from(elementAttachments)
        .where(eq(elementAttachments.database_element_id, element.id)),
    ).toEqual([]);

    // With the version read: stored, and the answer carries the next version.
    const upload = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments?version=${current}`,
      ...pdfUpload(),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const { element: after, attachment } = upload.json();
    expect(after.version).toBe(current + 1);
    const renamed = await admin.inject({
      method: 'PATCH',
      url: `/api/elementAttachments/${attachment.id}?version=${current}`,
      payload: { name: 'Stale rename' },
    });
    expect(renamed.statusCode).toBe(409);
    const [kept] = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.id, attachment.id));
    expect(kept!.name).toBe(attachment.name);
  });

  it('deletes the stored file when the version moves during the upload', async () => {
    const databaseId = tenants.a.database.id;
    const element = await buildDatabaseElement(context.db, { database_id: databaseId });
    const { setPicture } = await import('./element-files.service');
    const { findDatabaseElement } = await import('./elements.service');
    const { createLocalStorage: storageAt } = await import('../../platform/storage');
    const storage = storageAt(join(context.config.DATA_DIR, 'files'));
    const adminScope = {
      userId: tenants.admin.id,
      role: 'admin',
      isAll: true,
      distributorIds: [],
      databaseIds: [],
      ownedStoreIds: [],
    } as const;
    const ref = await findDatabaseElement(
      context.db,
      { ...adminScope, distributorIds: [], databaseIds: [], ownedStoreIds: [] },
      element.id,
    );
    const key = `databases/${databaseId}/element_pictures/${element.id}/race.png`;
    await storage.put(key, png);
    await context.db
      .update(databaseElements)
      .set({ version: ref.row.version + 1 })
      .where(eq(databaseElements.id, element.id));
    await expect(
      setPicture({ db: context.db, storage }, ref, 'illustration', key, ref.row.version),
    ).rejects.toMatchObject({ code: 'conflict/stale-version' });
    expect(await storage.get(key)).toBeNull();
    expect((await databaseRow(element.id)).illustration_url).toBeNull();
  });
});

describe('storage deletions', () => {
  it('flushes deletions queued by an interrupted save', async () => {
    const storage = createLocalStorage(join(context.config.DATA_DIR, 'files'));
    const key = `databases/${tenants.a.database.id}/element_attachments/left/over.pdf`;
    await storage.put(key, pdf);
    await context.db.insert(storageDeletions).values({ path: key });
    expect(await flushStorageDeletions(context.db, storage)).toBe(1);
    expect(await storage.get(key)).toBeNull();
    expect(await context.db.select().from(storageDeletions)).toEqual([]);
  });
});
