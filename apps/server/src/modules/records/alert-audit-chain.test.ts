import type { AuditSection } from '@mise/shared/audits/schemas';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertEpisodes, auditResults, probes, recordChainEntries } from '../../db/schema';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { runAlertPass } from '../alerts/alerts.jobs';
import { recordHashOf } from './chain';
import { alertEpisodeSource } from './sources/alert-episodes';
import { auditResultSource } from './sources/audit-results';
import type { ChainSource } from './sources/types';
import { verifyRecordsChain } from './verify';

/*
 * Issue 21: probe alert episodes (opened, escalated, acknowledged, resolved) and audit results
 * in the records chain, each appended in the transaction of its write; the sources rebuild the
 * same content from the stored rows, and a row changed behind the application's back does not.
 */

const minute = 60_000;
const start = Math.floor((Date.now() - 2 * 24 * 60 * minute) / minute) * minute;
const at = (minutes: number) => new Date(start + minutes * minute);
let clock = at(-60);
const context = useTestApp({ now: () => clock });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let owner: Agent;
let manager: Agent;
let distributor: Agent;
const storeA1 = () => tenants.a.stores[0]!.id;

/** The chain entries of a kind in a store, in seq order. */
function entriesOf(storeId: string, kind: string) {
  return context.db
    .select()
    .from(recordChainEntries)
    .where(and(eq(recordChainEntries.store_id, storeId), eq(recordChainEntries.kind, kind)))
    .orderBy(asc(recordChainEntries.seq));
}

/** Each entry's record, reloaded through its source: its hash now, by record id. */
async function rehash<Row>(source: ChainSource<Row>, storeId: string, recordIds: string[]) {
  const rows = await source.load(context.db, storeId, recordIds);
  return new Map(
    recordIds.map((id) => {
      const row = rows.get(id);
      return [id, row === undefined ? null : recordHashOf(source.contentOf(row))];
    }),
  );
}

/** A trigger that fails the transaction at COMMIT, after every statement (and chain append). */
async function failAtCommit(table: string, when: string) {
  await context.db.execute(
    sql.raw(`create or replace function test_fail_at_commit() returns trigger
      language plpgsql as $$ begin raise exception 'test: failed at commit'; end $$`),
  );
  await context.db.execute(
    sql.raw(`create constraint trigger ${table}_fail_at_commit after insert or update on ${table}
      deferrable initially deferred for each row when (${when})
      execute function test_fail_at_commit()`),
  );
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  owner = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  await failAtCommit('alert_episodes', `new.corrective_action = 'fail at commit'`);
  await failAtCommit('audit_results', `new.status = 'submitted' and new.auditor_name = 'Fail'`);
});

describe('alert episodes in the records chain', () => {
  let secret = '';
  let episodeId = '';

  async function post(from: number, temperatures: number[]) {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/probes/readings/chain-walk-in',
      headers: { authorization: `Bearer ${secret}` },
      payload: {
        readings: temperatures.map((temperature, index) => ({
          timestamp: at(from + index * 5).toISOString(),
          temperature,
          batteryLevel: 90,
        })),
      },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }

  async function pass(minutes: number) {
    clock = at(minutes);
    return runAlertPass(context.app.deps, clock);
  }

  it('appends the opening, the escalation, the acknowledgement and the resolution, once each', async () => {
    const created = await admin.inject({
      method: 'POST',
      url: '/api/probes',
      payload: { probeUID: 'chain-walk-in', name: 'Walk-in', storeId: storeA1() },
    });
    expect(created.statusCode, created.body).toBe(200);
    secret = created.json().secret;
    const edited = await admin.inject({
      method: 'POST',
      url: '/api/probes/edit/chain-walk-in',
      payload: { minimumTemperature: 0, maximumTemperature: 4 },
    });
    expect(edited.statusCode, edited.body).toBeLessThan(300);

    clock = at(20);
    await post(0, [8, 8, 8, 8, 8]);
    expect((await pass(20)).opened).toBe(1);
    const [episode] = await context.db
      .select()
      .from(alertEpisodes)
      .innerJoin(probes, eq(probes.id, alertEpisodes.probe_id))
      .where(eq(probes.probe_uid, 'chain-walk-in'));
    episodeId = episode!.alert_episodes.id;
    expect((await entriesOf(storeA1(), 'alert_episode')).map((row) => row.record_id)).toEqual([
      `${episodeId}:opened`,
    ]);

    // Still out of range 30 minutes after opening, nobody acknowledged: escalated to level 1.
    clock = at(55);
    await post(25, [9, 9, 9, 9, 9, 9, 9]);
    expect((await pass(55)).escalated).toBe(1);
    // A tick with nothing new appends nothing.
    await pass(56);

    // An acknowledgement failing at commit leaves neither the acknowledgement nor its entry.
    const failed = await owner.inject({
      method: 'POST',
      url: `/api/alerts/${episodeId}/acknowledge`,
      payload: { correctiveAction: 'fail at commit' },
    });
    expect(failed.statusCode).toBe(500);
    const [unacknowledged] = await context.db
      .select()
      .from(alertEpisodes)
      .where(eq(alertEpisodes.id, episodeId));
    expect(unacknowledged!.acknowledged_at).toBeNull();
    expect((await entriesOf(storeA1(), 'alert_episode')).map((row) => row.record_id)).toEqual([
      `${episodeId}:opened`,
      `${episodeId}:escalated:1`,
    ]);

    const acknowledged = await owner.inject({
      method: 'POST',
      url: `/api/alerts/${episodeId}/acknowledge`,
      payload: { correctiveAction: 'Door closed, products moved to the cold room' },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    // Acknowledged twice: 409, and no second entry.
    const twice = await manager.inject({
      method: 'POST',
      url: `/api/alerts/${episodeId}/acknowledge`,
      payload: { correctiveAction: 'Again' },
    });
    expect(twice.statusCode).toBe(409);

    clock = at(80);
    await post(60, [3, 3, 3, 3, 3]);
    expect((await pass(80)).resolved).toBe(1);
    await pass(85);

    const entries = await entriesOf(storeA1(), 'alert_episode');
    expect(entries.map((row) => row.record_id)).toEqual([
      `${episodeId}:opened`,
      `${episodeId}:escalated:1`,
      `${episodeId}:acknowledged`,
      `${episodeId}:resolved`,
    ]);
    // Each entry's seq follows its predecessor's in the store's chain.
    const seqs = entries.map((row) => row.seq);
    expect([...seqs].sort((left, right) => left - right)).toEqual(seqs);
  });

  it('rebuilds every event of the episode as chained, though the row changed after each', async () => {
    const entries = await entriesOf(storeA1(), 'alert_episode');
    const hashes = await rehash(
      alertEpisodeSource,
      storeA1(),
      entries.map((row) => row.record_id),
    );
    for (const entry of entries)
      expect(hashes.get(entry.record_id), entry.record_id).toBe(entry.record_hash);
    const listed = await alertEpisodeSource.list(context.db, storeA1(), new Date(0), new Date());
    expect(listed.sort()).toEqual(entries.map((row) => row.record_id).sort());
    // The acknowledgement's content names who, when and what was done.
    const loaded = await alertEpisodeSource.load(context.db, storeA1(), [
      `${episodeId}:acknowledged`,
    ]);
    const content = alertEpisodeSource.contentOf(loaded.get(`${episodeId}:acknowledged`)!);
    expect(content).toMatchObject({
      event: 'acknowledged',
      acknowledged_by_user_id: tenants.a.users.customer.id,
      corrective_action: 'Door closed, products moved to the cold room',
    });
    // Another store's id finds nothing.
    expect(
      (await alertEpisodeSource.load(context.db, tenants.b.stores[0]!.id, [`${episodeId}:opened`]))
        .size,
    ).toBe(0);
  });

  it('finds a corrective action or a limit changed by SQL behind the application', async () => {
    const ids = [`${episodeId}:opened`, `${episodeId}:acknowledged`, `${episodeId}:resolved`];
    const before = await rehash(alertEpisodeSource, storeA1(), ids);
    await context.db.execute(
      sql`update alert_episodes set corrective_action = 'Nothing to report' where id = ${episodeId}`,
    );
    let after = await rehash(alertEpisodeSource, storeA1(), ids);
    expect(after.get(`${episodeId}:acknowledged`)).not.toBe(
      before.get(`${episodeId}:acknowledged`),
    );
    expect(after.get(`${episodeId}:opened`)).toBe(before.get(`${episodeId}:opened`));
    await context.db.execute(
      sql`update alert_episodes set maximum_temperature = 10 where id = ${episodeId}`,
    );
    after = await rehash(alertEpisodeSource, storeA1(), ids);
    expect(after.get(`${episodeId}:opened`)).not.toBe(before.get(`${episodeId}:opened`));
    await context.db.execute(
      sql`update alert_episodes set resolved_at = resolved_at + interval '1 minute' where id = ${episodeId}`,
    );
    after = await rehash(alertEpisodeSource, storeA1(), ids);
    expect(after.get(`${episodeId}:resolved`)).not.toBe(before.get(`${episodeId}:resolved`));

    // Put back as it was, the records match again.
    await context.db.execute(
      sql`update alert_episodes set corrective_action = 'Door closed, products moved to the cold room',
        maximum_temperature = 4, resolved_at = resolved_at - interval '1 minute' where id = ${episodeId}`,
    );
    expect(await rehash(alertEpisodeSource, storeA1(), ids)).toEqual(before);
  });
});

describe('audit results in the records chain', () => {
  const sections: AuditSection[] = [
    {
      id: 's-cold',
      title: 'Cold chain',
      archived_at: null,
      questions: [
        {
          id: 'q-door',
          text: 'Is the cold room door closed?',
          type: 'yes_or_no',
          score: 1,
          required: true,
          conditions: [],
          archived_at: null,
          options: {
            multiple_selection: false,
            choices: [
              { id: 'c-yes', text: 'true', score: 1, archived_at: null },
              { id: 'c-no', text: 'false', score: 0, archived_at: null },
            ],
          },
        },
      ],
    },
  ];
  let resultId = '';

  it('appends a result at its submission only, and a submission failing at commit leaves none', async () => {
    clock = at(120);
    const created = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${tenants.a.database.id}/audits`,
      payload: { name: 'Chain audit', sections },
    });
    expect(created.statusCode, created.body).toBe(200);
    const audit = created.json().audit;
    const published = await distributor.inject({
      method: 'PUT',
      url: `/api/audits/${audit.id}`,
      payload: {
        version: audit.version,
        name: 'Chain audit',
        active: true,
        self_evaluation: false,
        published: true,
        sections: audit.sections,
      },
    });
    expect(published.statusCode, published.body).toBe(200);
    const started = await manager.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1() },
    });
    expect(started.statusCode, started.body).toBe(200);
    resultId = started.json().result.id;
    const answered = await manager.inject({
      method: 'PATCH',
      url: `/api/audit-results/${resultId}/answers`,
      payload: { answers: [{ question_id: 'q-door', answer_yes: true }] },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // A draft is not a record yet.
    expect(await entriesOf(storeA1(), 'audit_result')).toEqual([]);

    // The submission fails at commit: the result stays in progress and nothing is chained.
    await context.db.execute(
      sql`update audit_results set auditor_name = 'Fail' where id = ${resultId}`,
    );
    const failed = await manager.inject({
      method: 'POST',
      url: `/api/audit-results/${resultId}/submit`,
    });
    expect(failed.statusCode).toBe(500);
    const [draft] = await context.db
      .select()
      .from(auditResults)
      .where(eq(auditResults.id, resultId));
    expect(draft!.status).toBe('in_progress');
    expect(await entriesOf(storeA1(), 'audit_result')).toEqual([]);

    await context.db.execute(
      sql`update audit_results set auditor_name = 'Test manager' where id = ${resultId}`,
    );
    const submitted = await manager.inject({
      method: 'POST',
      url: `/api/audit-results/${resultId}/submit`,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().result).toMatchObject({ status: 'submitted', score: 1 });
    // Submitting again (a retried send) appends nothing more.
    await manager.inject({ method: 'POST', url: `/api/audit-results/${resultId}/submit` });
    const entries = await entriesOf(storeA1(), 'audit_result');
    expect(entries.map((row) => row.record_id)).toEqual([resultId]);
  });

  it('rebuilds the result as chained (its PDF rendered since does not count), lists it', async () => {
    const [entry] = await entriesOf(storeA1(), 'audit_result');
    const [submitted] = await context.db
      .select()
      .from(auditResults)
      .where(eq(auditResults.id, resultId));
    const pdf = await manager.inject({
      method: 'POST',
      url: '/api/pdf/audit',
      payload: {
        auditResultPath: `databases/${submitted!.database_id}/audits/${submitted!.audit_id}/audit_results/${resultId}`,
      },
    });
    expect(pdf.statusCode, pdf.body).toBeLessThan(300);
    const [row] = await context.db.select().from(auditResults).where(eq(auditResults.id, resultId));
    expect(row!.pdf_key).not.toBeNull();
    expect((await rehash(auditResultSource, storeA1(), [resultId])).get(resultId)).toBe(
      entry!.record_hash,
    );
    expect(await auditResultSource.list(context.db, storeA1(), new Date(0), new Date())).toEqual([
      resultId,
    ]);
    // A result in progress is not listed: no entry is owed for a draft.
    const other = await auditResultSource.list(
      context.db,
      tenants.a.stores[1]!.id,
      new Date(0),
      new Date(),
    );
    expect(other).toEqual([]);
  });

  it('finds a score or an answer changed by SQL behind the application, and a deleted result', async () => {
    const [entry] = await entriesOf(storeA1(), 'audit_result');
    await context.db.execute(sql`update audit_results set score = 0 where id = ${resultId}`);
    expect((await rehash(auditResultSource, storeA1(), [resultId])).get(resultId)).not.toBe(
      entry!.record_hash,
    );
    await context.db.execute(sql`update audit_results set score = 1,
      answers = jsonb_set(answers, '{q-door,answer_yes}', 'false') where id = ${resultId}`);
    expect((await rehash(auditResultSource, storeA1(), [resultId])).get(resultId)).not.toBe(
      entry!.record_hash,
    );
    await context.db.execute(sql`update audit_results
      set answers = jsonb_set(answers, '{q-door,answer_yes}', 'true') where id = ${resultId}`);
    expect((await rehash(auditResultSource, storeA1(), [resultId])).get(resultId)).toBe(
      entry!.record_hash,
    );
  });
});

describe('the verifier over these kinds', () => {
  it('answers intact for the untouched store, then names the changed acknowledgement', async () => {
    const intact = await verifyRecordsChain(context.db, storeA1());
    expect(intact).toMatchObject({ status: 'intact' });
    if (intact.status === 'intact') {
      expect(intact.counts).toMatchObject({ alert_episode: 4, audit_result: 1 });
    }
    const [episode] = await context.db
      .select({ id: alertEpisodes.id })
      .from(alertEpisodes)
      .where(eq(alertEpisodes.store_id, storeA1()));
    await context.db.execute(
      sql`update alert_episodes set acknowledged_by_name = 'Someone else' where id = ${episode!.id}`,
    );
    expect(await verifyRecordsChain(context.db, storeA1())).toMatchObject({
      status: 'broken',
      first: {
        kind: 'alert_episode',
        record_id: `${episode!.id}:acknowledged`,
        problem: 'record-changed',
      },
    });
  });
});
