import { localMinuteToInstant } from '@mise/shared/tasks/rules';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordChainCheckpoints, recordChainEntries, stores, users } from '../../db/schema';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { useTestSmtpServer } from '../../test/smtp';
import { appendToChain } from './chain';
import { runRecordsSeal } from './records-seal.jobs';

/*
 * Issue 21: the daily checkpoint of a store's records chain, written once per store day after
 * the day is over (the chain's head at its end), e-mailed once to the store's owners and shown
 * through GET /api/stores/:id/records-checkpoint.
 */

const mail = useTestSmtpServer();
const context = useTestApp({ env: mail.env });

const zone = 'Europe/Paris';
const local = (day: string, hour: number) => localMinuteToInstant(day, hour * 60, zone);

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let owner: Agent;
let manager: Agent;
let otherOwner: Agent;
const storeA1 = () => tenants.a.stores[0]!;

async function append(storeId: string, recordId: string, at: Date) {
  const [entry] = await context.db.transaction((tx) =>
    appendToChain(tx, { storeId, kind: 'audit_result', recordId, record: { id: recordId } }, at),
  );
  return entry!;
}

const seal = (at: Date) => runRecordsSeal(context.app.deps, at);

function checkpointsOf(storeId: string) {
  return context.db
    .select()
    .from(recordChainCheckpoints)
    .where(eq(recordChainCheckpoints.store_id, storeId))
    .orderBy(asc(recordChainCheckpoints.day));
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  owner = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  otherOwner = await signIn(context.app, tenants.b.users.customer.email, testPassword);
  // The owner reads French.
  await context.db
    .update(users)
    .set({ language: 'fr' })
    .where(eq(users.id, tenants.a.users.customer.id));
  await context.db.update(stores).set({ timezone_name: zone }).where(eq(stores.id, storeA1().id));
});

describe('daily checkpoints of the records chain', () => {
  const entries: { seq: number; entry_hash: string }[] = [];

  it('writes nothing for a store whose chain has not begun, nor before a day is over', async () => {
    expect((await seal(local('2026-11-20', 12))).checkpoints).toBe(0);
    entries.push(await append(storeA1().id, 'r-1', local('2026-11-20', 9)));
    entries.push(await append(storeA1().id, 'r-2', local('2026-11-20', 18)));
    // The day is not over yet, then over by less than the delay.
    expect((await seal(local('2026-11-20', 23))).checkpoints).toBe(0);
    expect((await seal(new Date(local('2026-11-21', 0).getTime() + 60_000))).checkpoints).toBe(0);
    expect(await checkpointsOf(storeA1().id)).toEqual([]);
  });

  it("keeps the head at the day's end once, and e-mails it to the owner once", async () => {
    // An entry of the next morning is after the day's end: not in its checkpoint.
    entries.push(await append(storeA1().id, 'r-3', local('2026-11-21', 7)));
    const first = await seal(local('2026-11-21', 1));
    expect(first).toMatchObject({ checkpoints: 1, mails: 1 });
    const [checkpoint] = await checkpointsOf(storeA1().id);
    expect(checkpoint).toMatchObject({
      day: '2026-11-20',
      seq: entries[1]!.seq,
      head_hash: entries[1]!.entry_hash,
    });
    expect(checkpoint!.published_at).not.toBeNull();

    const message = await mail.server.waitForMessage((item) =>
      item.envelopeTo.includes(tenants.a.users.customer.email),
    );
    expect(message.subject).toBe(`Sceau des enregistrements de ${storeA1().name} : 2026-11-20`);
    expect(message.body).toContain(
      `2026-11-20 : ${entries[1]!.seq} entrées, sceau ${entries[1]!.entry_hash}`,
    );
    expect(message.body).toContain(`http://mise.test/storeDatabase?id=${storeA1().id}`);

    // Another run, later the same day (or on another instance): nothing written, nothing sent.
    expect(await seal(local('2026-11-21', 2))).toMatchObject({ checkpoints: 0, mails: 0 });
    expect(await checkpointsOf(storeA1().id)).toHaveLength(1);
    expect(
      mail.server.messages.filter((item) =>
        item.envelopeTo.includes(tenants.a.users.customer.email),
      ),
    ).toHaveLength(1);
  });

  it('catches up missed days, and sends a day whose head did not move without a new e-mail', async () => {
    // No entry on the 22nd: its checkpoint repeats the 21st's head.
    const sent = mail.server.messages.length;
    const result = await seal(local('2026-11-23', 3));
    expect(result).toMatchObject({ checkpoints: 2, mails: 1 });
    const rows = await checkpointsOf(storeA1().id);
    expect(rows.map((row) => [row.day, row.seq])).toEqual([
      ['2026-11-20', entries[1]!.seq],
      ['2026-11-21', entries[2]!.seq],
      ['2026-11-22', entries[2]!.seq],
    ]);
    expect(rows.every((row) => row.published_at !== null)).toBe(true);
    expect(mail.server.messages).toHaveLength(sent + 1);
    const message = mail.server.messages.at(-1)!;
    expect(message.body).toContain(`2026-11-21 : ${entries[2]!.seq} entrées`);
    expect(message.body).not.toContain('2026-11-22');
  });

  it('a store without an owner keeps and shows its checkpoint, e-mailing no one', async () => {
    const storeA2 = tenants.a.stores[1]!;
    await append(storeA2.id, 'r-a2', local('2026-11-22', 10));
    const sent = mail.server.messages.length;
    expect(await seal(local('2026-11-23', 4))).toMatchObject({ checkpoints: 1, mails: 0 });
    expect(mail.server.messages).toHaveLength(sent);
    const [row] = await checkpointsOf(storeA2.id);
    expect(row).toMatchObject({ day: '2026-11-22', seq: 1 });
    expect(row!.published_at).not.toBeNull();
  });

  it('the chain entries are untouched by checkpointing', async () => {
    const count = await context.db
      .select({ count: sql<number>`count(*)::int` })
      .from(recordChainEntries)
      .where(eq(recordChainEntries.store_id, storeA1().id));
    expect(Number(count[0]!.count)).toBe(3);
  });
});

describe('GET /api/stores/:id/records-checkpoint', () => {
  const url = () => `/api/stores/${storeA1().id}/records-checkpoint`;

  it('answers the latest checkpoint to whoever sees the store', async () => {
    for (const agent of [owner, manager]) {
      const response = await agent.inject({ method: 'GET', url: url() });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().checkpoint).toMatchObject({
        day: '2026-11-22',
        seq: 3,
        head_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        published_at: expect.any(String),
      });
    }
  });

  it('answers null before the first checkpoint', async () => {
    const response = await otherOwner.inject({
      method: 'GET',
      url: `/api/stores/${tenants.b.stores[0]!.id}/records-checkpoint`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ checkpoint: null });
  });

  it('answers 401 without a session and 404 for a store outside the scope', async () => {
    expect((await context.app.inject({ method: 'GET', url: url() })).statusCode).toBe(401);
    const outside = await otherOwner.inject({ method: 'GET', url: url() });
    expect(outside.statusCode).toBe(404);
    const invalid = await owner.inject({
      method: 'GET',
      url: '/api/stores/nope/records-checkpoint',
    });
    expect(invalid.statusCode).toBe(400);
  });
});
