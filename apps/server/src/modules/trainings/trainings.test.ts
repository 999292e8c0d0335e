import type { TrainingBody } from '@mise/shared/trainings/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainingResults } from '../../db/schema';
import { buildEmployee, buildTwoTenants } from '../../test/factories';
import { type Agent, useTestApp } from '../../test/harness';
import { buildDevice, newKey } from '../device/test-support';
import {
  asEmployeeOn,
  listenLocally,
  signInLearningUsers,
  uploadPdf,
} from '../learning/test-support';

const clock = new Date('2026-11-24T10:00:00.000Z');
const context = useTestApp({ now: () => clock });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
let managerB: Agent;
let baseUrl: string;

const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 3)]);

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  ({ admin, distributorA, managerA, customerA, managerB } = await signInLearningUsers(
    context.app,
    tenants,
  ));
  baseUrl = await listenLocally(context.app);
});

/** A section attachment through tus (purpose 'training-attachment'): its status and attachment. */
async function upload(agent: Agent, owner: string) {
  const { status, result } = await uploadPdf(baseUrl, agent, {
    purpose: 'training-attachment',
    owner,
    filename: 'Module 1.pdf',
    data: pdf,
  });
  return { status, attachment: result && { path: result.path, name: result.name } };
}

function body(
  attachment: { path: string; name: string } | null,
  overrides: Partial<TrainingBody> = {},
): TrainingBody {
  return {
    name: 'Hygiène des mains',
    active: true,
    lang: 'fr',
    required: true,
    category_id: null,
    sections: [
      {
        id: 's1',
        title: 'Nouvelle section',
        attachment,
        quiz: {
          questions: [
            {
              id: 'q1',
              text: 'Combien de secondes ?',
              answers: [
                { id: 'a20', text: '20', correct: true },
                { id: 'a5', text: '5', correct: false },
              ],
            },
          ],
        },
      },
      { id: 's2', title: 'Gants', attachment, quiz: { questions: [] } },
    ],
    target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    ...overrides,
  };
}

describe('trainings per role (spec 002 §4, §6)', () => {
  it('takes its type and source from the creator and the selection', async () => {
    const database = tenants.a.database.id;
    const store = tenants.a.stores[0]!.id;
    const databaseFile = (await upload(managerA, `database:${database}`)).attachment;
    const managerTraining = await managerA.inject({
      method: 'POST',
      url: '/api/trainings',
      payload: { ...body(databaseFile), database_id: database },
    });
    expect(managerTraining.statusCode, managerTraining.body).toBe(200);
    expect(managerTraining.json().training).toMatchObject({
      type: 'database',
      source: database,
      can_edit: true,
      section_count: 2,
    });
    expect(databaseFile!.path).toMatch(new RegExp(`^databases/${database}/training/`));

    const globalFile = (await upload(admin, 'global')).attachment;
    const global = await admin.inject({
      method: 'POST',
      url: '/api/trainings',
      payload: body(globalFile, { name: 'Global' }),
    });
    expect(global.json().training).toMatchObject({ type: 'global', source: null });

    const distributorFile = (await upload(distributorA, `distributor:${tenants.a.distributor.id}`))
      .attachment;
    const ofDistributor = await distributorA.inject({
      method: 'POST',
      url: '/api/trainings',
      payload: body(distributorFile, { name: 'Réseau' }),
    });
    expect(ofDistributor.json().training).toMatchObject({
      type: 'distributor',
      source: tenants.a.distributor.id,
    });

    const storeFile = (await upload(customerA, `store:${store}`)).attachment;
    const withoutStore = await customerA.inject({
      method: 'POST',
      url: '/api/trainings',
      payload: body(storeFile, { name: 'Mon magasin' }),
    });
    expect(withoutStore.json().error.code).toBe('training/select-source');
    const ofStore = await customerA.inject({
      method: 'POST',
      url: '/api/trainings',
      payload: { ...body(storeFile, { name: 'Mon magasin' }), store_id: store },
    });
    expect(ofStore.json().training).toMatchObject({ type: 'store', source: store });

    // Loading (spec 002 §6): each role by its own source.
    const names = async (agent: Agent, query = '') =>
      (await agent.inject({ method: 'GET', url: `/api/trainings${query}` }))
        .json()
        .items.map((item: { name: string }) => item.name);
    expect(await names(admin)).toEqual(['Global']);
    expect(await names(distributorA)).toEqual(['Réseau']);
    expect(await names(distributorA, `?database_id=${database}`)).toEqual(['Hygiène des mains']);
    expect(await names(managerA, `?database_id=${database}`)).toEqual(['Hygiène des mains']);
    expect(await names(customerA, `?store_id=${store}`)).toEqual(['Mon magasin']);
    expect(await names(customerA)).toEqual([]);
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/trainings?database_id=${database}` }))
        .statusCode,
    ).toBe(404);

    // Edit rights (spec 002 §6): a manager edits database trainings only, a customer store ones.
    const globalId = global.json().training.id;
    const managerOnGlobal = await managerA.inject({
      method: 'PUT',
      url: `/api/trainings/${globalId}`,
      payload: { ...body(globalFile), version: 1 },
    });
    expect(managerOnGlobal.statusCode).toBe(403);
    const customerOnDatabase = await customerA.inject({
      method: 'PUT',
      url: `/api/trainings/${managerTraining.json().training.id}`,
      payload: { ...body(databaseFile), version: 1 },
    });
    expect(customerOnDatabase.statusCode).toBe(403);
    expect(
      (
        await managerB.inject({
          method: 'GET',
          url: `/api/trainings/${managerTraining.json().training.id}`,
        })
      ).statusCode,
    ).toBe(404);
    const saved = await distributorA.inject({
      method: 'PUT',
      url: `/api/trainings/${managerTraining.json().training.id}`,
      payload: { ...body(databaseFile, { name: 'Hygiène des mains (v2)' }), version: 1 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().training.version).toBe(2);
  });

  it('refuses a section without attachment, a quiz without a right answer and a foreign target', async () => {
    const database = tenants.a.database.id;
    const file = (await upload(managerA, `database:${database}`)).attachment;
    const post = (payload: TrainingBody) =>
      managerA.inject({
        method: 'POST',
        url: '/api/trainings',
        payload: { ...payload, database_id: database },
      });
    const noAttachment = body(file);
    noAttachment.sections[1]!.attachment = null;
    expect((await post(noAttachment)).json().error).toMatchObject({
      code: 'training/attachment-required',
      message: 'Please select an attachment for this training.',
    });
    const noRight = body(file);
    noRight.sections[0]!.quiz.questions[0]!.answers = [{ id: 'x', text: 'x', correct: false }];
    expect((await post(noRight)).json().error).toMatchObject({
      code: 'training/no-valid-answer',
      message: 'Veuillez selectionner au moins une bonne réponse pour chaque quiz.',
    });
    const foreign = body(file, {
      target: {
        stores: [tenants.b.stores[0]!.id],
        store_tags: [],
        employee_roles: [],
        store_tags_union: true,
      },
    });
    expect((await post(foreign)).json().error.code).toBe('training/target-invalid');
    const otherFolder = body({
      name: 'x.pdf',
      path: `databases/${tenants.b.database.id}/training/x/x.pdf`,
    });
    expect((await post(otherFolder)).json().error.code).toBe('training/attachment-invalid');
    // A manager may not upload for another tenant's database nor as a global training.
    expect((await upload(managerA, `database:${tenants.b.database.id}`)).status).toBe(404);
    expect((await upload(managerA, 'global')).status).toBe(403);
  });

  it('makes a category on demand, listed for the same owner and refused to another', async () => {
    const database = tenants.a.database.id;
    const made = await managerA.inject({
      method: 'POST',
      url: '/api/training-categories',
      payload: { name: 'Sécurité', database_id: database },
    });
    expect(made.statusCode, made.body).toBe(200);
    const again = await managerA.inject({
      method: 'POST',
      url: '/api/training-categories',
      payload: { name: 'sécurité', database_id: database },
    });
    expect(again.json().category.id).toBe(made.json().category.id);
    const listed = await managerA.inject({
      method: 'GET',
      url: `/api/training-categories?database_id=${database}`,
    });
    expect(listed.json().items.map((item: { name: string }) => item.name)).toContain('Sécurité');
    const b = await managerB.inject({
      method: 'GET',
      url: `/api/training-categories?database_id=${tenants.b.database.id}`,
    });
    expect(b.json().items.map((item: { name: string }) => item.name)).not.toContain('Sécurité');
  });
});

describe('trainings on the tablet and their statistics (issue 18)', () => {
  it('shows required trainings first, records each step once and counts the completion', async () => {
    const database = tenants.a.database.id;
    const [storeA1, storeA2] = tenants.a.stores as [
      (typeof tenants.a.stores)[0],
      (typeof tenants.a.stores)[0],
    ];
    const file = (await upload(managerA, `database:${database}`)).attachment;
    const create = async (name: string, required: boolean, stores: string[]) =>
      (
        await managerA.inject({
          method: 'POST',
          url: '/api/trainings',
          payload: {
            ...body(file, {
              name,
              required,
              target: { stores, store_tags: [], employee_roles: [], store_tags_union: true },
            }),
            database_id: database,
          },
        })
      ).json().training;
    const optional = await create('Optionnelle', false, []);
    const required = await create('Obligatoire', true, [storeA1.id]);
    const employee = await buildEmployee(context.db, {
      name: 'Inès',
      surname: 'Roux',
      storeIds: [storeA1.id],
      database_id: database,
    });
    const other = await buildEmployee(context.db, {
      storeIds: [storeA2.id],
      database_id: database,
    });
    const tablet = await buildDevice(context.db, storeA1.id);
    const tablet2 = await buildDevice(context.db, storeA2.id);
    const reader = await asEmployeeOn(context.app, tablet, employee.id);
    const otherReader = await asEmployeeOn(context.app, tablet2, other.id);

    const list = (await reader({ method: 'GET', url: '/api/device/trainings' })).json().items;
    const ids = list.map((item: { id: string }) => item.id);
    expect(ids.indexOf(required.id)).toBeLessThan(ids.indexOf(optional.id));
    expect(list.find((item: { id: string }) => item.id === required.id)).toMatchObject({
      required: true,
      unread: true,
      completed_at: null,
    });
    // The tablet reads the section files of its database's and its distributor's trainings.
    const ofDatabase = list.find((item: { id: string }) => item.id === required.id);
    expect(ofDatabase.sections[0].attachment.url).toMatch(/^\/api\/files\/databases\//);
    const ofDistributor = list.find((item: { type: string }) => item.type === 'distributor');
    expect(ofDistributor.sections[0].attachment.url).toMatch(/^\/api\/files\/distributors\//);
    for (const url of [
      ofDatabase.sections[0].attachment.url,
      ofDistributor.sections[0].attachment.url,
    ]) {
      const read = await reader({ method: 'GET', url });
      expect(read.statusCode).toBe(200);
      expect(read.rawPayload.equals(pdf)).toBe(true);
    }
    const otherIds = (await otherReader({ method: 'GET', url: '/api/device/trainings' }))
      .json()
      .items.map((item: { id: string }) => item.id);
    expect(otherIds).toContain(optional.id);
    expect(otherIds).not.toContain(required.id);
    const refused = await otherReader({
      method: 'POST',
      url: `/api/device/trainings/${required.id}/result`,
      payload: { idempotency_key: newKey(), action: 'view', time_spent: 4 },
    });
    expect(refused.json().error.code).toBe('training/not-targeted');

    const step = (payload: Record<string, unknown>) =>
      reader({ method: 'POST', url: `/api/device/trainings/${required.id}/result`, payload });
    await step({ idempotency_key: newKey(), action: 'skip', time_spent: 15 });
    const wrong = await step({
      idempotency_key: newKey(),
      action: 'complete',
      time_spent: 30,
      answers: { s1: { q1: ['a5'] } },
    });
    expect(wrong.json().error.code).toBe('training/quiz-failed');
    const key = newKey();
    const done = await step({
      idempotency_key: key,
      action: 'complete',
      time_spent: 30,
      answers: { s1: { q1: ['a20'] } },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().training).toMatchObject({
      completed_at: '2026-11-24T10:00:00.000Z',
      skipped_count: 1,
      unread: false,
    });
    await step({
      idempotency_key: key,
      action: 'complete',
      time_spent: 30,
      answers: { s1: { q1: ['a20'] } },
    });
    const [result] = await context.db
      .select()
      .from(trainingResults)
      .where(eq(trainingResults.training_id, required.id));
    expect(result).toMatchObject({ time_spent: 45, store_database: database });

    const stats = await managerA.inject({
      method: 'GET',
      url: `/api/trainings/${required.id}/stats`,
    });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json()).toMatchObject({
      trained: 1,
      views_today: 1,
      median_time_spent: 45,
      target_employees: 1,
      percentage: 100,
    });
    expect(stats.json().per_day).toHaveLength(11);
    expect(stats.json().per_day.at(-1)).toEqual({ day: '2026-11-24', completions: 1 });
    expect(stats.json().per_day[0].day).toBe('2026-11-14');
    const table = await managerA.inject({
      method: 'GET',
      url: `/api/trainings/${required.id}/stats/stores`,
    });
    expect(table.json().items.map((item: { name: string }) => item.name)).toEqual([storeA1.name]);
    const details = await managerA.inject({
      method: 'GET',
      url: `/api/trainings/${required.id}/stats/stores/${storeA1.id}`,
    });
    expect(details.json().items[0]).toMatchObject({
      employee_name: 'Inès Roux',
      completed_at: '2026-11-24T10:00:00.000Z',
      time_spent: 45,
    });

    const home = await managerA.inject({
      method: 'GET',
      url: `/api/trainings/home?database_id=${database}`,
    });
    expect(home.json().items.find((item: { id: string }) => item.id === required.id)).toEqual({
      id: required.id,
      name: 'Obligatoire',
      type: 'database',
      percentage: 100,
    });
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/trainings/${required.id}/stats` }))
        .statusCode,
    ).toBe(404);
  });
});
