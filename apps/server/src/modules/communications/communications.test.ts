import type { CommunicationBody } from '@mise/shared/communications/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  communicationResultSteps,
  communicationResults,
  employeeRoles,
  storeTagLinks,
  storeTags,
} from '../../db/schema';
import { buildEmployee, buildStore, buildTwoTenants } from '../../test/factories';
import { type Agent, useTestApp } from '../../test/harness';
import { asDevice, buildDevice, newKey } from '../device/test-support';
import {
  asEmployeeOn,
  listenLocally,
  signInLearningUsers,
  uploadPdf,
} from '../learning/test-support';

let clock = new Date('2026-11-24T10:00:00.000Z');
const context = useTestApp({ now: () => clock });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
let managerB: Agent;
let baseUrl: string;
/** Store A1 carries the tag "Nord"; A2 does not; A3 carries "Nord" too (not the customer's). */
let storeA3: Awaited<ReturnType<typeof buildStore>>;
let tagNord: string;
let roleCook: string;
let roleWaiter: string;
let attachment: { path: string; name: string };

const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 7)]);

/** The attachment through tus (purpose 'communication-attachment'): its status and result. */
const upload = (agent: Agent, owner: string, data: Buffer) =>
  uploadPdf(baseUrl, agent, {
    purpose: 'communication-attachment',
    owner,
    filename: 'Consignes hiver.pdf',
    data,
  });

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  ({ admin, distributorA, managerA, customerA, managerB } = await signInLearningUsers(
    context.app,
    tenants,
  ));
  baseUrl = await listenLocally(context.app);

  const database = tenants.a.database.id;
  storeA3 = await buildStore(context.db, {
    name: 'Store A3',
    distributor_id: tenants.a.distributor.id,
    database_id: database,
  });
  const [tag] = await context.db
    .insert(storeTags)
    .values({ database_id: database, name: 'Nord' })
    .returning();
  tagNord = tag!.id;
  await context.db.insert(storeTagLinks).values([
    { tag_id: tagNord, store_id: tenants.a.stores[0]!.id },
    { tag_id: tagNord, store_id: storeA3.id },
  ]);
  const roles = await context.db
    .insert(employeeRoles)
    .values([
      { database_id: database, name: 'Cuisinier' },
      { database_id: database, name: 'Serveur' },
    ])
    .returning();
  roleCook = roles[0]!.id;
  roleWaiter = roles[1]!.id;
  const uploaded = await upload(managerA, database, pdf);
  attachment = { path: uploaded.result!.path, name: uploaded.result!.name };
});

const listUrl = (databaseId: string) => `/api/databases/${databaseId}/communications`;

function body(overrides: Partial<CommunicationBody> = {}): CommunicationBody {
  return {
    name: 'Consignes hiver',
    active: true,
    start_day: '2026-11-20',
    end_day: '2026-11-30',
    attachment,
    quiz: {
      questions: [
        {
          id: 'q1',
          text: 'Température max du frigo ?',
          answers: [
            { id: 'a1', text: '4 °C', correct: true },
            { id: 'a2', text: '12 °C', correct: false },
          ],
        },
      ],
    },
    target: { stores: [], store_tags: [tagNord], employee_roles: [], store_tags_union: true },
    ...overrides,
  };
}

async function create(agent: Agent, overrides: Partial<CommunicationBody> = {}) {
  return agent.inject({
    method: 'POST',
    url: listUrl(tenants.a.database.id),
    payload: body(overrides),
  });
}

describe('communications in the back-office (spec 002 §2, §4–§6)', () => {
  it('uploads the attachment under the database folder through the resumable path', () => {
    expect(attachment.path).toMatch(
      new RegExp(
        `^databases/${tenants.a.database.id}/communications/[0-9a-f-]+/Consignes-hiver\\.pdf$`,
      ),
    );
    expect(attachment.name).toBe('Consignes hiver.pdf');
  });

  it('refuses every invalid save with its code and writes nothing', async () => {
    const cases: [Partial<CommunicationBody>, string][] = [
      [{ name: '  ' }, 'communication/name-required'],
      [{ attachment: null }, 'communication/attachment-required'],
      [{ start_day: '2026-12-02', end_day: '2026-12-01' }, 'communication/dates-invalid'],
      [
        {
          attachment: {
            name: 'x.pdf',
            path: `databases/${tenants.b.database.id}/communications/x/x.pdf`,
          },
        },
        'communication/attachment-invalid',
      ],
      [
        {
          attachment: {
            name: 'x.pdf',
            path: `databases/${tenants.a.database.id}/communications/missing/x.pdf`,
          },
        },
        'communication/attachment-invalid',
      ],
      [
        {
          quiz: {
            questions: [{ id: 'q1', text: 'Q', answers: [{ id: 'a', text: 'A', correct: false }] }],
          },
        },
        'communication.no_valid_answer',
      ],
      [
        { quiz: { questions: [{ id: 'q1', text: 'Q', answers: [] }] } },
        'communication.no_valid_answer',
      ],
      [
        {
          target: {
            stores: [tenants.b.stores[0]!.id],
            store_tags: [],
            employee_roles: [],
            store_tags_union: true,
          },
        },
        'communication/target-invalid',
      ],
    ];
    const before = (
      await managerA.inject({ method: 'GET', url: listUrl(tenants.a.database.id) })
    ).json().items.length;
    for (const [overrides, code] of cases) {
      const response = await create(managerA, overrides);
      expect(response.json().error?.code, JSON.stringify(overrides)).toBe(code);
      expect(response.statusCode).toBe(400);
    }
    const after = (
      await managerA.inject({ method: 'GET', url: listUrl(tenants.a.database.id) })
    ).json().items.length;
    expect(after).toBe(before);
  });

  it('saves the first day from 00:00:00 and the last to 23:59:59 in the stores’ zone, with its state', async () => {
    const response = await create(managerA);
    expect(response.statusCode, response.body).toBe(200);
    const { communication, can_edit } = response.json();
    expect(can_edit).toBe(true);
    // Europe/Paris in November is UTC+1.
    expect(communication).toMatchObject({
      start: '2026-11-19T23:00:00.000Z',
      end: '2026-11-30T22:59:59.000Z',
      state: 'running',
      target_kind: 'groups',
      question_count: 1,
      attachment: { name: 'Consignes hiver.pdf', type: 'pdf' },
    });
    const file = await customerA.inject({ method: 'GET', url: communication.attachment.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);

    const coming = await create(managerA, {
      name: 'Plus tard',
      start_day: '2026-12-01',
      end_day: '2026-12-05',
    });
    expect(coming.json().communication.state).toBe('coming');
    const passed = await create(managerA, {
      name: 'Avant',
      start_day: '2026-11-01',
      end_day: '2026-11-05',
    });
    expect(passed.json().communication.state).toBe('passed');
  });

  it('lists for admins, managers and customers (customers read only), never for distributors or another tenant', async () => {
    const mine = await customerA.inject({ method: 'GET', url: listUrl(tenants.a.database.id) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().can_edit).toBe(false);
    expect(mine.json().items.map((item: { name: string }) => item.name)).toContain(
      'Consignes hiver',
    );
    expect(
      (await admin.inject({ method: 'GET', url: listUrl(tenants.a.database.id) })).json().can_edit,
    ).toBe(true);
    expect((await create(customerA)).statusCode).toBe(403);
    expect(
      (await distributorA.inject({ method: 'GET', url: listUrl(tenants.a.database.id) })).json()
        .error.code,
    ).toBe('permission/denied');
    expect(
      (await managerB.inject({ method: 'GET', url: listUrl(tenants.a.database.id) })).statusCode,
    ).toBe(404);
    const id = mine.json().items[0].id;
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/communications/${id}` })).statusCode,
    ).toBe(404);
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/communications/${id}/stats` })).statusCode,
    ).toBe(404);
  });

  it('searches by name and hides the inactive unless asked', async () => {
    await create(managerA, { name: 'Ancienne note', active: false });
    const active = await managerA.inject({
      method: 'GET',
      url: `${listUrl(tenants.a.database.id)}?search=ancienne`,
    });
    expect(active.json().items).toEqual([]);
    const all = await managerA.inject({
      method: 'GET',
      url: `${listUrl(tenants.a.database.id)}?search=ancienne&include_inactive=true`,
    });
    expect(all.json().items.map((item: { name: string }) => item.name)).toEqual(['Ancienne note']);
  });

  it('saves over the version read, refusing a stale one', async () => {
    const created = (await create(managerA, { name: 'Version' })).json().communication;
    const saved = await managerA.inject({
      method: 'PUT',
      url: `/api/communications/${created.id}`,
      payload: { ...body({ name: 'Version 2' }), version: created.version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().communication).toMatchObject({ name: 'Version 2', version: 2 });
    const stale = await managerA.inject({
      method: 'PUT',
      url: `/api/communications/${created.id}`,
      payload: { ...body({ name: 'Version 3' }), version: created.version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    const read = await managerA.inject({ method: 'GET', url: `/api/communications/${created.id}` });
    expect(read.json().communication.name).toBe('Version 2');
  });
});

describe('reading on the tablet and the statistics (issue 18)', () => {
  it('shows it to the targeted employees only, counts each step once and the completion once', async () => {
    const [storeA1, storeA2] = tenants.a.stores as [
      (typeof tenants.a.stores)[0],
      (typeof tenants.a.stores)[0],
    ];
    const created = (
      await create(managerA, {
        name: 'Nouvelle procédure',
        target: {
          stores: [],
          store_tags: [tagNord],
          employee_roles: [roleCook],
          store_tags_union: true,
        },
      })
    ).json().communication;
    const database = tenants.a.database.id;
    const cook = await buildEmployee(context.db, {
      name: 'Léa',
      surname: 'Martin',
      storeIds: [storeA1.id],
      database_id: database,
      role_id: roleCook,
    });
    const cook2 = await buildEmployee(context.db, {
      name: 'Marc',
      surname: 'Petit',
      storeIds: [storeA1.id],
      database_id: database,
      role_id: roleCook,
    });
    const waiter = await buildEmployee(context.db, {
      storeIds: [storeA1.id],
      database_id: database,
      role_id: roleWaiter,
    });
    const outsider = await buildEmployee(context.db, {
      storeIds: [storeA2.id],
      database_id: database,
      role_id: roleCook,
    });
    const tablet = await buildDevice(context.db, storeA1.id);
    const tablet2 = await buildDevice(context.db, storeA2.id);
    const asCook = await asEmployeeOn(context.app, tablet, cook.id);
    const asWaiter = await asEmployeeOn(context.app, tablet, waiter.id);
    const asOutsider = await asEmployeeOn(context.app, tablet2, outsider.id);

    const listed = await asCook({ method: 'GET', url: '/api/device/communications' });
    expect(listed.statusCode, listed.body).toBe(200);
    const item = listed.json().items.find((entry: { id: string }) => entry.id === created.id);
    expect(item).toMatchObject({ unread: true, completed_at: null, skipped_count: 0 });
    expect(item.quiz.questions[0].answers[0].correct).toBe(true);
    // A waiter (role not aimed at) and an employee of an untagged store never see it.
    for (const other of [asWaiter, asOutsider]) {
      const theirs = await other({ method: 'GET', url: '/api/device/communications' });
      expect(theirs.json().items.map((entry: { id: string }) => entry.id)).not.toContain(
        created.id,
      );
      const refused = await other({
        method: 'POST',
        url: `/api/device/communications/${created.id}/result`,
        payload: { idempotency_key: newKey(), action: 'view', time_spent: 5 },
      });
      expect(refused.json().error.code).toBe('communication/not-targeted');
      expect(refused.statusCode).toBe(403);
    }

    const step = (payload: Record<string, unknown>) =>
      asCook({ method: 'POST', url: `/api/device/communications/${created.id}/result`, payload });
    const viewed = await step({ idempotency_key: newKey(), action: 'view', time_spent: 30 });
    expect(viewed.statusCode, viewed.body).toBe(200);
    expect(viewed.json().communication).toMatchObject({ unread: false, completed_at: null });
    const skipKey = newKey();
    await step({ idempotency_key: skipKey, action: 'skip', time_spent: 10 });
    const retried = await step({ idempotency_key: skipKey, action: 'skip', time_spent: 10 });
    expect(retried.json().communication.skipped_count).toBe(1);

    const wrong = await step({
      idempotency_key: newKey(),
      action: 'complete',
      time_spent: 20,
      answers: { q1: ['a1', 'a2'] },
    });
    expect(wrong.json().error.code).toBe('communication/quiz-failed');
    expect(wrong.statusCode).toBe(400);

    clock = new Date('2026-11-24T10:05:00.000Z');
    const completeKey = newKey();
    const done = await step({
      idempotency_key: completeKey,
      action: 'complete',
      time_spent: 20,
      answers: { q1: ['a1'] },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().communication.completed_at).toBe('2026-11-24T10:05:00.000Z');
    clock = new Date('2026-11-24T10:09:00.000Z');
    await step({
      idempotency_key: completeKey,
      action: 'complete',
      time_spent: 20,
      answers: { q1: ['a1'] },
    });
    const again = await step({
      idempotency_key: newKey(),
      action: 'complete',
      time_spent: 0,
      answers: { q1: ['a1'] },
    });
    expect(again.json().communication.completed_at).toBe('2026-11-24T10:05:00.000Z');

    const [result] = await context.db
      .select()
      .from(communicationResults)
      .where(eq(communicationResults.communication_id, created.id));
    expect(result).toMatchObject({ time_spent: 60, skipped_count: 1, store_id: storeA1.id });
    const steps = await context.db
      .select()
      .from(communicationResultSteps)
      .where(eq(communicationResultSteps.result_id, result!.id));
    expect(steps).toHaveLength(4);

    // Spec 000 Employee: the employee's completed_communications names it, the others' do not.
    const staff = await managerA.inject({
      method: 'GET',
      url: `/api/stores/${storeA1.id}/employees`,
    });
    const byId = new Map(
      staff
        .json()
        .items.map((item: { id: string; completed_communications: string[] }) => [
          item.id,
          item.completed_communications,
        ]),
    );
    expect(byId.get(cook.id)).toContain(created.id);
    expect(byId.get(cook2.id)).not.toContain(created.id);

    // The statistics: one view today of two cooks aimed at in the stores in reach.
    const stats = await managerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats`,
    });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json()).toMatchObject({
      total_views: 1,
      views_today: 1,
      median_time_spent: 60,
      target_employees: 2,
      percentage: 50,
    });
    expect(stats.json().per_day.at(0)).toEqual({ day: '2026-11-20', views: 0 });
    expect(stats.json().per_day.at(-1)).toEqual({ day: '2026-11-24', views: 1 });
    expect(stats.json().per_day).toHaveLength(5);

    const table = await managerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats/stores`,
    });
    expect(table.json().items).toEqual([
      {
        store_id: storeA1.id,
        name: storeA1.name,
        address: storeA1.address,
        views: 1,
        target_employees: 2,
      },
      {
        store_id: storeA3.id,
        name: 'Store A3',
        address: storeA3.address,
        views: 0,
        target_employees: 0,
      },
    ]);
    const paged = await managerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats/stores?limit=1`,
    });
    const next = await managerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats/stores?limit=1&cursor=${paged.json().next_cursor}`,
    });
    expect(next.json().items.map((entry: { name: string }) => entry.name)).toEqual(['Store A3']);
    expect(next.json().next_cursor).toBeNull();
    const details = await managerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats/stores/${storeA1.id}`,
    });
    expect(details.json().items).toEqual([
      {
        employee_id: cook.id,
        employee_name: 'Léa Martin',
        store_name: storeA1.name,
        completed_at: '2026-11-24T10:05:00.000Z',
        time_spent: 60,
        skipped_count: 1,
      },
      {
        employee_id: cook2.id,
        employee_name: 'Marc Petit',
        store_name: storeA1.name,
        completed_at: null,
        time_spent: null,
        skipped_count: 0,
      },
    ]);
    // An untargeted store has no details.
    expect(
      (
        await managerA.inject({
          method: 'GET',
          url: `/api/communications/${created.id}/stats/stores/${storeA2.id}`,
        })
      ).statusCode,
    ).toBe(404);

    // The customer owns A1 only: the table shows A1, not A3.
    const customerTable = await customerA.inject({
      method: 'GET',
      url: `/api/communications/${created.id}/stats/stores`,
    });
    expect(customerTable.json().items.map((entry: { name: string }) => entry.name)).toEqual([
      storeA1.name,
    ]);

    // The home panel: running, with the share who saw it.
    const home = await managerA.inject({
      method: 'GET',
      url: `/api/databases/${database}/communications/home`,
    });
    expect(home.json().items.find((entry: { id: string }) => entry.id === created.id)).toEqual({
      id: created.id,
      name: 'Nouvelle procédure',
      start: created.start,
      end: created.end,
      start_day: '2026-11-20',
      end_day: '2026-11-30',
      percentage: 50,
    });
    const homeA2 = await managerA.inject({
      method: 'GET',
      url: `/api/databases/${database}/communications/home?store_id=${storeA2.id}`,
    });
    expect(homeA2.json().items.map((entry: { id: string }) => entry.id)).not.toContain(created.id);
  });

  it('refuses a reading outside the dates and lists only running communications', async () => {
    clock = new Date('2026-11-24T10:00:00.000Z');
    const coming = (
      await create(managerA, {
        name: 'Décembre',
        start_day: '2026-12-01',
        end_day: '2026-12-31',
        target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
      })
    ).json().communication;
    const employee = await buildEmployee(context.db, {
      storeIds: [tenants.a.stores[1]!.id],
      database_id: tenants.a.database.id,
    });
    const tablet = await buildDevice(context.db, tenants.a.stores[1]!.id);
    const reader = await asEmployeeOn(context.app, tablet, employee.id);
    const list = await reader({ method: 'GET', url: '/api/device/communications' });
    expect(list.json().items.map((entry: { id: string }) => entry.id)).not.toContain(coming.id);
    const refused = await reader({
      method: 'POST',
      url: `/api/device/communications/${coming.id}/result`,
      payload: { idempotency_key: newKey(), action: 'view', time_spent: 3 },
    });
    expect(refused.json().error.code).toBe('communication/not-running');
    expect(refused.statusCode).toBe(409);
    // A tablet without an identified employee is refused.
    const anonymous = await asDevice(
      context.app,
      tablet.token,
    )({ method: 'GET', url: '/api/device/communications' });
    expect(anonymous.statusCode).toBe(401);
  });
});
