import { randomUUID } from 'node:crypto';
import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertEpisodes, probeReadings, probes } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildStore,
  buildStoreElement,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';
import { readPdf } from '../../test/read-pdf';

/**
 * The probe records of the history (issue 15) through the API: the alert episodes of the
 * period with their acknowledgements and the bound elements' probe days, scoped as the rest of
 * the history (another tenant's episodes never appear), in the PDF and the CSV.
 */

const context = useTestApp();
const zone = 'Europe/Paris';
let customer: Agent;
let otherCustomer: Agent;
let storeId: string;
let otherStoreId: string;
const episode: Record<string, string> = {};

const today = () => dayInZone(new Date(), zone);
const day = (offset: number) => addDays(today(), offset);
const at = (offset: number, hour: number, minute = 0) =>
  localMinuteToInstant(day(offset), hour * 60 + minute, zone);
const uid = (label: string) => `history-${label}-${randomUUID()}`;

async function buildProbe(store: string, name: string) {
  const [row] = await context.db
    .insert(probes)
    .values({ probe_uid: uid(name), name, store_id: store, secret_hash: `hash-${randomUUID()}` })
    .returning();
  return row!;
}

type EpisodeValues = Partial<typeof alertEpisodes.$inferInsert> & {
  probe_id: string;
  store_id: string;
  started_at: Date;
};
async function buildEpisode(values: EpisodeValues) {
  const [row] = await context.db
    .insert(alertEpisodes)
    .values({ kind: 'out_of_range', delay_minutes: 15, opened_at: values.started_at, ...values })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  const store = await buildStore(db, {
    distributor_id: distributor.id,
    database_id: database.id,
    timezone_name: zone,
    mise_licence: true,
    name: 'Bistro Sonde',
  });
  const otherDistributor = await buildDistributor(db);
  const other = await buildStore(db, {
    distributor_id: otherDistributor.id,
    timezone_name: zone,
    mise_licence: true,
  });
  storeId = store.id;
  otherStoreId = other.id;

  const fridgeProbe = await buildProbe(storeId, 'Sonde frigo');
  const freezerProbe = await buildProbe(storeId, 'Sonde congélateur');
  const otherProbe = await buildProbe(otherStoreId, 'Sonde voisine');

  // An override of a database element that locks its name and bounds: the effective values
  // are the origin's. Another element names the other tenant's probe: it never counts.
  const origin = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Frigo viandes',
    minimum_temperature: 0,
    maximum_temperature: 4,
  });
  await buildStoreElement(db, {
    store_id: storeId,
    origin_id: origin.id,
    probe_id: fridgeProbe.probe_uid,
  });
  await buildStoreElement(db, {
    store_id: storeId,
    name: 'Congélateur',
    minimum_temperature: -25,
    maximum_temperature: -18,
    probe_id: freezerProbe.probe_uid,
  });
  await buildStoreElement(db, {
    store_id: storeId,
    name: 'Vitrine',
    probe_id: otherProbe.probe_uid,
  });

  await db.insert(probeReadings).values([
    // 00:30 local two days ago is still the evening before in UTC: it counts for its local day.
    { probe_id: fridgeProbe.id, timestamp: at(-2, 0, 30), temperature: 1.5 },
    { probe_id: fridgeProbe.id, timestamp: at(-2, 8), temperature: 3 },
    { probe_id: fridgeProbe.id, timestamp: at(-2, 12), temperature: 6.5 },
    { probe_id: fridgeProbe.id, timestamp: at(-2, 20), temperature: 2.5 },
    { probe_id: fridgeProbe.id, timestamp: at(-1, 10), temperature: 3.5 },
    // Before the period: never summarised.
    { probe_id: fridgeProbe.id, timestamp: at(-10, 10), temperature: 9 },
    { probe_id: freezerProbe.id, timestamp: at(-1, 9), temperature: -20 },
    { probe_id: otherProbe.id, timestamp: at(-1, 9), temperature: 11 },
  ]);

  episode.acknowledged = await buildEpisode({
    probe_id: fridgeProbe.id,
    store_id: storeId,
    started_at: at(-2, 12),
    resolved_at: at(-2, 13),
    minimum_temperature: 0,
    maximum_temperature: 4,
    worst_value: 6.5,
    last_value: 2.5,
    escalation_level: 1,
    acknowledged_at: at(-2, 12, 40),
    acknowledged_by_name: 'Chloé Durand',
    corrective_action: 'Produits déplacés; porte "réparée"',
  });
  episode.open = await buildEpisode({
    probe_id: freezerProbe.id,
    store_id: storeId,
    kind: 'offline',
    started_at: at(-1, 9, 30),
    escalation_level: 2,
  });
  // Began long before the period and still open: it overlaps the period.
  episode.longOpen = await buildEpisode({
    probe_id: fridgeProbe.id,
    store_id: storeId,
    kind: 'low_battery',
    started_at: at(-20, 6),
    worst_value: 12,
  });
  // Over before the period.
  episode.past = await buildEpisode({
    probe_id: fridgeProbe.id,
    store_id: storeId,
    started_at: at(-20, 10),
    resolved_at: at(-19, 10),
  });
  episode.otherTenant = await buildEpisode({
    probe_id: otherProbe.id,
    store_id: otherStoreId,
    started_at: at(-1, 11),
    worst_value: 11,
  });

  const owner = await buildUser(db, { role: 'customer', ownedStoreIds: [storeId] });
  const otherOwner = await buildUser(db, { role: 'customer', ownedStoreIds: [otherStoreId] });
  customer = await signIn(context.app, owner.email, testPassword);
  otherCustomer = await signIn(context.app, otherOwner.email, testPassword);
});

const range = () => ({ start: day(-6), end: today() });
const probesUrl = (store: string, query: Record<string, string> = range()) =>
  `/api/stores/${store}/history/probes?${new URLSearchParams(query)}`;
type Body = {
  alerts: { id: string; storeId: string; elementName: string | null; acknowledgedByName: string }[];
  elements: {
    name: string;
    probe_name: string;
    minimum_temperature: number | null;
    maximum_temperature: number | null;
    days: {
      day: string;
      minimum: number;
      maximum: number;
      last_temperature: number;
      readings: number;
    }[];
  }[];
};

describe('GET /api/stores/:storeId/history/probes', () => {
  it('requires a session', async () => {
    const response = await context.app.inject({ method: 'GET', url: probesUrl(storeId) });
    expect(response.statusCode).toBe(401);
  });

  it('lists the episodes overlapping the period, newest first, with their acknowledgement', async () => {
    const response = await customer.inject({ method: 'GET', url: probesUrl(storeId) });
    expect(response.statusCode).toBe(200);
    const body = response.json() as Body;
    expect(body.alerts.map((alert) => alert.id)).toEqual([
      episode.open,
      episode.acknowledged,
      episode.longOpen,
    ]);
    const acknowledged = response.json().alerts[1];
    expect(acknowledged).toMatchObject({
      kind: 'out_of_range',
      probeName: 'Sonde frigo',
      elementName: 'Frigo viandes',
      storeName: 'Bistro Sonde',
      worstValue: 6.5,
      minimumTemperature: 0,
      maximumTemperature: 4,
      escalationLevel: 1,
      acknowledgedByName: 'Chloé Durand',
      correctiveAction: 'Produits déplacés; porte "réparée"',
      resolvedAt: at(-2, 13).toISOString(),
    });
    expect(response.json().alerts[0]).toMatchObject({
      kind: 'offline',
      elementName: 'Congélateur',
      resolvedAt: null,
      acknowledgedAt: null,
    });
  });

  it('summarises each bound element’s probe per store day: lowest, highest, last, count', async () => {
    const response = await customer.inject({ method: 'GET', url: probesUrl(storeId) });
    const body = response.json() as Body;
    // By name; the element naming another tenant's probe is not bound.
    expect(body.elements.map((element) => element.name)).toEqual(['Congélateur', 'Frigo viandes']);
    const fridge = body.elements[1]!;
    expect(fridge).toMatchObject({
      probe_name: 'Sonde frigo',
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    expect(fridge.days).toEqual([
      {
        day: day(-2),
        minimum: 1.5,
        maximum: 6.5,
        last_temperature: 2.5,
        last_reading_at: at(-2, 20).toISOString(),
        readings: 4,
      },
      {
        day: day(-1),
        minimum: 3.5,
        maximum: 3.5,
        last_temperature: 3.5,
        last_reading_at: at(-1, 10).toISOString(),
        readings: 1,
      },
    ]);
    expect(body.elements[0]!.days.map((item) => [item.day, item.minimum])).toEqual([
      [day(-1), -20],
    ]);
  });

  it('never shows another tenant’s episodes or store', async () => {
    const mine = (await customer.inject({ method: 'GET', url: probesUrl(storeId) })).json() as Body;
    expect(mine.alerts.map((alert) => alert.id)).not.toContain(episode.otherTenant);
    expect(mine.alerts.every((alert) => alert.storeId === storeId)).toBe(true);
    const foreign = await customer.inject({ method: 'GET', url: probesUrl(otherStoreId) });
    expect(foreign.statusCode).toBe(404);
    const theirs = (
      await otherCustomer.inject({ method: 'GET', url: probesUrl(otherStoreId) })
    ).json() as Body;
    expect(theirs.alerts.map((alert) => alert.id)).toEqual([episode.otherTenant]);
    expect(theirs.elements).toEqual([]);
    const refused = await otherCustomer.inject({ method: 'GET', url: probesUrl(storeId) });
    expect(refused.statusCode).toBe(404);
  });

  it('follows the period: an earlier period has the earlier episodes and no later day', async () => {
    const response = await customer.inject({
      method: 'GET',
      url: probesUrl(storeId, { start: day(-25), end: day(-15) }),
    });
    const body = response.json() as Body;
    expect(body.alerts.map((alert) => alert.id)).toEqual([episode.past, episode.longOpen]);
    expect(body.elements.every((element) => element.days.length === 0)).toBe(true);
    const tenDaysAgo = (
      await customer.inject({
        method: 'GET',
        url: probesUrl(storeId, { start: day(-10), end: day(-10) }),
      })
    ).json() as Body;
    expect(tenDaysAgo.alerts.map((alert) => alert.id)).toEqual([episode.longOpen]);
    expect(tenDaysAgo.elements[1]!.days.map((item) => item.maximum)).toEqual([9]);
  });

  it('refuses a range over 31 days and an end before the start', async () => {
    const long = await customer.inject({
      method: 'GET',
      url: probesUrl(storeId, { start: day(-40), end: today() }),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('date-range-too-long');
    const reversed = await customer.inject({
      method: 'GET',
      url: probesUrl(storeId, { start: today(), end: day(-1) }),
    });
    expect(reversed.statusCode).toBe(400);
  });
});

describe('probe records in the history exports', () => {
  /** A small RFC 4180 reader (';' separated). */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let isQuoted = false;
    for (let index = 0; index < text.length; index += 1) {
      const character = text[index]!;
      if (isQuoted) {
        if (character === '"' && text[index + 1] === '"') {
          field += '"';
          index += 1;
        } else if (character === '"') isQuoted = false;
        else field += character;
      } else if (character === '"') isQuoted = true;
      else if (character === ';') {
        row.push(field);
        field = '';
      } else if (character === '\r' && text[index + 1] === '\n') {
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
        index += 1;
      } else field += character;
    }
    if (field !== '' || row.length > 0) rows.push([...row, field]);
    return rows;
  }

  it('the CSV has a row per episode and per probe day, in the recipient’s language', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: '/api/csv/tasks',
      payload: { storeId, ...range(), filter: 'completed', lang: 'fr' },
    });
    expect(response.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(response.body.replace(/^\uFEFF/, ''));
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(header).toContain('Action corrective');
    expect(header).toContain('Acquittée par');
    const alerts = rows.filter((row) => cell(row, 'Module') === 'Alertes des sondes');
    expect(alerts).toHaveLength(3);
    const [open, acknowledged] = alerts;
    expect(cell(open!, 'Alerte')).toBe('Sonde hors ligne');
    expect(cell(open!, 'Anomalie')).toBe('Non acquittée');
    expect(cell(open!, 'Statut')).toBe('En cours');
    expect(cell(open!, 'Escalade atteinte')).toBe('Distributeur');
    expect(cell(acknowledged!, 'Élément/Action')).toBe('Frigo viandes');
    expect(cell(acknowledged!, 'Sonde')).toBe('Sonde frigo');
    expect(cell(acknowledged!, 'Date')).toBe(day(-2).split('-').reverse().join('/'));
    expect(cell(acknowledged!, 'Heure')).toBe('12:00');
    expect(cell(acknowledged!, "Fin de l'alerte")).toBe(
      `${day(-2).split('-').reverse().join('/')} 13:00`,
    );
    expect(cell(acknowledged!, 'Pire valeur (°C ou batterie %)')).toBe('6.5');
    expect(cell(acknowledged!, 'Maximum (°C)')).toBe('4');
    expect(cell(acknowledged!, 'Acquittée par')).toBe('Chloé Durand');
    expect(cell(acknowledged!, 'Action corrective')).toBe('Produits déplacés; porte "réparée"');
    expect(cell(acknowledged!, 'Anomalie')).toBe('');
    const days = rows.filter((row) => cell(row, 'Module') === 'Relevés des sondes par jour');
    expect(
      days.map((row) => [
        cell(row, 'Élément/Action'),
        cell(row, 'Relevé minimum (°C)'),
        cell(row, 'Relevé maximum (°C)'),
        cell(row, 'Température (°C)'),
        cell(row, 'Relevés'),
      ]),
    ).toEqual([
      ['Congélateur', '-20', '-20', '-20', '1'],
      ['Frigo viandes', '1.5', '6.5', '2.5', '4'],
      ['Frigo viandes', '3.5', '3.5', '3.5', '1'],
    ]);
  });

  it('the PDF prints the episodes and the probe days after the tasks', async () => {
    const response = await customer.inject({
      method: 'POST',
      url: '/api/pdf/tasks',
      payload: { storeId, ...range(), filter: 'completed', lang: 'en' },
    });
    expect(response.statusCode).toBe(200);
    const text = (await readPdf(response.rawPayload))
      .map((page) => page.text)
      .join('\n')
      .replace(/\n/g, ' ');
    expect(text).toContain('Probe alerts');
    expect(text).toContain('Alerts: 3');
    expect(text).toContain('Probe offline');
    expect(text).toContain('Not acknowledged');
    expect(text).toContain('Chloé Durand');
    expect(text).toContain('Probe readings by day');
    expect(text).toContain('Frigo viandes (Sonde frigo)');
    expect(text).not.toContain('Sonde voisine');
  });
});

// Last: it adds an element and episodes to the store.
describe('probe records query plan', () => {
  it('reads the same number of statements whatever the number of episodes and readings', async () => {
    const measure = () =>
      countQueries(context.database, async () => {
        const response = await customer.inject({ method: 'GET', url: probesUrl(storeId) });
        expect(response.statusCode).toBe(200);
      });
    const before = await measure();
    const extra = await buildProbe(storeId, 'Sonde extra');
    await buildStoreElement(context.db, {
      store_id: storeId,
      name: 'Extra',
      probe_id: extra.probe_uid,
    });
    for (let index = 0; index < 5; index += 1) {
      await buildEpisode({
        probe_id: extra.id,
        store_id: storeId,
        kind: 'low_battery',
        started_at: at(-3, 8 + index),
        resolved_at: at(-3, 8 + index, 30),
      });
    }
    expect(await measure()).toBe(before);
  });
});
