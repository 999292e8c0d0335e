import { join } from 'node:path';
import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, stores, taskResultRevisions, tasks } from '../../db/schema';
import { createLocalStorage } from '../../platform/storage';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildTask,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';
import { readPdf } from '../../test/read-pdf';
import { backfillResultAnomalies } from './history.service';

/**
 * History end to end through the API (spec 002 §2, §4, §5, §7): access rules, the 31-day
 * limit, filters and anomalies, hidden modules, the PDF, CSV and archive exports, task detail
 * with revisions, and one query plan whatever the number of tasks.
 */

const context = useTestApp();
const zone = 'Europe/Paris';
let customer: Agent;
let manager: Agent;
let admin: Agent;
let storeId: string;
let unlicensedId: string;
let otherStoreId: string;
let databaseId: string;
let busyStoreId: string;
const ids: Record<string, string> = {};

const today = () => dayInZone(new Date(), zone);
const at = (day: string, minute: number) => localMinuteToInstant(day, minute, zone);
const fridge = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Frigo Łódź',
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: null,
  reheating_temperature: null,
  cooling_temperature: null,
};
const reading = (temperature: number | null) => ({
  entries: [
    {
      element: fridge.id,
      temperature,
      first_temperature: temperature,
      control_temperature: null,
      comment: temperature === null ? 'Sonde; cassée "HS"' : '',
      pictures: [],
      timestamp: 0,
    },
  ],
});
const who = { name: 'Chloé', surname: 'Durand' };

/** A completed task of `day` at 08:00 lasting an hour, completed `after` minutes after its start. */
async function completedTask(
  store: string,
  day: string,
  name: string,
  result: unknown,
  after = 10,
  module: 'temperatures' | 'actions' | 'oils' | 'temperature_control' = 'temperatures',
) {
  const start = at(day, 8 * 60);
  return buildTask(context.db, {
    store_id: store,
    day,
    start,
    name,
    module,
    elements: [fridge],
    completed_timestamp: new Date(start.getTime() + after * 60_000),
    employee: who,
    result,
    revision: 1,
  });
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  databaseId = database.id;
  const common = { distributor_id: distributor.id, database_id: database.id, timezone_name: zone };
  const store = await buildStore(db, { ...common, name: 'Crème & Co', mise_licence: true });
  const unlicensed = await buildStore(db, { ...common, mise_licence: false });
  const busy = await buildStore(db, { ...common, mise_licence: true });
  const other = await buildStore(db, {
    distributor_id: (await buildDistributor(db)).id,
    mise_licence: true,
  });
  storeId = store.id;
  unlicensedId = unlicensed.id;
  busyStoreId = busy.id;
  otherStoreId = other.id;
  const yesterday = addDays(today(), -1);
  const twoDaysAgo = addDays(today(), -2);
  ids.clean = (await completedTask(storeId, yesterday, 'Relevé propre', reading(3))).id;
  ids.hot = (await completedTask(storeId, yesterday, 'Relevé chaud', reading(7.5))).id;
  ids.notTaken = (await completedTask(storeId, twoDaysAgo, 'Relevé manquant', reading(null))).id;
  ids.late = (await completedTask(storeId, twoDaysAgo, 'Relevé tardif', reading(2), 90)).id;
  ids.undone = (
    await buildTask(db, {
      store_id: storeId,
      day: twoDaysAgo,
      start: at(twoDaysAgo, 12 * 60),
      name: 'Relevé oublié',
      elements: [fridge],
    })
  ).id;
  const copy = await buildTask(db, {
    store_id: storeId,
    day: yesterday,
    start: at(yesterday, 14 * 60),
    name: 'Relevé reporté',
    elements: [fridge],
  });
  ids.postponed = (
    await buildTask(db, {
      store_id: storeId,
      day: yesterday,
      start: at(yesterday, 10 * 60),
      name: 'Relevé reporté',
      elements: [fridge],
      postponed_task: copy.id,
      employee: who,
    })
  ).id;
  await db.update(tasks).set({ original_task: ids.postponed }).where(eq(tasks.id, copy.id));
  // Not due yet: on-time, never in history.
  ids.future = (
    await buildTask(db, {
      store_id: storeId,
      day: today(),
      start: new Date(Date.now() + 3600_000),
      name: 'Relevé à venir',
      elements: [fridge],
    })
  ).id;
  ids.oil = (
    await completedTask(
      storeId,
      yesterday,
      'Huile friteuse',
      {
        entries: [
          {
            element: fridge.id,
            cleaned: true,
            oil_changed: false,
            oil_filtered: true,
            filter_changed: false,
            polarity: 12,
            temperature: 170,
            pictures: [],
          },
        ],
      },
      10,
      'oils',
    )
  ).id;
  // The hot reading was corrected once: two revisions.
  await db.insert(taskResultRevisions).values([
    {
      task_id: ids.hot,
      store_id: storeId,
      revision: 1,
      result: reading(9),
      employee: who,
      idempotency_key: 'history-test-1',
      request_hash: 'h1',
    },
    {
      task_id: ids.hot,
      store_id: storeId,
      revision: 2,
      result: reading(7.5),
      employee: { name: 'Hugo', surname: 'Petit' },
      reason: 'Deuxième mesure après fermeture de la porte',
      idempotency_key: 'history-test-2',
      request_hash: 'h2',
    },
  ]);
  await db.update(tasks).set({ revision: 2 }).where(eq(tasks.id, ids.hot));
  // Rows written without the flag get it from the shared rule.
  await backfillResultAnomalies(db);

  const customerUser = await buildUser(db, {
    role: 'customer',
    ownedStoreIds: [storeId, unlicensedId, busyStoreId],
  });
  const managerUser = await buildUser(db, { role: 'manager', managedDatabaseIds: [database.id] });
  const adminUser = await buildUser(db, { role: 'admin' });
  customer = await signIn(context.app, customerUser.email, testPassword);
  manager = await signIn(context.app, managerUser.email, testPassword);
  admin = await signIn(context.app, adminUser.email, testPassword);
});

const range = () => ({ start: addDays(today(), -6), end: today() });
const historyUrl = (store: string, query: Record<string, string>) =>
  `/api/stores/${store}/history?${new URLSearchParams({ ...range(), module: 'temperatures', ...query })}`;
const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name).sort();

describe('history search', () => {
  it('requires a session', async () => {
    const response = await context.app.inject({ method: 'GET', url: historyUrl(storeId, {}) });
    expect(response.statusCode).toBe(401);
  });

  it('completed (default) lists done and done-late tasks, newest first, never on-time ones', async () => {
    const response = await customer.inject({ method: 'GET', url: historyUrl(storeId, {}) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.filter).toBe('completed');
    expect(names(body)).toEqual(
      ['Relevé chaud', 'Relevé manquant', 'Relevé propre', 'Relevé tardif'].sort(),
    );
    const starts = body.items.map((item: { start: string }) => item.start);
    expect([...starts].sort().reverse()).toEqual(starts);
    const hot = body.items.find((item: { id: string }) => item.id === ids.hot);
    expect(hot.employee).toEqual(who);
    expect(hot.anomalies).toEqual(['temperature-out-of-range']);
    expect(hot.result.entries[0].temperature).toBe(7.5);
  });

  it('anomaly lists out of range, not taken, late and undone tasks only', async () => {
    const response = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { filter: 'anomaly' }),
    });
    const body = response.json();
    // 'Relevé reporté' here is the postponed task's copy, never done; the original (postponed)
    // is not an anomaly.
    expect(names(body)).toEqual(
      [
        'Relevé chaud',
        'Relevé manquant',
        'Relevé oublié',
        'Relevé reporté',
        'Relevé tardif',
      ].sort(),
    );
    expect(body.items.map((item: { id: string }) => item.id)).not.toContain(ids.postponed);
    const byName = Object.fromEntries(
      body.items.map((item: { name: string; anomalies: string[]; status: string }) => [
        item.name,
        item,
      ]),
    );
    expect(byName['Relevé manquant'].anomalies).toEqual(['temperature-not-taken']);
    expect(byName['Relevé tardif'].status).toBe('done-late');
    expect(byName['Relevé oublié'].status).toBe('non-finalized');
  });

  it('all adds postponed tasks with where they went, still without on-time tasks', async () => {
    const body = (
      await customer.inject({ method: 'GET', url: historyUrl(storeId, { filter: 'all' }) })
    ).json();
    expect(names(body)).not.toContain('Relevé à venir');
    const postponed = body.items.find((item: { id: string }) => item.id === ids.postponed);
    expect(postponed.status).toBe('postponed');
    expect(postponed.employee).toEqual(who);
    expect(postponed.postponed_to.start).toBe(at(addDays(today(), -1), 14 * 60).toISOString());
    expect(postponed.postponed_to.end).toBe(at(addDays(today(), -1), 15 * 60).toISOString());
  });

  it('reads one module per request', async () => {
    const body = (
      await customer.inject({ method: 'GET', url: historyUrl(storeId, { module: 'oils' }) })
    ).json();
    expect(names(body)).toEqual(['Huile friteuse']);
  });

  it('pages newest first with a cursor, and searches words across name, employee and elements', async () => {
    const first = (
      await customer.inject({
        method: 'GET',
        url: historyUrl(storeId, { filter: 'all', limit: '2' }),
      })
    ).json();
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const seen = new Set(first.items.map((item: { id: string }) => item.id));
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const page = (
        await customer.inject({
          method: 'GET',
          url: historyUrl(storeId, { filter: 'all', limit: '2', cursor }),
        })
      ).json();
      for (const item of page.items) {
        expect(seen.has(item.id)).toBe(false);
        seen.add(item.id);
      }
      cursor = page.next_cursor;
    }
    const all = (
      await customer.inject({ method: 'GET', url: historyUrl(storeId, { filter: 'all' }) })
    ).json();
    expect(all.next_cursor).toBeNull();
    expect([...seen].sort()).toEqual(all.items.map((item: { id: string }) => item.id).sort());

    const search = async (words: string) =>
      names(
        (
          await customer.inject({
            method: 'GET',
            url: historyUrl(storeId, { filter: 'all', search: words }),
          })
        ).json(),
      );
    expect(await search('chaud')).toEqual(['Relevé chaud']);
    expect(await search('CHLOÉ durand chaud')).toEqual(['Relevé chaud']);
    // The element's name and a comment of the result are searched too.
    expect((await search('Łódź')).length).toBeGreaterThan(3);
    expect(await search('cassée')).toEqual(['Relevé manquant']);
    expect(await search('minimum_temperature')).toEqual([]);
    const badCursor = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { cursor: 'not-a-cursor' }),
    });
    expect(badCursor.json().error.code).toBe('validation/invalid-input');
  });

  it('searches words ignoring accents and case, in names, employees, elements and comments', async () => {
    const search = async (words: string) =>
      names(
        (
          await customer.inject({
            method: 'GET',
            url: historyUrl(storeId, { filter: 'all', search: words }),
          })
        ).json(),
      );
    // 'Relevé chaud' by Chloé Durand, element 'Frigo Łódź', comment 'Sonde; cassée "HS"'.
    expect(await search('releve chaud')).toEqual(['Relevé chaud']);
    expect(await search('RELEVÉ CHAUD')).toEqual(['Relevé chaud']);
    expect(await search('chloe CHAUD')).toEqual(['Relevé chaud']);
    expect(await search('cassee')).toEqual(['Relevé manquant']);
    expect(await search('LODZ chaud')).toEqual(['Relevé chaud']);
    expect(await search('lodz')).toEqual(await search('Łódź'));
    // The exports filter by the same rule (no search there), and a wildcard stays literal.
    expect(await search('rel%chaud')).toEqual([]);
  });

  it('refuses more than 31 days with date-range-too-long, and accepts 31', async () => {
    const start = addDays(today(), -31);
    const tooLong = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { start, end: today() }),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const ok = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { start: addDays(today(), -30), end: today() }),
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses bad input with a code and an end before the start', async () => {
    const badModule = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { module: 'cleaning' }),
    });
    expect(badModule.statusCode).toBe(400);
    expect(badModule.json().error.code).toBe('validation/invalid-input');
    const reversed = await customer.inject({
      method: 'GET',
      url: historyUrl(storeId, { start: today(), end: addDays(today(), -1) }),
    });
    expect(reversed.json().error.code).toBe('validation/invalid-input');
  });

  it('hidden modules: the module is reported hidden and its history is empty', async () => {
    await context.db
      .update(databases)
      .set({ hidden_modules: ['oils'] })
      .where(eq(databases.id, databaseId));
    try {
      const stores = (await customer.inject({ method: 'GET', url: '/api/history/stores' })).json();
      const store = stores.items.find((item: { id: string }) => item.id === storeId);
      expect(store.hidden_modules).toContain('oils');
      const body = (
        await customer.inject({ method: 'GET', url: historyUrl(storeId, { module: 'oils' }) })
      ).json();
      expect(body.items).toEqual([]);
    } finally {
      await context.db
        .update(databases)
        .set({ hidden_modules: [] })
        .where(eq(databases.id, databaseId));
    }
  });
});

describe('who reads history', () => {
  it('offers only active, licensed stores of the scope', async () => {
    const body = (await customer.inject({ method: 'GET', url: '/api/history/stores' })).json();
    const offered = body.items.map((item: { id: string }) => item.id);
    expect(offered).toContain(storeId);
    expect(offered).not.toContain(unlicensedId);
    expect(offered).not.toContain(otherStoreId);
    const unlicensed = await customer.inject({ method: 'GET', url: historyUrl(unlicensedId, {}) });
    expect(unlicensed.statusCode).toBe(404);
  });

  it("another tenant's store answers 404 and leaks nothing", async () => {
    const otherTask = await completedTask(
      otherStoreId,
      addDays(today(), -1),
      'Relevé secret',
      reading(7.5),
    );
    const response = await customer.inject({ method: 'GET', url: historyUrl(otherStoreId, {}) });
    expect(response.statusCode).toBe(404);
    const task = await customer.inject({ method: 'GET', url: `/api/tasks/${ids.clean}` });
    expect(task.statusCode).toBe(200);
    const foreign = await customer.inject({ method: 'GET', url: `/api/tasks/${otherTask.id}` });
    expect(foreign.statusCode).toBe(404);
    // Nothing but the error: no name, result or employee of the other tenant's task.
    for (const answer of [response, foreign]) {
      expect(answer.json()).toEqual({ error: { code: 'not-found', message: expect.any(String) } });
      expect(answer.body).not.toContain('Relevé secret');
      expect(answer.body).not.toContain(who.surname);
    }
  });

  it('a manager cannot read a store of a database without store access, unless manager-owned', async () => {
    const denied = await manager.inject({ method: 'GET', url: historyUrl(storeId, {}) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to execute this action.');
    const offered = (await manager.inject({ method: 'GET', url: '/api/history/stores' })).json();
    expect(offered.items).toEqual([]);
    const pdf = await manager.inject({
      method: 'POST',
      url: '/api/pdf/tasks',
      payload: { storeId, ...range(), filter: 'all' },
    });
    expect(pdf.statusCode).toBe(403);

    await context.db.update(stores).set({ manager_owned: true }).where(eq(stores.id, storeId));
    expect((await manager.inject({ method: 'GET', url: historyUrl(storeId, {}) })).statusCode).toBe(
      200,
    );
    await context.db.update(stores).set({ manager_owned: false }).where(eq(stores.id, storeId));
    await context.db
      .update(databases)
      .set({ store_access: true })
      .where(eq(databases.id, databaseId));
    expect((await manager.inject({ method: 'GET', url: historyUrl(storeId, {}) })).statusCode).toBe(
      200,
    );
    await context.db
      .update(databases)
      .set({ store_access: false })
      .where(eq(databases.id, databaseId));
  });
});

describe('one query plan', () => {
  it('the number of SQL statements of a history request does not grow with the tasks', async () => {
    const measure = () =>
      countQueries(context.database, async () => {
        const response = await admin.inject({
          method: 'GET',
          url: historyUrl(busyStoreId, { filter: 'all' }),
        });
        expect(response.statusCode).toBe(200);
      });
    await completedTask(busyStoreId, addDays(today(), -1), 'Seul', reading(3));
    const few = await measure();
    for (let day = 1; day <= 6; day += 1)
      for (let index = 0; index < 10; index += 1)
        await completedTask(
          busyStoreId,
          addDays(today(), -day),
          `Relevé ${day}-${index}`,
          reading(index),
        );
    const body = (
      await admin.inject({ method: 'GET', url: historyUrl(busyStoreId, { filter: 'all' }) })
    ).json();
    expect(body.items.length).toBe(61);
    const many = await measure();
    expect(many).toBe(few);
  });
});

/** The text of every page of a PDF, read back with PDF.js. */
async function pdfText(buffer: Buffer): Promise<{ pages: number; text: string }> {
  const pdf = await getDocument({
    data: new Uint8Array(buffer),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const parts: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text: parts.join('\n') };
}

describe('exports', () => {
  it('POST /api/pdf/tasks answers a PDF holding the rows and their results', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: '/api/pdf/tasks',
      payload: { storeId, ...range(), filter: 'all', lang: 'fr' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="history-/);
    const { text } = await pdfText(response.rawPayload);
    for (const expected of [
      'Crème & Co',
      'Relevé chaud',
      'Relevé oublié',
      'Chloé',
      'Non prise',
      'Frigo Łódź',
      'Huile friteuse',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Relevé à venir');
  });

  it('the PDF and the CSV refuse more than 31 days', async () => {
    for (const url of ['/api/pdf/tasks', '/api/csv/tasks']) {
      const response = await customer.inject({
        method: 'POST',
        url,
        payload: { storeId, start: addDays(today(), -40), end: today(), filter: 'all' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('date-range-too-long');
    }
  });

  it('POST /api/csv/tasks answers a row per result line', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: '/api/csv/tasks',
      payload: { storeId, ...range(), filter: 'completed', lang: 'en' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // Header + one line per entry of the five completed tasks (one entry each).
    expect(lines).toHaveLength(6);
    expect(lines.some((line) => line.includes('Relevé chaud') && line.includes('7.5'))).toBe(true);
  });

  it('POST /api/archive/tasks answers every task of the range with its revisions', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: '/api/archive/tasks',
      payload: { storeId, ...range() },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.store.id).toBe(storeId);
    const hot = body.items.find((item: { id: string }) => item.id === ids.hot);
    expect(hot.revisions.map((revision: { revision: number }) => revision.revision)).toEqual([
      1, 2,
    ]);
    expect(body.items.map((item: { id: string }) => item.id)).toContain(ids.future);
    const unknownField = await customer.inject({
      method: 'POST',
      url: '/api/archive/tasks',
      payload: { storeId, ...range(), distributorId: 'x' },
    });
    expect(unknownField.statusCode).toBe(400);
  });
  it('the PDF prints completion and reading times, limits, corrections, pictures and whole header words', async () => {
    // A picture the tablet stored for this store, printed as a thumbnail.
    const picturePath = `stores/${storeId}/tasks/2026-11/${'ab'.repeat(16)}.png`;
    const image = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#2f8f46' },
    })
      .png()
      .toBuffer();
    await createLocalStorage(join(context.config.DATA_DIR, 'files')).put(picturePath, image);
    const day = addDays(today(), -3);
    const start = at(day, 8 * 60);
    await buildTask(context.db, {
      store_id: storeId,
      day,
      start,
      name: 'Relevé photo',
      elements: [fridge],
      completed_timestamp: new Date(start.getTime() + 25 * 60_000),
      employee: who,
      revision: 1,
      result: {
        entries: [
          {
            ...reading(2.5).entries[0],
            pictures: [{ path: picturePath, timestamp: start.getTime() / 1000 }],
            timestamp: start.getTime() / 1000 + 17 * 60,
          },
        ],
      },
    });

    const response = await customer.inject({
      method: 'POST',
      url: '/api/pdf/tasks',
      payload: { storeId, ...range(), filter: 'all', lang: 'fr' },
    });
    expect(response.statusCode).toBe(200);
    const pages = await readPdf(response.rawPayload);
    const items = pages.flatMap((page) => page.items.map((item) => item.text));
    const text = pages.map((page) => page.text).join('\n');
    const line = (value: string) => items.find((item) => item.includes(value));

    // The scheduled window, then apart the completion time (08:00–09:00, done at 08:25).
    expect(items).toContain(`${day.split('-').reverse().join('/')} 08:00 – 09:00`);
    expect(items).toContain(`${day.split('-').reverse().join('/')} 08:25`);
    // The reading's own time (08:17) and the element's minimum and maximum.
    expect(items).toContain('08:17');
    expect(items).toContain('0 °C / 4 °C');
    // The correction: revision, author, reason and the value it replaced (9 °C).
    expect(line('Révision 2 — Hugo Petit')).toBeDefined();
    expect(text).toContain('Motif : Deuxième mesure après fermeture de la porte');
    expect(text.replace(/\s+/g, ' ')).toContain('Valeur précédente : Frigo Łódź : 9 °C, 9 °C');
    // The picture is in the document as an image object.
    expect(response.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    // Headers break between words, never inside one ("Températu re de…").
    for (const header of ['Température de contrôle', 'Première température', 'Heure du relevé']) {
      for (const word of header.split(' ')) {
        const pieces = items.filter((item) => item.length > 2 && word.startsWith(item));
        expect(
          pieces.filter((piece) => piece !== word),
          `"${word}" is whole`,
        ).toEqual([]);
      }
    }
    expect(items).toContain('Température de');
    expect(items).toContain('contrôle');
  });
});

describe('task detail', () => {
  it('shows the expected date, the result and every revision with author and reason', async () => {
    const response = await customer.inject({ method: 'GET', url: `/api/tasks/${ids.hot}` });
    expect(response.statusCode).toBe(200);
    const { task } = response.json();
    expect(task.store_name).toBe('Crème & Co');
    expect(task.expected_at).toBe(at(addDays(today(), -1), 9 * 60).toISOString());
    expect(task.revisions).toHaveLength(2);
    expect(task.revisions[1].author).toEqual({ name: 'Hugo', surname: 'Petit' });
    expect(task.revisions[1].reason).toBe('Deuxième mesure après fermeture de la porte');
    expect(task.is_anomaly).toBe(true);
  });

  it('an unknown task answers 404', async () => {
    const response = await customer.inject({
      method: 'GET',
      url: '/api/tasks/00000000-0000-4000-8000-00000000dead',
    });
    expect(response.statusCode).toBe(404);
  });
});
