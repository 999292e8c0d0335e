import { randomUUID } from 'node:crypto';
import type { CopyResponse } from '@mise/shared/catalogue/bulk';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  catalogueCopies,
  databaseElements,
  elementAttachments,
  elementLabels,
  elementTypes,
  storeElements,
  type stores,
  storeTaskConfigurations,
  taskConfigurations,
  taskTypes,
} from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildElementType,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildStoreTaskConfiguration,
  buildTaskConfiguration,
  buildTaskType,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { pdf, pdfUpload, png, pngUpload, versionQuery } from '../elements/test-support';

/*
 * The export (copy) calls (spec 001 §7, issue 19), against the real database: what is copied,
 * where the files go, retries, skips, and who may call them.
 */

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let manager: Agent;
let customer: Agent;
let otherDistributor: Agent;
/** Every answer to tenant A's accounts: none may carry an id of tenant B. */
const tenantABodies: string[] = [];

const paths = {
  databaseElements: '/api/database/copyDatabaseElements',
  databaseTasks: '/api/database/copyDatabaseTaskConfs',
  storeElements: '/api/stores/copyStoreElements',
  storeTasks: '/api/stores/copyStoreTaskConfs',
} as const;

type Body = { sourceId: string; targetId: string; objectIds: string[]; copyAttachments: boolean };

async function exportCall(
  agent: Agent,
  path: string,
  body: Body,
  key: string | null = randomUUID(),
): Promise<LightMyRequestResponse> {
  const response = await agent.inject({
    method: 'POST',
    url: path,
    headers: key === null ? {} : { 'idempotency-key': key },
    payload: body,
  });
  if (agent !== otherDistributor) tenantABodies.push(response.body);
  return response;
}

async function exported(agent: Agent, path: string, body: Body, key?: string) {
  const response = await exportCall(agent, path, body, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CopyResponse;
}

/** A database of distributor A, and a store on it. */
async function databaseOfA(values: Parameters<typeof buildDatabase>[1] = {}) {
  return buildDatabase(context.db, { distributor_id: tenants.a.distributor.id, ...values });
}
async function storeOn(
  databaseId: string | null,
  values: Partial<typeof stores.$inferInsert> = {},
) {
  return buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: databaseId,
    ...values,
  });
}

async function elementsOf(databaseId: string) {
  return context.db
    .select()
    .from(databaseElements)
    .where(eq(databaseElements.database_id, databaseId));
}

async function countOf(table: typeof databaseElements | typeof taskConfigurations, id: string) {
  const [row] = await context.db
    .select({ total: count() })
    .from(table)
    .where(eq(table.database_id, id));
  return row!.total;
}

/** A database element with a type, three labels and, if asked, an illustration and a PDF. */
async function richElement(databaseId: string, name: string, options: { files?: boolean } = {}) {
  const type = await buildElementType(context.db, { database_id: databaseId, name: 'Viandes' });
  const element = await buildDatabaseElement(context.db, {
    database_id: databaseId,
    name,
    type_id: type.id,
    minimum_temperature: 0,
    maximum_temperature: 4,
    allergens: ['egg', 'milkOrLactose'],
    locks: { ...defaultElementLocks, name: false, minimum_temperature: false, labels: false },
  });
  for (const [index, label] of ['Ouverture', 'Décongélation', 'DLC'].entries()) {
    await buildLabel(context.db, {
      database_id: databaseId,
      database_element_id: element.id,
      name: label,
      index,
      type: index === 1 ? 'defrosting' : 'expiration',
      expiration_duration: 24 * (index + 1),
    });
  }
  let illustrationUrl: string | null = null;
  let attachmentUrl: string | null = null;
  if (options.files) {
    const picture = await distributor.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/illustration${await versionQuery(context.db, 'database', element.id)}`,
      ...pngUpload(),
    });
    expect(picture.statusCode, picture.body).toBe(200);
    illustrationUrl = picture.json().element.illustration_url;
    const sheet = await distributor.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments${await versionQuery(context.db, 'database', element.id)}`,
      ...pdfUpload('Fiche technique.pdf'),
    });
    expect(sheet.statusCode, sheet.body).toBe(200);
    attachmentUrl = sheet.json().attachment.url;
  }
  return { element, type, illustrationUrl, attachmentUrl };
}

async function bytesAt(url: string): Promise<Buffer> {
  const response = await distributor.inject({ method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
  return response.rawPayload;
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  otherDistributor = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
});

describe('POST /api/database/copyDatabaseElements', () => {
  it('copies values, locks, labels and the type without files', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element, illustrationUrl } = await richElement(source.id, 'Poulet', { files: true });
    const answer = await exported(distributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: false,
    });
    expect(answer.skipped).toEqual([]);
    expect(answer.attachments_copied).toBe(0);
    expect(answer.created).toHaveLength(1);
    expect(answer.created[0]).toMatchObject({ source_id: element.id, name: 'Poulet' });
    expect(answer.created_types.map((type) => type.name)).toEqual(['Viandes']);

    const [copy] = await elementsOf(target.id);
    expect(copy).toMatchObject({
      id: answer.created[0]!.id,
      name: 'Poulet',
      type_id: answer.created_types[0]!.id,
      minimum_temperature: 0,
      maximum_temperature: 4,
      allergens: ['egg', 'milkOrLactose'],
      illustration_url: null,
      illustration_path: null,
    });
    expect(copy!.locks).toMatchObject({
      name: false,
      minimum_temperature: false,
      labels: false,
      maximum_temperature: true,
    });
    const labels = await context.db
      .select()
      .from(elementLabels)
      .where(eq(elementLabels.database_element_id, copy!.id));
    expect(
      labels
        .sort((left, right) => left.index - right.index)
        .map((label) => [label.name, label.type, label.expiration_duration, label.database_id]),
    ).toEqual([
      ['Ouverture', 'expiration', 24, target.id],
      ['Décongélation', 'defrosting', 48, target.id],
      ['DLC', 'expiration', 72, target.id],
    ]);
    const attachments = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.database_element_id, copy!.id));
    expect(attachments).toEqual([]);
    // The source keeps its picture.
    expect((await bytesAt(illustrationUrl!)).equals(png)).toBe(true);
  });

  it('copies the illustration and the attachments as new stored objects', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element, illustrationUrl, attachmentUrl } = await richElement(source.id, 'Boeuf', {
      files: true,
    });
    const answer = await exported(distributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: true,
    });
    expect(answer.attachments_copied).toBe(2);
    const copyId = answer.created[0]!.id;
    const element$ = await distributor.inject({
      method: 'GET',
      url: `/api/databaseElements/${copyId}`,
    });
    expect(element$.statusCode).toBe(200);
    const copy = element$.json().element;
    expect(copy.illustration_url).not.toBe(illustrationUrl);
    expect(copy.illustration_url).toMatch(
      new RegExp(
        `^/api/files/databases/${target.id}/element_pictures/${copyId}/[0-9a-f]{16}\\.png$`,
      ),
    );
    expect(copy.attachments).toHaveLength(1);
    expect(copy.attachments[0]).toMatchObject({
      name: 'Fiche technique.pdf',
      type: 'pdf',
      index: 0,
    });
    expect(copy.attachments[0].url).toMatch(
      new RegExp(`^/api/files/databases/${target.id}/element_attachments/${copyId}/`),
    );
    expect(copy.attachments[0].url).not.toBe(attachmentUrl);
    expect((await bytesAt(copy.illustration_url)).equals(png)).toBe(true);
    expect((await bytesAt(copy.attachments[0].url)).equals(pdf)).toBe(true);
    // The source's objects are still there.
    expect((await bytesAt(illustrationUrl!)).equals(png)).toBe(true);
    expect((await bytesAt(attachmentUrl!)).equals(pdf)).toBe(true);
  });

  it('answers a retry with the same key the same and creates nothing more', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element } = await richElement(source.id, 'Saumon', { files: true });
    const body = {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: true,
    };
    const key = randomUUID();
    const first = await exportCall(distributor, paths.databaseElements, body, key);
    const second = await exportCall(distributor, paths.databaseElements, body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await countOf(databaseElements, target.id)).toBe(1);
    const types = await context.db
      .select()
      .from(elementTypes)
      .where(eq(elementTypes.database_id, target.id));
    expect(types).toHaveLength(1);

    // The same key with another body is refused, and writes nothing.
    const other = await exportCall(
      distributor,
      paths.databaseElements,
      { ...body, copyAttachments: false },
      key,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency/conflict');
    expect(await countOf(databaseElements, target.id)).toBe(1);
  });

  it("skips 'already-exported' while the copy exists, and copies again once it is deleted", async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element } = await richElement(source.id, 'Thon');
    const body = {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: false,
    };
    const first = await exported(distributor, paths.databaseElements, body);
    const second = await exported(distributor, paths.databaseElements, body);
    expect(second.created).toEqual([]);
    expect(second.skipped).toEqual([
      { source_id: element.id, name: 'Thon', reason: 'already-exported' },
    ]);
    expect(await countOf(databaseElements, target.id)).toBe(1);

    await context.db.delete(databaseElements).where(eq(databaseElements.id, first.created[0]!.id));
    const third = await exported(distributor, paths.databaseElements, body);
    expect(third.created).toHaveLength(1);
    expect(third.created_types).toEqual([]);
    const copies = await context.db
      .select()
      .from(catalogueCopies)
      .where(
        and(
          eq(catalogueCopies.target_owner_id, target.id),
          eq(catalogueCopies.source_id, element.id),
        ),
      );
    expect(copies.map((row) => row.copy_id)).toEqual([third.created[0]!.id]);
  });

  it('reuses a same-named type of the target', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const existing = await buildElementType(context.db, {
      database_id: target.id,
      name: 'viandes ',
    });
    const { element } = await richElement(source.id, 'Agneau');
    const answer = await exported(distributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: false,
    });
    expect(answer.created_types).toEqual([]);
    const [copy] = await elementsOf(target.id);
    expect(copy!.type_id).toBe(existing.id);
  });

  it('refuses without an Idempotency-Key, into its own source, and skips deleted ids', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element } = await richElement(source.id, 'Dinde');
    const body = {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id],
      copyAttachments: false,
    };
    const missingKey = await exportCall(distributor, paths.databaseElements, body, null);
    expect(missingKey.statusCode).toBe(400);
    expect(missingKey.json().error.code).toBe('export/idempotency-key-required');
    const same = await exportCall(distributor, paths.databaseElements, {
      ...body,
      targetId: source.id,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.code).toBe('export/same-target');
    expect(await countOf(databaseElements, target.id)).toBe(0);

    const gone = randomUUID();
    const answer = await exported(distributor, paths.databaseElements, {
      ...body,
      objectIds: [gone, element.id],
    });
    expect(answer.skipped).toEqual([{ source_id: gone, name: null, reason: 'not-found' }]);
    expect(answer.created.map((item) => item.name)).toEqual(['Dinde']);
  });
});

describe('POST /api/database/copyDatabaseTaskConfs', () => {
  it('copies type, schedules, recurrence, flags, locks and maps elements by name', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const fridge = await buildDatabaseElement(context.db, {
      database_id: source.id,
      name: 'Frigo 1',
    });
    const freezer = await buildDatabaseElement(context.db, {
      database_id: source.id,
      name: 'Congélateur',
    });
    const targetFridge = await buildDatabaseElement(context.db, {
      database_id: target.id,
      name: 'frigo 1',
    });
    const sourceType = await buildTaskType(context.db, {
      database_id: source.id,
      name: 'Hygiène',
      color: '#ff0000',
    });
    const sameNamed = await buildTaskType(context.db, {
      database_id: target.id,
      name: 'Relevés',
      color: '#00ff00',
    });
    const readingsType = await buildTaskType(context.db, {
      database_id: source.id,
      name: 'Relevés',
      color: '#0000ff',
    });
    const readings = await buildTaskConfiguration(context.db, {
      database_id: source.id,
      name: 'Relevé frigo',
      module: 'temperatures',
      type_id: readingsType.id,
      configuration: { temperature_elements: [fridge.id], is_delivery: false, automatic: true },
      starts: [420, 960],
      durations: [60, 30],
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      description: 'Matin et soir',
      requires_manager: true,
      notify_late: true,
      locks: { ...defaultTaskConfigurationLocks, name: false },
    });
    const both = await buildTaskConfiguration(context.db, {
      database_id: source.id,
      name: 'Relevé complet',
      module: 'temperatures',
      configuration: {
        temperature_elements: [fridge.id, freezer.id],
        is_delivery: false,
        automatic: false,
      },
    });
    const cleaning = await buildTaskConfiguration(context.db, {
      database_id: source.id,
      name: 'Nettoyage',
      type_id: sourceType.id,
    });
    const answer = await exported(distributor, paths.databaseTasks, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [readings.id, both.id, cleaning.id],
      copyAttachments: false,
    });
    expect(answer.created.map((item) => item.name)).toEqual(['Relevé frigo', 'Nettoyage']);
    expect(answer.skipped).toEqual([
      {
        source_id: both.id,
        name: 'Relevé complet',
        reason: 'missing-elements',
        missing: ['Congélateur'],
      },
    ]);
    expect(answer.created_types.map((type) => type.name)).toEqual(['Hygiène']);
    const rows = await context.db
      .select()
      .from(taskConfigurations)
      .where(eq(taskConfigurations.database_id, target.id));
    const copied = rows.find((row) => row.name === 'Relevé frigo')!;
    expect(copied).toMatchObject({
      module: 'temperatures',
      type_id: sameNamed.id,
      starts: [420, 960],
      durations: [60, 30],
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      description: 'Matin et soir',
      requires_manager: true,
      notify_late: true,
      configuration: {
        temperature_elements: [targetFridge.id],
        is_delivery: false,
        automatic: true,
      },
      recurrence_anchor: readings.recurrence_anchor,
    });
    expect(copied.locks).toMatchObject({ name: false, schedule: true });
    const [hygiene] = await context.db
      .select()
      .from(taskTypes)
      .where(and(eq(taskTypes.database_id, target.id), eq(taskTypes.name, 'Hygiène')));
    expect(hygiene!.color).toBe('#ff0000');
    expect(rows.find((row) => row.name === 'Nettoyage')!.type_id).toBe(hygiene!.id);

    // The configuration reads at the target as any of its own.
    const read = await distributor.inject({
      method: 'GET',
      url: `/api/taskConfigurations/${copied.id}`,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().configuration.element_names).toEqual({ [targetFridge.id]: 'frigo 1' });
  });

  it('copies action attachments as new objects with copyAttachments, and skips hidden modules', async () => {
    const source = await databaseOfA();
    const target = await databaseOfA({ hidden_modules: ['oils'] });
    const key = `databases/${source.id}/task_configurations_attachments/${randomUUID().replaceAll('-', '')}/Procedure.pdf`;
    await context.app.deps.storage.put(key, pdf);
    const action = await buildTaskConfiguration(context.db, {
      database_id: source.id,
      name: 'Désinfection',
      configuration: {
        actions: [
          {
            name: 'Laver',
            requires_picture: true,
            attachments: [{ name: 'Procédure', path: key }],
          },
        ],
      },
    });
    const oils = await buildTaskConfiguration(context.db, {
      database_id: source.id,
      name: 'Huiles',
      module: 'oils',
      configuration: { oil_elements: [] },
    });
    const withFiles = await exported(distributor, paths.databaseTasks, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [action.id, oils.id],
      copyAttachments: true,
    });
    expect(withFiles.skipped).toEqual([
      { source_id: oils.id, name: 'Huiles', reason: 'module-hidden' },
    ]);
    expect(withFiles.attachments_copied).toBe(1);
    const [copy] = await context.db
      .select()
      .from(taskConfigurations)
      .where(eq(taskConfigurations.id, withFiles.created[0]!.id));
    const copiedAttachment = (
      copy!.configuration as { actions: { attachments: { name: string; path: string }[] }[] }
    ).actions[0]!.attachments[0]!;
    expect(copiedAttachment.name).toBe('Procédure');
    expect(copiedAttachment.path).toMatch(
      new RegExp(
        `^databases/${target.id}/task_configurations_attachments/[0-9a-f]{32}/Procedure\\.pdf$`,
      ),
    );
    expect((await bytesAt(`/api/files/${copiedAttachment.path}`)).equals(pdf)).toBe(true);
    expect((await bytesAt(`/api/files/${key}`)).equals(pdf)).toBe(true);

    // Without copyAttachments, the action comes without its files (never a shared key).
    const other = await databaseOfA();
    const without = await exported(distributor, paths.databaseTasks, {
      sourceId: source.id,
      targetId: other.id,
      objectIds: [action.id],
      copyAttachments: false,
    });
    expect(without.attachments_copied).toBe(0);
    const [bare] = await context.db
      .select()
      .from(taskConfigurations)
      .where(eq(taskConfigurations.id, without.created[0]!.id));
    expect(bare!.configuration).toEqual({
      actions: [{ name: 'Laver', requires_picture: true, attachments: [] }],
    });
  });
});

describe('POST /api/stores/copyStoreElements', () => {
  it('into a store of the same database: an override of the same origin with the own values', async () => {
    const database = await databaseOfA();
    const source = await storeOn(database.id);
    const target = await storeOn(database.id);
    const { element: origin } = await richElement(database.id, 'Crème');
    const override = await buildStoreElement(context.db, {
      store_id: source.id,
      origin_id: origin.id,
      minimum_temperature: 2,
      // The origin locks the maximum: the store's value is not in force, and copied as it is.
      maximum_temperature: 6,
    });
    await buildLabel(context.db, {
      store_id: source.id,
      store_element_id: override.id,
      name: 'Étiquette du magasin',
      index: 3,
    });
    const storeType = await buildElementType(context.db, { store_id: source.id, name: 'Maison' });
    const own = await buildStoreElement(context.db, {
      store_id: source.id,
      name: 'Tarte maison',
      type_id: storeType.id,
      active: true,
    });
    const picture = await distributor.inject({
      method: 'POST',
      url: `/api/storeElements/${own.id}/illustration${await versionQuery(context.db, 'store', own.id)}`,
      ...pngUpload(),
    });
    expect(picture.statusCode, picture.body).toBe(200);
    const ownUrl = picture.json().element.illustration_url;

    const answer = await exported(distributor, paths.storeElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [override.id, own.id],
      copyAttachments: true,
    });
    expect(answer.created.map((item) => item.name)).toEqual(['Crème', 'Tarte maison']);
    expect(answer.created_types.map((type) => type.name)).toEqual(['Maison']);
    expect(answer.attachments_copied).toBe(1);
    const rows = await context.db
      .select()
      .from(storeElements)
      .where(eq(storeElements.store_id, target.id));
    const copiedOverride = rows.find((row) => row.origin_id === origin.id)!;
    expect(copiedOverride).toMatchObject({
      minimum_temperature: 2,
      maximum_temperature: 6,
      name: null,
    });
    const read = await distributor.inject({
      method: 'GET',
      url: `/api/storeElements/${copiedOverride.id}`,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().element).toMatchObject({
      name: 'Crème',
      minimum_temperature: 2,
      maximum_temperature: 4,
      origin_id: origin.id,
    });
    expect(read.json().element.labels.map((label: { name: string }) => label.name)).toEqual([
      'Ouverture',
      'Décongélation',
      'DLC',
      'Étiquette du magasin',
    ]);
    const copiedOwn = rows.find((row) => row.name === 'Tarte maison')!;
    expect(copiedOwn.origin_id).toBeNull();
    expect(copiedOwn.type_id).toBe(answer.created_types[0]!.id);
    expect(copiedOwn.illustration_path).toMatch(
      new RegExp(`^stores/${target.id}/element_pictures/${copiedOwn.id}/`),
    );
    expect((await bytesAt(copiedOwn.illustration_url!)).equals(png)).toBe(true);
    expect((await bytesAt(ownUrl)).equals(png)).toBe(true);

    // The target now overrides the origin: a second export skips it.
    const again = await exported(distributor, paths.storeElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [origin.id],
      copyAttachments: false,
    });
    expect(again.created).toEqual([]);
    expect(again.skipped).toEqual([
      { source_id: override.id, name: 'Crème', reason: 'already-exported' },
    ]);
  });

  it('into a store of another database: an element of its own with the effective values', async () => {
    const database = await databaseOfA();
    const source = await storeOn(database.id);
    const target = await storeOn((await databaseOfA()).id);
    const { element: origin, attachmentUrl } = await richElement(database.id, 'Beurre', {
      files: true,
    });
    const override = await buildStoreElement(context.db, {
      store_id: source.id,
      origin_id: origin.id,
      minimum_temperature: 2,
    });
    const withoutFiles = await exported(distributor, paths.storeElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [override.id],
      copyAttachments: false,
    });
    expect(withoutFiles.attachments_copied).toBe(0);
    const [copy] = await context.db
      .select()
      .from(storeElements)
      .where(eq(storeElements.id, withoutFiles.created[0]!.id));
    expect(copy).toMatchObject({
      origin_id: null,
      name: 'Beurre',
      minimum_temperature: 2,
      maximum_temperature: 4,
      illustration_url: null,
    });
    const labels = await context.db
      .select()
      .from(elementLabels)
      .where(eq(elementLabels.store_element_id, copy!.id));
    expect(labels).toHaveLength(3);
    expect(labels.every((label) => label.origin_id === null && label.store_id === target.id)).toBe(
      true,
    );
    const [type] = await context.db
      .select()
      .from(elementTypes)
      .where(eq(elementTypes.id, copy!.type_id!));
    expect(type).toMatchObject({ name: 'Viandes', store_id: target.id, database_id: null });

    const third = await storeOn((await databaseOfA()).id);
    const withFiles = await exported(distributor, paths.storeElements, {
      sourceId: source.id,
      targetId: third.id,
      objectIds: [origin.id],
      copyAttachments: true,
    });
    expect(withFiles.created[0]!.source_id).toBe(override.id);
    expect(withFiles.attachments_copied).toBe(2);
    const read = await distributor.inject({
      method: 'GET',
      url: `/api/storeElements/${withFiles.created[0]!.id}`,
    });
    const element = read.json().element;
    expect(element.attachments[0].url).toMatch(
      new RegExp(`^/api/files/stores/${third.id}/element_attachments/`),
    );
    expect((await bytesAt(element.attachments[0].url)).equals(pdf)).toBe(true);
    expect((await bytesAt(element.illustration_url)).equals(png)).toBe(true);
    expect((await bytesAt(attachmentUrl!)).equals(pdf)).toBe(true);
  });

  it('retries answer the same; a manager on a store that is not manager-owned is refused', async () => {
    const source = tenants.a.stores[0]!;
    const target = tenants.a.stores[1]!;
    const own = await buildStoreElement(context.db, {
      store_id: source.id,
      name: `Sandwich ${randomUUID().slice(0, 6)}`,
      active: true,
    });
    const body = {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [own.id],
      copyAttachments: false,
    };
    const key = randomUUID();
    const first = await exported(distributor, paths.storeElements, body, key);
    const second = await exported(distributor, paths.storeElements, body, key);
    expect(second).toEqual(first);
    const copies = await context.db
      .select()
      .from(storeElements)
      .where(and(eq(storeElements.store_id, target.id), eq(storeElements.name, own.name!)));
    expect(copies).toHaveLength(1);

    const refused = await exportCall(manager, paths.storeElements, body);
    expect(refused.statusCode).toBe(403);
  });
});

describe('POST /api/stores/copyStoreTaskConfs', () => {
  it('copies with and without attachments, mapping elements and skipping missing ones', async () => {
    const database = await databaseOfA();
    const source = await storeOn(database.id);
    const target = await storeOn((await databaseOfA()).id, { hidden_modules: [] });
    const fridge = await buildStoreElement(context.db, {
      store_id: source.id,
      name: 'Vitrine',
      active: true,
      temperatures_module_active: true,
    });
    const targetFridge = await buildStoreElement(context.db, {
      store_id: target.id,
      name: 'Vitrine',
      active: true,
      temperatures_module_active: true,
    });
    const lonely = await buildStoreElement(context.db, {
      store_id: source.id,
      name: 'Chambre froide',
      active: true,
      temperatures_module_active: true,
    });
    const readings = await buildStoreTaskConfiguration(context.db, {
      store_id: source.id,
      module: 'temperatures',
      name: 'Vitrine matin',
      description: '',
      active: true,
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      starts: [480],
      durations: [60],
      requires_manager: false,
      notify_late: false,
      configuration: { temperature_elements: [fridge.id], is_delivery: false, automatic: false },
    });
    const missing = await buildStoreTaskConfiguration(context.db, {
      store_id: source.id,
      module: 'temperatures',
      name: 'Chambre froide soir',
      configuration: { temperature_elements: [lonely.id], is_delivery: false, automatic: false },
    });
    const key = `stores/${source.id}/task_configurations_attachments/${randomUUID().replaceAll('-', '')}/Photo.png`;
    await context.app.deps.storage.put(key, png);
    const origin = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Sols',
      locks: { ...defaultTaskConfigurationLocks, configuration: false },
      configuration: {
        actions: [{ name: 'Laver le sol', requires_picture: false, attachments: [] }],
      },
    });
    const override = await buildStoreTaskConfiguration(context.db, {
      store_id: source.id,
      origin_id: origin.id,
      module: 'actions',
      configuration: {
        actions: [
          {
            name: 'Laver le sol',
            requires_picture: true,
            attachments: [{ name: 'Photo', path: key }],
          },
        ],
      },
    });
    const answer = await exported(distributor, paths.storeTasks, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [readings.id, missing.id, origin.id],
      copyAttachments: true,
    });
    expect(answer.created.map((item) => item.name)).toEqual(['Vitrine matin', 'Sols']);
    expect(answer.created[1]!.source_id).toBe(override.id);
    expect(answer.skipped).toEqual([
      {
        source_id: missing.id,
        name: 'Chambre froide soir',
        reason: 'missing-elements',
        missing: ['Chambre froide'],
      },
    ]);
    expect(answer.attachments_copied).toBe(1);
    const rows = await context.db
      .select()
      .from(storeTaskConfigurations)
      .where(eq(storeTaskConfigurations.store_id, target.id));
    expect(rows.find((row) => row.name === 'Vitrine matin')!.configuration).toEqual({
      temperature_elements: [targetFridge.id],
      is_delivery: false,
      automatic: false,
    });
    const floors = rows.find((row) => row.name === 'Sols')!;
    expect(floors.origin_id).toBeNull();
    const attachment = (floors.configuration as { actions: { attachments: { path: string }[] }[] })
      .actions[0]!.attachments[0]!;
    expect(attachment.path).toMatch(
      new RegExp(`^stores/${target.id}/task_configurations_attachments/`),
    );
    expect((await bytesAt(`/api/files/${attachment.path}`)).equals(png)).toBe(true);
    expect((await bytesAt(`/api/files/${key}`)).equals(png)).toBe(true);

    // Into a store of the same database, the override stays an override of the origin.
    const sibling = await storeOn(database.id);
    const same = await exported(distributor, paths.storeTasks, {
      sourceId: source.id,
      targetId: sibling.id,
      objectIds: [override.id],
      copyAttachments: false,
    });
    const [copied] = await context.db
      .select()
      .from(storeTaskConfigurations)
      .where(eq(storeTaskConfigurations.id, same.created[0]!.id));
    expect(copied).toMatchObject({
      origin_id: origin.id,
      configuration: {
        actions: [{ name: 'Laver le sol', requires_picture: true, attachments: [] }],
      },
    });
  });
});

describe('permissions and tenants', () => {
  it("refuses another tenant's source, target and objects without showing their ids", async () => {
    const source = await databaseOfA();
    const target = await databaseOfA();
    const { element } = await richElement(source.id, 'Oeuf');
    const foreign = await buildDatabaseElement(context.db, {
      database_id: tenants.b.database.id,
      name: 'Secret',
    });
    const foreignTask = await buildTaskConfiguration(context.db, {
      database_id: tenants.b.database.id,
    });
    const intoB = await exportCall(distributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: tenants.b.database.id,
      objectIds: [element.id],
      copyAttachments: false,
    });
    expect(intoB.statusCode).toBe(404);
    const fromB = await exportCall(distributor, paths.databaseElements, {
      sourceId: tenants.b.database.id,
      targetId: target.id,
      objectIds: [foreign.id],
      copyAttachments: false,
    });
    expect(fromB.statusCode).toBe(404);
    const foreignObject = await exportCall(distributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [element.id, foreign.id],
      copyAttachments: false,
    });
    expect(foreignObject.statusCode).toBe(404);
    const foreignTaskObject = await exportCall(distributor, paths.databaseTasks, {
      sourceId: source.id,
      targetId: target.id,
      objectIds: [foreignTask.id],
      copyAttachments: false,
    });
    expect(foreignTaskObject.statusCode).toBe(404);
    const intoStoreB = await exportCall(distributor, paths.storeElements, {
      sourceId: tenants.a.stores[0]!.id,
      targetId: tenants.b.stores[0]!.id,
      objectIds: [element.id],
      copyAttachments: false,
    });
    expect(intoStoreB.statusCode).toBe(404);
    expect(await countOf(databaseElements, target.id)).toBe(0);
    // Tenant B cannot copy tenant A's catalogue into its own database either.
    const byB = await exportCall(otherDistributor, paths.databaseElements, {
      sourceId: source.id,
      targetId: tenants.b.database.id,
      objectIds: [element.id],
      copyAttachments: false,
    });
    expect(byB.statusCode).toBe(404);

    const tenantB = [
      tenants.b.database.id,
      tenants.b.distributor.id,
      ...tenants.b.stores.map((store) => store.id),
      foreign.id,
      foreignTask.id,
    ];
    const leaks = tenantABodies.filter((body) => tenantB.some((id) => body.includes(id)));
    expect(leaks).toEqual([]);
  });

  it('refuses a customer the database calls, as the single create', async () => {
    const source = tenants.a.database;
    const target = await databaseOfA();
    const element = await buildDatabaseElement(context.db, { database_id: source.id });
    const task = await buildTaskConfiguration(context.db, { database_id: source.id });
    for (const [path, id] of [
      [paths.databaseElements, element.id],
      [paths.databaseTasks, task.id],
    ] as const) {
      const response = await exportCall(customer, path, {
        sourceId: source.id,
        targetId: target.id,
        objectIds: [id],
        copyAttachments: false,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    const single = await customer.inject({
      method: 'POST',
      url: `/api/databases/${source.id}/elements`,
      payload: { name: 'Refusé' },
    });
    expect(single.statusCode).toBe(403);
  });

  it('answers 401 without a session', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: paths.databaseElements,
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        sourceId: randomUUID(),
        targetId: randomUUID(),
        objectIds: [randomUUID()],
        copyAttachments: false,
      },
    });
    expect(response.statusCode).toBe(401);
  });
});
