import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { alertEpisodes, alertNotifications, probes, pushSubscriptions } from '../../db/schema';
import { createPushSender } from '../../platform/push';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { useTestPushService } from '../../test/push-service';
import { useTestSmtpServer } from '../../test/smtp';
import { runAlertTick } from './alerts.engine';
import { runAlertPass } from './alerts.jobs';

const mail = useTestSmtpServer();
const pushService = useTestPushService();
let clock = new Date('2026-11-27T22:00:00.000Z');
const context = useTestApp({
  now: () => clock,
  env: mail.env,
  push: (config) => createPushSender(config, { agent: pushService.agent }),
});

const minute = 60_000;
const start = clock.getTime();
const at = (minutes: number) => new Date(start + minutes * minute);

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let owner: Agent;
let manager: Agent;
let otherTenant: Agent;
const secrets = new Map<string, string>();

async function register(probeUID: string, storeId: string, edit: object = {}) {
  const response = await admin.inject({
    method: 'POST',
    url: '/api/probes',
    payload: { probeUID, name: `Probe ${probeUID}`, storeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  secrets.set(probeUID, response.json().secret);
  const edited = await admin.inject({
    method: 'POST',
    url: `/api/probes/edit/${probeUID}`,
    payload: edit,
  });
  expect(edited.statusCode, edited.body).toBeLessThan(300);
}

/** Readings every 5 minutes from minute `from` (the app's clock must be past each one). */
async function post(probeUID: string, from: number, temperatures: number[], battery = 90) {
  const response = await context.app.inject({
    method: 'POST',
    url: `/api/probes/readings/${probeUID}`,
    headers: { authorization: `Bearer ${secrets.get(probeUID)}` },
    payload: {
      readings: temperatures.map((temperature, index) => ({
        timestamp: at(from + index * 5).toISOString(),
        temperature,
        batteryLevel: battery,
      })),
    },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function pass(minutes: number) {
  clock = at(minutes);
  return runAlertPass(context.app.deps, clock);
}

async function episodesOf(probeUID: string) {
  return context.db
    .select({ episode: alertEpisodes })
    .from(alertEpisodes)
    .innerJoin(probes, eq(probes.id, alertEpisodes.probe_id))
    .where(eq(probes.probe_uid, probeUID))
    .then((rows) => rows.map((row) => row.episode));
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  owner = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  otherTenant = await signIn(context.app, tenants.b.users.customer.email, testPassword);
  // The owner reads French; the manager keeps the default (English).
  const language = await owner.inject({
    method: 'PUT',
    url: '/api/me/language',
    payload: { language: 'fr' },
  });
  expect(language.statusCode).toBe(204);
  clock = at(-60);
  await register('walk-in-a', tenants.a.stores[0]!.id, {
    minimumTemperature: 0,
    maximumTemperature: 4,
    pushNotification: true,
  });
});

describe('out of range: opens after the delay, holds, escalates, is acknowledged, resolves', () => {
  const subscription = () => pushService.subscription('/push/owner');
  let ownerSubscription: ReturnType<typeof subscription>;

  it('a browser subscribes to Web Push', async () => {
    ownerSubscription = subscription();
    const response = await owner.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: { endpoint: ownerSubscription.endpoint, keys: ownerSubscription.keys },
    });
    expect(response.statusCode, response.body).toBe(204);
    const key = await context.app.inject({ method: 'GET', url: '/api/push/key' });
    expect(key.json().publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
  });

  it('a door open for 10 minutes opens nothing', async () => {
    clock = at(40);
    await post('walk-in-a', 0, [3, 3, 7, 8, 3, 3, 3, 3, 3]);
    for (const minutes of [10, 20, 30, 40]) await pass(minutes);
    expect(await episodesOf('walk-in-a')).toEqual([]);
  });

  it('9 °C from minute 45: nothing at minute 59, one episode at minute 60', async () => {
    clock = at(60);
    await post('walk-in-a', 45, [9, 9.5, 10, 9.8]);
    await pass(59);
    expect(await episodesOf('walk-in-a')).toEqual([]);
    const summary = await pass(60);
    expect(summary.opened).toBe(1);
    const [episode] = await episodesOf('walk-in-a');
    expect(episode).toMatchObject({
      kind: 'out_of_range',
      started_at: at(45),
      opened_at: at(60),
      resolved_at: null,
      minimum_temperature: 0,
      maximum_temperature: 4,
      delay_minutes: 15,
      worst_value: 10,
      last_value: 9.8,
      escalation_level: 0,
      next_escalation_at: at(90),
    });
  });

  it('the owner gets one e-mail in French on the SMTP server and one encrypted push', async () => {
    const message = await mail.server.waitForMessage((m) =>
      m.envelopeTo.includes(tenants.a.users.customer.email),
    );
    expect(message.subject).toBe(`Alerte Store A1 : Probe walk-in-a à 10 °C`);
    expect(message.body).toContain('hors plage depuis le 27/11/2026 23:45');
    expect(message.body).toContain('de 0 à 4 °C');
    const pushes = pushService.pushes.filter((push) => push.path === '/push/owner');
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.headers['content-encoding']).toBe('aes128gcm');
    expect(String(pushes[0]!.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    expect(ownerSubscription.decrypt(pushes[0]!.body)).toMatchObject({
      title: 'Alerte Store A1 : Probe walk-in-a à 10 °C',
      url: `/home?storeId=${tenants.a.stores[0]!.id}`,
      kind: 'out_of_range',
    });
  });

  it('flapping values hold the one episode: no second mail', async () => {
    clock = at(80);
    await post('walk-in-a', 65, [3, 11, 3, 9]);
    for (const minutes of [65, 70, 75, 80]) await pass(minutes);
    const episodes = await episodesOf('walk-in-a');
    expect(episodes).toHaveLength(1);
    expect(episodes[0]!.worst_value).toBe(11);
    const toOwner = mail.server.messages.filter((m) =>
      m.envelopeTo.includes(tenants.a.users.customer.email),
    );
    expect(toOwner).toHaveLength(1);
  });

  it('unacknowledged after 30 minutes: the managers, in English', async () => {
    clock = at(90);
    await post('walk-in-a', 85, [10, 10]);
    await pass(89);
    expect((await episodesOf('walk-in-a'))[0]!.escalation_level).toBe(0);
    const summary = await pass(90);
    expect(summary.escalated).toBe(1);
    const message = await mail.server.waitForMessage((m) =>
      m.envelopeTo.includes(tenants.a.users.manager.email),
    );
    expect(message.subject).toBe(
      'Not acknowledged for 30 min — Alert Store A1: Probe walk-in-a at 11 °C',
    );
    expect((await episodesOf('walk-in-a'))[0]!.next_escalation_at).toEqual(at(120));
  });

  it('another tenant neither sees nor acknowledges it', async () => {
    const [episode] = await episodesOf('walk-in-a');
    const list = await otherTenant.inject({ method: 'GET', url: '/api/alerts?state=open' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([]);
    const ack = await otherTenant.inject({
      method: 'POST',
      url: `/api/alerts/${episode!.id}/acknowledge`,
      payload: { correctiveAction: 'Nothing' },
    });
    expect(ack.statusCode).toBe(404);
    expect(ack.json().error.code).toBe('alert/not-found');
  });

  it('the manager lists it and acknowledges it with a required corrective action, once', async () => {
    const list = await manager.inject({
      method: 'GET',
      url: `/api/alerts?storeId=${tenants.a.stores[0]!.id}&state=open`,
    });
    expect(list.json().items.map((item: { kind: string }) => item.kind)).toEqual(['out_of_range']);
    const [item] = list.json().items;
    expect(item).toMatchObject({
      probeUID: 'walk-in-a',
      storeName: 'Store A1',
      escalationLevel: 1,
    });
    const empty = await manager.inject({
      method: 'POST',
      url: `/api/alerts/${item.id}/acknowledge`,
      payload: { correctiveAction: '   ' },
    });
    expect(empty.statusCode).toBe(400);
    expect((await episodesOf('walk-in-a'))[0]!.acknowledged_at).toBeNull();
    clock = at(95);
    const ack = await manager.inject({
      method: 'POST',
      url: `/api/alerts/${item.id}/acknowledge`,
      payload: { correctiveAction: 'Products moved to the other cold room; repair called.' },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().alert).toMatchObject({
      acknowledgedAt: at(95).toISOString(),
      correctiveAction: 'Products moved to the other cold room; repair called.',
    });
    expect(ack.json().alert.acknowledgedByName).not.toBe('');
    const again = await owner.inject({
      method: 'POST',
      url: `/api/alerts/${item.id}/acknowledge`,
      payload: { correctiveAction: 'Me too' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('alert/already-acknowledged');
    // Acknowledged: no climb to the distributor.
    await pass(120);
    expect((await episodesOf('walk-in-a'))[0]!.escalation_level).toBe(1);
  });

  it('back in range for 15 minutes: resolved at the first reading back, owners told', async () => {
    clock = at(130);
    await post('walk-in-a', 100, [3, 3, 2.5, 3, 3, 3, 3]);
    await pass(114);
    expect((await episodesOf('walk-in-a'))[0]!.resolved_at).toBeNull();
    await pass(115);
    expect((await episodesOf('walk-in-a'))[0]!.resolved_at).toEqual(at(100));
    const message = await mail.server.waitForMessage(
      (m) =>
        m.envelopeTo.includes(tenants.a.users.customer.email) && m.subject.startsWith('Retour'),
    );
    expect(message.subject).toBe('Retour à la normale Store A1 : Probe walk-in-a');
  });
});

describe('offline, low battery, a forgotten subscription', () => {
  it('a probe silent for 2 posting intervals opens offline, a reading resolves it', async () => {
    clock = at(200);
    await register('silent-a', tenants.a.stores[1]!.id, { postingInterval: 5 });
    await post('silent-a', 200, [3]);
    await pass(209);
    expect(await episodesOf('silent-a')).toEqual([]);
    await pass(210);
    const [offline] = await episodesOf('silent-a');
    expect(offline).toMatchObject({ kind: 'offline', started_at: at(200), resolved_at: null });
    clock = at(232);
    await post('silent-a', 230, [3]);
    await pass(232);
    expect((await episodesOf('silent-a'))[0]!.resolved_at).toEqual(at(230));
  });

  it('a battery below 20 % opens low_battery (owners only, never escalated)', async () => {
    clock = at(240);
    await post('silent-a', 240, [3], 19);
    await pass(240);
    const low = (await episodesOf('silent-a')).find((episode) => episode.kind === 'low_battery');
    expect(low).toMatchObject({ worst_value: 19, next_escalation_at: null });
  });

  it('a push service answering 410 Gone deletes the subscription', async () => {
    const gone = pushService.subscription('/gone/owner');
    await owner.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: { endpoint: gone.endpoint, keys: gone.keys },
    });
    clock = at(300);
    await post('walk-in-a', 270, [12, 12, 12, 12, 12, 12, 12]);
    await pass(300);
    const rows = await context.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, gone.endpoint));
    expect(rows).toEqual([]);
    expect(pushService.pushes.some((push) => push.path === '/gone/owner')).toBe(true);
  });
});

describe("the database's escalation minutes", () => {
  it('the manager sets them, from 5 to 1,440 minutes', async () => {
    const databaseId = tenants.a.database.id;
    const read = await manager.inject({ method: 'GET', url: `/api/databases/${databaseId}` });
    expect(read.json().database.alert_escalation_minutes).toBe(30);
    const version = read.json().database.version;
    const refused = await manager.inject({
      method: 'PATCH',
      url: `/api/databases/${databaseId}`,
      payload: { version, alert_escalation_minutes: 4 },
    });
    expect(refused.statusCode).toBe(400);
    const saved = await manager.inject({
      method: 'PATCH',
      url: `/api/databases/${databaseId}`,
      payload: { version, alert_escalation_minutes: 45 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().database.alert_escalation_minutes).toBe(45);
  });
});

describe('two server instances on one database', () => {
  it('open the episode and queue its notifications once', async () => {
    // Every other probe's state settled first (the earlier probes fell silent meanwhile).
    await pass(399);
    clock = at(400);
    await register('race-a', tenants.a.stores[0]!.id, {
      minimumTemperature: 0,
      maximumTemperature: 4,
    });
    await post('race-a', 370, [9, 9, 9, 9, 9, 9, 9]);
    // A second connection pool on PostgreSQL (a second instance); PGlite is one process.
    const second =
      context.database.driver === 'pg'
        ? await openDatabase({
            driver: 'pg',
            url: (context.database.pool!.options as { connectionString: string }).connectionString,
            poolSize: 2,
          })
        : null;
    try {
      const results = await Promise.all([
        runAlertTick(context.db, clock),
        runAlertTick(second?.db ?? context.db, clock),
      ]);
      expect(results.map((result) => result.opened).sort()).toEqual([0, 1]);
    } finally {
      await second?.close();
    }
    const episodes = await episodesOf('race-a');
    expect(episodes).toHaveLength(1);
    const notifications = await context.db
      .select({ count: sql<number>`count(*)::int` })
      .from(alertNotifications)
      .where(
        and(
          eq(alertNotifications.episode_id, episodes[0]!.id),
          eq(alertNotifications.channel, 'email'),
        ),
      );
    expect(Number(notifications[0]!.count)).toBe(1);
  });
});
