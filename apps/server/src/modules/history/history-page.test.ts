import type { HistoryFilter } from '@mise/shared/history/constants';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { addDays, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stores, tasks } from '../../db/schema';
import type { Scope } from '../../platform/scope';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildTask,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { backfillResultAnomalies, type HistorySearch, searchHistory } from './history.service';
import { JsonWriter, searchHistoryJson } from './history-page';

/**
 * The history page written as JSON bytes (history-page.ts, what the route sends) against the
 * reference answer built from objects (`searchHistory`, the read the exports keep): for every
 * filter, module, search, page size and cursor over varied tasks — statuses, anomalies decided
 * by the stored flag or by reading the result, postponed tasks and their copies, no employee,
 * no result, jsonb values PostgreSQL prints differently from JSON.stringify, stores 14 hours
 * either side of UTC — the bytes read as the reference's JSON: the same value, keys in the
 * same order (the jsonb parts keep PostgreSQL's spacing).
 */

const context = useTestApp();
const now = new Date('2026-11-20T15:30:00Z');
const today = '2026-11-20';
const zone = 'Europe/Paris';
const scope: Scope = {
  userId: 'history-page-test',
  role: 'admin',
  isAll: true,
  distributorIds: [],
  databaseIds: [],
  ownedStoreIds: [],
};
const modules: TaskModule[] = [
  'temperatures',
  'actions',
  'oils',
  'temperature_control',
  'traceability',
];
const filters: HistoryFilter[] = ['completed', 'anomaly', 'all'];
let storeId: string;
let farEastId: string;
let farWestId: string;
let admin: Agent;

const minutes = (instant: Date, count: number) => new Date(instant.getTime() + count * 60_000);
const fridge = {
  id: '00000000-0000-4000-8000-0000000000f1',
  name: 'Frigo "Łódź" \\ n°1',
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: 24,
  reheating_temperature: 63,
  cooling_temperature: 10,
};
const who = { name: 'Chloé', surname: 'Durand' };
const reading = (temperature: number | null, comment = '') => ({
  entries: [
    {
      element: fridge.id,
      temperature,
      first_temperature: temperature,
      control_temperature: null,
      comment,
      pictures: [],
      timestamp: 1_795_000_000,
    },
  ],
});

/** A task of `day` in the store's zone at `minute`, completed `after` minutes after its start. */
async function dayTask(
  store: string,
  storeZone: string,
  day: string,
  minute: number,
  values: Partial<typeof tasks.$inferInsert> & { after?: number } = {},
) {
  const { after, ...rest } = values;
  const start = localMinuteToInstant(day, minute, storeZone);
  return buildTask(context.db, {
    store_id: store,
    day,
    start,
    elements: [fridge],
    ...(after === undefined
      ? {}
      : {
          completed_timestamp: minutes(start, after),
          completed_employee: crypto.randomUUID(),
          employee: who,
          revision: 1,
        }),
    ...rest,
  });
}

/** Writes jsonb values as PostgreSQL text (numbers keep their scale, as SQL writes them). */
async function setJsonb(id: string, column: 'elements' | 'result' | 'employee', text: string) {
  await context.db.execute(
    sql`update tasks set ${sql.identifier(column)} = ${text}::jsonb where id = ${id}`,
  );
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  const common = { distributor_id: distributor.id, database_id: database.id, mise_licence: true };
  storeId = (await buildStore(db, { ...common, timezone_name: zone })).id;
  farEastId = (await buildStore(db, { ...common, timezone_name: 'Pacific/Kiritimati' })).id;
  farWestId = (await buildStore(db, { ...common, timezone_name: 'Etc/GMT+12' })).id;
  const yesterday = addDays(today, -1);
  const twoDaysAgo = addDays(today, -2);
  const first = addDays(today, -6);

  // Temperatures: clean, out of range, not taken (a comment JSON must escape), late.
  await dayTask(storeId, zone, yesterday, 8 * 60, {
    name: 'Relevé propre',
    result: reading(3),
    after: 10,
  });
  await dayTask(storeId, zone, yesterday, 9 * 60, {
    name: 'Relevé chaud',
    result: reading(7.5),
    after: 5,
  });
  await dayTask(storeId, zone, twoDaysAgo, 8 * 60, {
    name: 'Relevé manquant',
    result: reading(null, 'Sonde; cassée "HS" \\ \n\t\u0001 \u2028 😀'),
    after: 20,
  });
  await dayTask(storeId, zone, twoDaysAgo, 10 * 60, {
    name: 'Relevé tardif',
    result: reading(2),
    after: 90,
  });
  // Late and out of range; no employee; requires a manager, typed, from a configuration.
  await dayTask(storeId, zone, first, 0, {
    name: 'Relevé du premier jour',
    result: reading(-3),
    after: 75,
    employee: null,
    requires_manager: true,
    notify_late: true,
    type_name: 'HACCP',
    type_color: '#2e7d32',
    configuration_id: crypto.randomUUID(),
    store_configuration_id: crypto.randomUUID(),
    duration: 30,
  });
  // Not done: non-finalized (a past day), late (today, its end passed), on-time (not yet due).
  await dayTask(storeId, zone, twoDaysAgo, 12 * 60, { name: 'Relevé oublié' });
  await dayTask(storeId, zone, today, 13 * 60, { name: 'Relevé en retard' });
  await dayTask(storeId, zone, today, 18 * 60, { name: 'Relevé à venir' });
  // Postponed: the original (postponed, its employee) and its copy two days later, not done.
  const copy = await dayTask(storeId, zone, yesterday, 14 * 60, { name: 'Relevé reporté' });
  const original = await dayTask(storeId, zone, addDays(today, -3), 10 * 60, {
    name: 'Relevé reporté',
    postponed_task: copy.id,
    employee: who,
    revision: 1,
  });
  await db.update(tasks).set({ original_task: original.id }).where(eq(tasks.id, copy.id));
  // Same start, several tasks: the cursor's id decides their order.
  for (let index = 0; index < 5; index++)
    await dayTask(storeId, zone, addDays(today, -4), 7 * 60, {
      name: `Relevé groupé ${index}`,
      result: reading(index),
      after: 15,
    });
  // Outside the range (the day before, the day after) and of no shown module.
  await dayTask(storeId, zone, addDays(first, -1), 23 * 60 + 59, {
    name: 'Avant',
    result: reading(3),
    after: 1,
  });
  await dayTask(storeId, zone, addDays(today, 1), 0, {
    name: 'Après',
    result: reading(3),
    after: 1,
  });

  // Other modules.
  const oils = (polarity: number) => ({
    entries: [
      {
        element: fridge.id,
        cleaned: true,
        oil_changed: false,
        oil_filtered: true,
        filter_changed: false,
        polarity,
        temperature: 170,
        pictures: [],
      },
    ],
  });
  await dayTask(storeId, zone, yesterday, 11 * 60, {
    name: 'Huile bonne',
    module: 'oils',
    result: oils(12),
    after: 5,
  });
  await dayTask(storeId, zone, yesterday, 12 * 60, {
    name: 'Huile usée',
    module: 'oils',
    result: oils(30),
    after: 5,
  });
  const control = (end: number) => ({
    entries: [
      {
        element: fridge.id,
        mode: 'cooling',
        start_temperature: 70,
        end_temperature: end,
        target_temperature: 10,
        start_timestamp: 1_795_000_000,
        end_timestamp: 1_795_003_600,
        pictures: [],
      },
    ],
  });
  await dayTask(storeId, zone, yesterday, 15 * 60, {
    name: 'Refroidissement réussi',
    module: 'temperature_control',
    result: control(8),
    after: 5,
  });
  await dayTask(storeId, zone, yesterday, 16 * 60, {
    name: 'Refroidissement raté',
    module: 'temperature_control',
    result: control(14),
    after: 5,
  });
  const actions = [{ name: 'Nettoyer la hotte', requires_picture: true }];
  await dayTask(storeId, zone, twoDaysAgo, 17 * 60, {
    name: 'Nettoyage fait',
    module: 'actions',
    actions,
    elements: [],
    result: { entries: [{ name: 'Nettoyer la hotte', done: true, pictures: [] }] },
    after: 5,
  });
  await dayTask(storeId, zone, twoDaysAgo, 18 * 60, {
    name: 'Nettoyage oublié',
    module: 'actions',
    actions,
    elements: [],
    result: { entries: [{ name: 'Nettoyer la hotte', done: false, pictures: [] }] },
    after: 5,
  });
  await dayTask(storeId, zone, twoDaysAgo, 19 * 60, {
    name: 'Traçabilité',
    module: 'traceability',
    elements: [],
    result: { entries: [{ element: fridge.id, pictures: ['a.jpg'] }] },
    after: 5,
  });

  // jsonb as SQL writes it: numbers with their scale or beyond a double, a value stored as a
  // JSON string (Drizzle reads it parsed once more), JSON null, separators inside strings.
  const scaled = await dayTask(storeId, zone, addDays(today, -5), 9 * 60, {
    name: 'Relevé SQL',
    after: 10,
  });
  await setJsonb(
    scaled.id,
    'elements',
    `[{"id": "${fridge.id}", "name": "a, b: c", "minimum_temperature": 0.0, "maximum_temperature": 4.10, "maximum_polarity": null, "reheating_temperature": 63.000, "cooling_temperature": -0.0}]`,
  );
  await setJsonb(
    scaled.id,
    'result',
    `{"entries": [{"element": "${fridge.id}", "temperature": 3.0, "first_temperature": 0.0000001, "control_temperature": 0.000001, "timestamp": 1795000000, "comment": "x: 1, y: [2]", "pictures": [], "extra": [12345678901234567890, 1e2, 1.5E-3, 123456789.123456789, -7.250]}]}`,
  );
  const hot = await dayTask(storeId, zone, addDays(today, -5), 10 * 60, {
    name: 'Relevé SQL chaud',
    after: 10,
  });
  await setJsonb(
    hot.id,
    'result',
    `{"entries": [{"element": "${fridge.id}", "temperature": 9.00, "control_temperature": 3.0}]}`,
  );
  const asString = await dayTask(storeId, zone, addDays(today, -5), 11 * 60, {
    name: 'Relevé texte',
    after: 10,
  });
  await setJsonb(asString.id, 'result', JSON.stringify(JSON.stringify(reading(12))));
  await setJsonb(asString.id, 'employee', JSON.stringify('Chloé, pas un objet'));
  const nullResult = await dayTask(storeId, zone, addDays(today, -5), 12 * 60, {
    name: 'Relevé null',
    after: 10,
  });
  await setJsonb(nullResult.id, 'result', 'null');
  await setJsonb(nullResult.id, 'employee', 'null');
  await dayTask(storeId, zone, addDays(today, -5), 13 * 60, {
    name: 'Relevé sans résultat',
    after: 10,
  });

  // Zones 14 hours either side of UTC: the first day's midnight and the last day's last minute.
  for (const [store, storeZone] of [
    [farEastId, 'Pacific/Kiritimati'],
    [farWestId, 'Etc/GMT+12'],
  ] as const) {
    await dayTask(store, storeZone, first, 0, { name: 'Minuit', result: reading(3), after: 5 });
    await dayTask(store, storeZone, today, 23 * 60 + 59, {
      name: 'Fin de journée',
      result: reading(9),
      after: 5,
    });
    await dayTask(store, storeZone, addDays(first, -1), 23 * 60 + 59, {
      name: 'Veille',
      result: reading(3),
      after: 1,
    });
    await dayTask(store, storeZone, addDays(today, 1), 0, {
      name: 'Lendemain',
      result: reading(3),
      after: 1,
    });
  }

  // Flags from the shared rule, then two results as written before the flag existed.
  await backfillResultAnomalies(db);
  const unflagged = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(inArray(tasks.name, ['Relevé chaud', 'Relevé groupé 2', 'Relevé SQL']));
  await db
    .update(tasks)
    .set({ result_anomaly: null })
    .where(
      inArray(
        tasks.id,
        unflagged.map((row) => row.id),
      ),
    );

  const adminUser = await buildUser(db, { role: 'admin' });
  admin = await signIn(context.app, adminUser.email, testPassword);
});

/**
 * Both answers of one query: the text must read as the reference's JSON (the same value, keys
 * in the same order; the jsonb parts keep PostgreSQL's spacing).
 */
async function expectSameAnswer(store: string, query: HistorySearch) {
  const reference = await searchHistory(context.db, scope, store, query, now);
  const text = (await searchHistoryJson(context.database, scope, store, query, now)).toString(
    'utf8',
  );
  expectSameJson(text, reference);
  return reference;
}

/** `text` parses to the value JSON.stringify(reference) parses to, keys in the same order. */
function expectSameJson(text: string, reference: unknown) {
  const answer: unknown = JSON.parse(text);
  const expected: unknown = JSON.parse(JSON.stringify(reference));
  expect(answer).toStrictEqual(expected);
  // toStrictEqual ignores key order: compare it through a compact rewrite of both.
  expect(JSON.stringify(answer)).toBe(JSON.stringify(expected));
}

/** Every page of a query, following the cursor; answers the tasks seen. */
async function expectSamePages(store: string, query: Omit<HistorySearch, 'cursor'>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const answer = await expectSameAnswer(store, { ...query, cursor });
    seen.push(...answer.items.map((item) => item.name));
    if (!answer.next_cursor) return seen;
    cursor = answer.next_cursor;
  }
  throw new Error('too many pages');
}

const range = { start: addDays(today, -6), end: today };

describe('history page as JSON bytes', () => {
  it('answers the reference JSON for every filter, module and page size', async () => {
    let shown = 0;
    for (const module of modules)
      for (const filter of filters)
        for (const limit of [1, 2, 3, 100]) {
          const seen = await expectSamePages(storeId, { ...range, module, filter, limit });
          if (limit === 100) shown += seen.length;
        }
    // The fixtures do reach the answers (not only empty pages).
    expect(shown).toBeGreaterThan(40);
  });

  it('covers the cases it claims: flags, result-read anomalies, postponed, no employee', async () => {
    const { items } = await expectSameAnswer(storeId, {
      ...range,
      module: 'temperatures',
      filter: 'all',
      limit: 100,
    });
    const byName = new Map(items.map((item) => [item.name, item]));
    expect(byName.get('Relevé chaud')?.anomalies).toEqual(['temperature-out-of-range']);
    expect(byName.get('Relevé SQL chaud')?.anomalies).toEqual(['temperature-out-of-range']);
    expect(byName.get('Relevé texte')?.anomalies).toEqual(['temperature-out-of-range']);
    expect(byName.get('Relevé manquant')?.anomalies).toEqual(['temperature-not-taken']);
    expect(byName.get('Relevé du premier jour')?.anomalies).toEqual([
      'late',
      'temperature-out-of-range',
    ]);
    expect(byName.get('Relevé du premier jour')?.employee).toBeNull();
    expect(byName.get('Relevé en retard')?.status).toBe('late');
    expect(byName.get('Relevé oublié')?.status).toBe('non-finalized');
    expect(byName.has('Relevé à venir')).toBe(false);
    const postponed = items.filter((item) => item.name === 'Relevé reporté');
    expect(postponed.map((item) => item.status).sort()).toEqual(['non-finalized', 'postponed']);
    expect(postponed.find((item) => item.status === 'postponed')?.postponed_to).not.toBeNull();
    expect(byName.has('Avant')).toBe(false);
    expect(byName.has('Après')).toBe(false);
  });

  it('answers the reference JSON for searches, and for stores 14 hours from UTC', async () => {
    for (const search of [
      'chaud',
      'CHLOÉ durand',
      'Łódź',
      'cassée',
      '"HS"',
      'a, b',
      '%',
      '_',
      'hotte',
    ])
      for (const filter of filters)
        await expectSamePages(storeId, {
          ...range,
          module: 'temperatures',
          filter,
          search,
          limit: 2,
        });
    await expectSameAnswer(storeId, {
      ...range,
      module: 'actions',
      filter: 'all',
      search: 'hotte',
      limit: 100,
    });
    for (const store of [farEastId, farWestId]) {
      const names = await expectSamePages(store, {
        ...range,
        module: 'temperatures',
        filter: 'all',
        limit: 1,
      });
      expect(names.sort()).toEqual(['Fin de journée', 'Minuit']);
    }
  });

  it('answers the reference JSON for one day, an empty range and a hidden module', async () => {
    await expectSameAnswer(storeId, {
      start: today,
      end: today,
      module: 'temperatures',
      filter: 'all',
      limit: 100,
    });
    await expectSameAnswer(storeId, {
      start: '2020-01-01',
      end: '2020-01-31',
      module: 'temperatures',
      filter: 'all',
      limit: 100,
    });
    await context.db
      .update(stores)
      .set({ hidden_modules: ['oils'] })
      .where(eq(stores.id, storeId));
    try {
      const answer = await expectSameAnswer(storeId, {
        ...range,
        module: 'oils',
        filter: 'all',
        limit: 100,
      });
      expect(answer.items).toEqual([]);
    } finally {
      await context.db.update(stores).set({ hidden_modules: [] }).where(eq(stores.id, storeId));
    }
  });

  it('GET /api/stores/:storeId/history sends the text as JSON, encoded once', async () => {
    const query = { ...range, module: 'temperatures' as const, filter: 'all' as const, limit: 100 };
    const response = await admin.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/history?${new URLSearchParams({ ...query, limit: '100' })}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const reference = await searchHistory(context.db, scope, storeId, query);
    expectSameJson(response.body, reference);
  });
});

describe('JsonWriter', () => {
  /** Values whose jsonb text differs from JSON.stringify's in separators, numbers or strings. */
  const samples = [
    '3.0',
    '-0.0',
    '0',
    '-12',
    '0.5',
    '-0.25',
    '0.0000001',
    '0.000001',
    '0.00000123',
    '1e21',
    '1E+2',
    '2.5e-8',
    '123456789012345',
    '1234567890123456',
    '12345678901234567890',
    '1.234567890123456789',
    '999999999999999.9',
    '100.10',
    '1e400',
    '"a, b: c"',
    '"{\\"k\\": [1.50, 2], \\"s\\": \\"x, y\\"}"',
    '"quote \\" backslash \\\\ end\\\\"',
    '"\\\\"',
    '"\\n\\t\\r\\b\\f \\u0001 \\u001f \\u007f \\u2028 é Ł 😀"',
    '{"k, ": "v: ", "": [], "x": {}}',
    '[1.10, {"a": -0.5, "bb": [true, false, null]}, "]", "\\\\", 7]',
    'true',
    'null',
    '{}',
    '[]',
  ];

  it('copies jsonb text as PostgreSQL prints it, reading back as the stored value', async () => {
    const result = (await context.db.execute(
      sql`select input.value::jsonb::text as text
            from jsonb_array_elements_text(${JSON.stringify(samples)}::jsonb) with ordinality as input(value, position)
           order by input.position`,
    )) as unknown as { rows: { text: string }[] };
    expect(result.rows).toHaveLength(samples.length);
    const seen = new Map<string, Buffer>();
    for (const { text } of result.rows) {
      // Twice: written, then copied from what was seen.
      for (let round = 0; round < 2; round++) {
        const out = new JsonWriter(0);
        out.jsonb(text, seen);
        const written = out.toBuffer().toString('utf8');
        const parsed = JSON.parse(text);
        if (typeof parsed === 'string' && /^[[{]/.test(parsed)) {
          // A JSON string holding JSON is read parsed (Drizzle's jsonb column does so).
          expect(JSON.parse(written), text).toStrictEqual(JSON.parse(parsed));
        } else {
          expect(written, text).toBe(text);
        }
      }
    }
  });

  it('writes instants as toISOString does', () => {
    const instants = [
      0,
      -1,
      1,
      86_399_999,
      -86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 0, 1),
      Date.UTC(1900, 1, 28, 12),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
      Date.UTC(0, 0, 1) - 1,
      -62_167_219_200_000,
    ];
    let seed = 11;
    for (let index = 0; index < 2000; index++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Math.floor((seed / 2_147_483_648) * 4e12) - 1e12);
    }
    for (const instant of instants) {
      const out = new JsonWriter(0);
      out.instant(instant);
      expect(out.toBuffer().toString('utf8'), String(instant)).toBe(
        JSON.stringify(new Date(instant).toISOString()),
      );
    }
  });
});
