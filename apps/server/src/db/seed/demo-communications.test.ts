import { and, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { asDevice, buildDevice, employeeToken } from '../../modules/device/test-support';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { readPdf } from '../../test/read-pdf';
import {
  communicationResults,
  communications,
  databases,
  employeeRoles,
  employeeStores,
  employees,
  stores,
  trainingCategories,
  trainingResults,
  trainings,
} from '../schema';
import { demoEmails, demoPassword, seedDemo } from './demo';
import { seedDemoCommunications } from './demo-communications';
import { demoEmployeePin } from './demo-tasks';

const context = useTestApp();

type Summary = { id: string; name: string; state: string; attachment: { url: string } | null };

async function counts() {
  const { db } = context;
  return Promise.all(
    [communications, communicationResults, trainings, trainingResults, trainingCategories].map(
      async (table) => (await db.select().from(table)).length,
    ),
  );
}

/** Reads a stored attachment as the caller and answers the PDF's text. */
async function fetchPdf(
  caller: (options: InjectOptions) => Promise<LightMyRequestResponse>,
  url: string,
) {
  const response = await caller({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return (await readPdf(response.rawPayload))[0]!.text;
}

describe('demo communications and trainings', () => {
  let manager: Agent;
  let databaseId: string;

  it('shows the manager a running communication read by four of six employees and a coming one for the waiters', async () => {
    const seeded = await seedDemo(context.db, context.app.deps.storage);
    expect(seeded.isCreated).toBe(true);
    manager = await signIn(context.app, demoEmails.manager, demoPassword);
    [{ id: databaseId }] = (await context.db
      .select({ id: databases.id })
      .from(databases)
      .where(eq(databases.name, 'Bistro Group'))) as [{ id: string }];

    const list = await manager.inject({
      method: 'GET',
      url: `/api/databases/${databaseId}/communications`,
    });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Summary[];
    expect(items.map((item) => [item.name, item.state])).toEqual([
      ['Nouvelle procédure d’accueil en salle', 'coming'],
      ['Rappel : affichage des allergènes', 'running'],
    ]);
    const [coming, running] = items as [Summary, Summary];

    const stats = await manager.inject({
      method: 'GET',
      url: `/api/communications/${running.id}/stats`,
    });
    expect(stats.statusCode).toBe(200);
    // Lucas, Hugo, Nina and Chloé completed it (95, 240, 132 and 48 s); Emma put it off.
    expect(stats.json()).toMatchObject({
      total_views: 4,
      target_employees: 6,
      percentage: 67,
      median_time_spent: 113.5,
    });
    const perDay = stats.json().per_day as { views: number }[];
    expect(perDay).toHaveLength(4);
    expect(perDay.reduce((sum, entry) => sum + entry.views, 0)).toBe(4);

    const [paris] = await context.db
      .select()
      .from(stores)
      .where(eq(stores.name, 'Bistro Paris Opéra'));
    const parisResults = await manager.inject({
      method: 'GET',
      url: `/api/communications/${running.id}/stats/stores/${paris!.id}`,
    });
    expect(
      (
        parisResults.json().items as {
          employee_name: string;
          completed_at: string | null;
          skipped_count: number;
        }[]
      ).map((item) => [item.employee_name, item.completed_at !== null, item.skipped_count]),
    ).toEqual([
      ['Hugo Petit', true, 0],
      ['Lucas Martin', true, 0],
      ['Emma Bernard', false, 1],
    ]);

    const home = await manager.inject({
      method: 'GET',
      url: `/api/databases/${databaseId}/communications/home`,
    });
    expect(home.json().items).toEqual([
      expect.objectContaining({ id: running.id, percentage: 67 }),
    ]);

    expect(await fetchPdf(manager.inject, running.attachment!.url)).toContain(
      'Affichage des allergènes',
    );
    const [waiters] = await context.db
      .select()
      .from(employeeRoles)
      .where(and(eq(employeeRoles.database_id, databaseId), eq(employeeRoles.name, 'Serveur')));
    const comingRead = await manager.inject({
      method: 'GET',
      url: `/api/communications/${coming.id}`,
    });
    expect(comingRead.json().communication.target.employee_roles).toEqual([waiters!.id]);
    expect(await fetchPdf(manager.inject, coming.attachment!.url)).toContain('accueil en salle');
  });

  it('lists a required hand-hygiene training of two sections and a safety one with its category', async () => {
    const list = await manager.inject({
      method: 'GET',
      url: `/api/trainings?database_id=${databaseId}`,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      expect.objectContaining({
        name: 'Hygiène des mains',
        required: true,
        section_count: 2,
        lang: 'fr',
        category: null,
      }),
      expect.objectContaining({
        name: 'Sécurité incendie',
        required: false,
        category: expect.objectContaining({ name: 'Sécurité' }),
      }),
    ]);
    const hygieneId = list.json().items[0].id as string;
    const training = await manager.inject({ method: 'GET', url: `/api/trainings/${hygieneId}` });
    const sections = training.json().training.sections as {
      title: string;
      attachment: { url: string; type: string; path: string };
      quiz: { questions: unknown[] };
    }[];
    expect(
      sections.map((section) => [
        section.title,
        section.attachment.type,
        section.quiz.questions.length,
      ]),
    ).toEqual([
      ['Lavage des mains', 'pdf', 1],
      ['Port des gants', 'pdf', 1],
    ]);
    expect(sections[0]!.attachment.path).toMatch(
      new RegExp(`^databases/${databaseId}/training/[0-9a-f-]{36}/lavage-des-mains\\.pdf$`),
    );
    expect(await fetchPdf(manager.inject, sections[1]!.attachment.url)).toContain('Port des gants');

    const stats = await manager.inject({ method: 'GET', url: `/api/trainings/${hygieneId}/stats` });
    expect(stats.json()).toMatchObject({ trained: 4, target_employees: 6, percentage: 67 });
    const perDay = stats.json().per_day as { completions: number }[];
    expect(perDay.reduce((sum, entry) => sum + entry.completions, 0)).toBe(4);
  });

  it('gives every result a store its employee works in', async () => {
    const rows = [
      ...(await context.db
        .select({
          employee: communicationResults.employee_id,
          store: communicationResults.store_id,
        })
        .from(communicationResults)),
      ...(await context.db
        .select({ employee: trainingResults.employee_id, store: trainingResults.store_id })
        .from(trainingResults)),
    ];
    expect(rows).toHaveLength(10);
    const links = await context.db.select().from(employeeStores);
    for (const row of rows) {
      expect(
        links.some((link) => link.employee_id === row.employee && link.store_id === row.store),
      ).toBe(true);
    }
  });

  it('shows a Lyon employee the running communication and the required training still to do on the tablet', async () => {
    const [lyon] = await context.db
      .select()
      .from(stores)
      .where(eq(stores.name, 'Bistro Lyon Bellecour'));
    const [chloe] = await context.db.select().from(employees).where(eq(employees.name, 'Chloé'));
    const tablet = await buildDevice(context.db, lyon!.id);
    const asChloe = asDevice(
      context.app,
      tablet.token,
      await employeeToken(context.app, tablet.token, chloe!.id, demoEmployeePin),
    );
    const read = await asChloe({ method: 'GET', url: '/api/device/communications' });
    expect(read.json().items).toEqual([
      expect.objectContaining({ name: 'Rappel : affichage des allergènes', unread: false }),
    ]);
    const trainingList = await asChloe({ method: 'GET', url: '/api/device/trainings' });
    expect(
      (
        trainingList.json().items as {
          name: string;
          required: boolean;
          completed_at: string | null;
        }[]
      ).map((item) => [item.name, item.required, item.completed_at !== null]),
    ).toEqual([
      ['Hygiène des mains', true, false],
      ['Sécurité incendie', false, true],
    ]);
    const section = trainingList.json().items[0].sections[0];
    expect(await fetchPdf(asDevice(context.app, tablet.token), section.attachment.url)).toContain(
      'Lavage des mains',
    );
  });

  it('adds nothing when seeded again', async () => {
    const before = await counts();
    expect(before).toEqual([2, 5, 2, 5, 1]);
    expect((await seedDemo(context.db, context.app.deps.storage)).isCreated).toBe(false);
    await seedDemoCommunications(
      context.db,
      context.app.deps.storage,
      demoEmails.manager,
      new Date(),
    );
    expect(await counts()).toEqual(before);
  });
});
