import { createHash } from 'node:crypto';
import { packManifestSchema } from '@mise/shared/records/pack';
import { addDays, dayInZone } from '@mise/shared/tasks/rules';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditResults, databases, inspectorPacks, stores } from '../../db/schema';
import { demoEmails, demoPassword, seedDemo } from '../../db/seed/demo';
import { buildDatabase, buildStore, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { readPdf } from '../../test/read-pdf';
import { periodInstants } from '../history/history-probes';
import { appendToChain, chainHeadAt } from '../records/chain';
import { inspectorPackJob, packRunnerOf } from './inspector-pack.jobs';
import { claimNextPack, packKey, queuePack } from './inspector-pack.service';
import { readZip } from './zip-test-support';

/**
 * The inspector pack through the API (issue 21) on the demo organisation: who may ask for a
 * pack, the period rule, the build (job, progress, stored ZIP), and the manifest an inspector
 * checks: every file it lists is in the ZIP with that sha256, and the chain head is the
 * store's head at the end of the period.
 */

const context = useTestApp();
const zone = 'Europe/Paris';
let owner: Agent;
let manager: Agent;
let distributor: Agent;
let admin: Agent;
let blockedManager: Agent;
let parisId: string;
let otherTenantStoreId: string;
let blockedStoreId: string;

/** The two weeks before today: the demo's tasks, punch cards and the probes' day of readings. */
const periodEnd = () => dayInZone(new Date(), zone);
const periodStart = () => addDays(periodEnd(), -13);
const packsUrl = (storeId: string) => `/api/stores/${storeId}/inspector-packs`;

/** Builds every queued pack now (the runner the routes started), then reads the pack. */
async function builtPack(agent: Agent, storeId: string, packId: string) {
  await packRunnerOf(context.app.deps, context.app.log).kick();
  const response = await agent.inject({ method: 'GET', url: `${packsUrl(storeId)}/${packId}` });
  expect(response.statusCode).toBe(200);
  return response.json().pack;
}

beforeAll(async () => {
  const { db, app } = context;
  await seedDemo(db);
  const storeRows = await db.select({ id: stores.id, name: stores.name }).from(stores);
  const storeId = (name: string) => storeRows.find((row) => row.name === name)!.id;
  parisId = storeId('Bistro Paris Opéra');
  otherTenantStoreId = storeId('Canteen Bruxelles');
  // The demo's audit result, done again in Paris inside the period: its PDF joins the pack.
  const [lyonResult] = await db.select().from(auditResults).limit(1);
  const { id: _id, ...copy } = lyonResult!;
  await db.insert(auditResults).values({
    ...copy,
    store_id: parisId,
    pdf_key: null,
    end_date: new Date(Date.now() - 3 * 86_400_000),
  });
  // A manager of a database without store access, on a store that is not manager-owned.
  const [demoDatabase] = await db
    .select({ distributor: databases.distributor_id })
    .from(databases)
    .where(eq(databases.name, 'Bistro Group'));
  const closed = await buildDatabase(db, {
    distributor_id: demoDatabase!.distributor,
    store_access: false,
  });
  blockedStoreId = (
    await buildStore(db, {
      distributor_id: demoDatabase!.distributor,
      database_id: closed.id,
      mise_licence: true,
    })
  ).id;
  const blocked = await buildUser(db, { role: 'manager', managedDatabaseIds: [closed.id] });
  [owner, manager, distributor, admin, blockedManager] = await Promise.all([
    signIn(app, demoEmails.customer, demoPassword),
    signIn(app, demoEmails.manager, demoPassword),
    signIn(app, demoEmails.distributor, demoPassword),
    signIn(app, demoEmails.admin, demoPassword),
    signIn(app, blocked.email, testPassword),
  ]);
});

describe('asking for an inspector pack', () => {
  it('refuses an anonymous caller', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: packsUrl(parisId),
      payload: { period_start: periodStart(), period_end: periodEnd() },
    });
    expect(response.statusCode).toBe(401);
  });

  it("answers 404 for another tenant's store, and for its packs", async () => {
    const body = { period_start: periodStart(), period_end: periodEnd() };
    const asked = await owner.inject({
      method: 'POST',
      url: packsUrl(otherTenantStoreId),
      payload: body,
    });
    expect(asked.statusCode).toBe(404);
    // A pack of the other tenant's store, asked for by its admin.
    const theirs = await admin.inject({
      method: 'POST',
      url: packsUrl(otherTenantStoreId),
      payload: body,
    });
    expect(theirs.statusCode).toBe(201);
    const packId = theirs.json().pack.id;
    for (const url of [
      packsUrl(otherTenantStoreId),
      `${packsUrl(otherTenantStoreId)}/${packId}`,
      `${packsUrl(otherTenantStoreId)}/${packId}/download`,
      // Under a store the owner sees, the other store's pack is not found either.
      `${packsUrl(parisId)}/${packId}`,
      `${packsUrl(parisId)}/${packId}/download`,
    ]) {
      expect((await owner.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    await packRunnerOf(context.app.deps, context.app.log).kick();
  });

  it('refuses a manager whose database gives no store access, as the history does', async () => {
    const response = await blockedManager.inject({
      method: 'POST',
      url: packsUrl(blockedStoreId),
      payload: { period_start: periodStart(), period_end: periodEnd() },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('permission/denied');
    expect(
      await context.db
        .select()
        .from(inspectorPacks)
        .where(eq(inspectorPacks.store_id, blockedStoreId)),
    ).toEqual([]);
  });

  it('refuses a period over 31 days, an end before the start and unknown fields', async () => {
    const tooLong = await owner.inject({
      method: 'POST',
      url: packsUrl(parisId),
      payload: { period_start: '2026-01-15', period_end: '2026-02-15' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const reversed = await owner.inject({
      method: 'POST',
      url: packsUrl(parisId),
      payload: { period_start: '2026-02-15', period_end: '2026-02-01' },
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.code).toBe('validation/invalid-input');
    const extra = await owner.inject({
      method: 'POST',
      url: packsUrl(parisId),
      payload: {
        period_start: '2026-01-01',
        period_end: '2026-01-31',
        storeId: otherTenantStoreId,
      },
    });
    expect(extra.statusCode).toBe(400);
    expect(
      await context.db.select().from(inspectorPacks).where(eq(inspectorPacks.store_id, parisId)),
    ).toEqual([]);
  });

  it('accepts a whole calendar month of 31 days from the manager and the distributor', async () => {
    for (const agent of [manager, distributor]) {
      const response = await agent.inject({
        method: 'POST',
        url: packsUrl(parisId),
        payload: { period_start: '2026-01-01', period_end: '2026-01-31' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().pack).toMatchObject({
        status: 'queued',
        progress: 0,
        period_start: '2026-01-01',
        period_end: '2026-01-31',
        manifest: null,
        download_url: null,
      });
    }
    await packRunnerOf(context.app.deps, context.app.log).kick();
    const built = await context.db
      .select({ status: inspectorPacks.status, progress: inspectorPacks.progress })
      .from(inspectorPacks)
      .where(eq(inspectorPacks.period_start, '2026-01-01'));
    expect(built).toEqual([
      { status: 'done', progress: 100 },
      { status: 'done', progress: 100 },
    ]);
  });
});

describe('the pack of the demo store', () => {
  it('holds every file its manifest lists, with the same sha256, and the chain head at the period end', async () => {
    const { db } = context;
    const start = periodStart();
    const end = addDays(periodEnd(), -1);
    const { to } = periodInstants(start, end, zone);
    // One record inside the period and one after it: the manifest names the first head.
    await appendToChain(
      db,
      { storeId: parisId, kind: 'task_result_revision', recordId: 'inside', record: { n: 1 } },
      new Date(to.getTime() - 3_600_000),
    );
    await appendToChain(
      db,
      { storeId: parisId, kind: 'task_result_revision', recordId: 'after', record: { n: 2 } },
      new Date(),
    );

    const asked = await owner.inject({
      method: 'POST',
      url: packsUrl(parisId),
      payload: { period_start: start, period_end: end },
    });
    expect(asked.statusCode).toBe(201);
    const queued = asked.json().pack;
    expect(queued).toMatchObject({ status: 'queued', store_id: parisId });
    expect(queued.created_by).toEqual({ name: 'Camille Client', email: demoEmails.customer });
    // Not ready yet: no download.
    const early = await owner.inject({
      method: 'GET',
      url: `${packsUrl(parisId)}/${queued.id}/download`,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('inspector-pack/not-ready');

    const pack = await builtPack(owner, parisId, queued.id);
    expect(pack).toMatchObject({ status: 'done', progress: 100, error: null });
    expect(pack.download_url).toBe(`/api/stores/${parisId}/inspector-packs/${queued.id}/download`);

    const download = await owner.inject({ method: 'GET', url: pack.download_url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="inspector-pack-bistro-paris-opera-${start}-${end}.zip"`,
    );
    const zipBytes = download.rawPayload;
    expect(zipBytes.length).toBe(pack.file_size);
    const entries = await readZip(zipBytes);

    const manifest = packManifestSchema.parse(
      JSON.parse(entries.get('manifest.json')!.toString('utf8')),
    );
    expect(manifest).toEqual(pack.manifest);
    expect(manifest).toMatchObject({
      pack_id: queued.id,
      store: { id: parisId, name: 'Bistro Paris Opéra', city: 'Paris' },
      period: { start, end },
      generated_by: { kind: 'user', name: 'Camille Client', email: demoEmails.customer },
      language: 'fr',
    });
    // Every file listed is in the ZIP with that size and hash; nothing else but the manifest.
    for (const file of manifest.files) {
      const bytes = entries.get(file.name);
      expect(bytes, file.name).toBeDefined();
      expect(bytes!.length, file.name).toBe(file.size);
      expect(createHash('sha256').update(bytes!).digest('hex'), file.name).toBe(file.sha256);
    }
    expect([...entries.keys()].sort()).toEqual(
      [...manifest.files.map((file) => file.name), 'manifest.json'].sort(),
    );
    const names = manifest.files.map((file) => file.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'history/1-temperatures.pdf',
        'history/1-temperatures.csv',
        'history/4-actions.pdf',
        'probes/probe-records.pdf',
        'probes/alert-episodes.csv',
        'probes/probe-days.csv',
        'punch-cards/punch-cards.pdf',
        'punch-cards/punch-cards.csv',
        'audits/audit-results.csv',
        'manifest.pdf',
      ]),
    );
    // A chart per probe of the store; the audit result of the period as its PDF.
    expect(names.filter((name) => /^probes\/chart-.+\.svg$/.test(name))).toHaveLength(4);
    expect(entries.get('probes/chart-frigo-1.svg')!.toString('utf8')).toMatch(
      /^<svg [^>]*>\n<title>[^<]*Frigo 1/,
    );
    const auditPdf = names.find((name) => /^audits\/.+\.pdf$/.test(name));
    expect(auditPdf).toMatch(/^audits\/\d{4}-\d{2}-\d{2}-audit-hygiene-mensuel-[0-9a-f]{8}\.pdf$/);
    expect(entries.get(auditPdf!)!.subarray(0, 5).toString()).toBe('%PDF-');
    // The punch-card CSV is the spec's file; the history CSV has the store's tasks.
    expect(entries.get('punch-cards/punch-cards.csv')!.toString('utf8')).toMatch(
      /^Etablissement;Employee;Date;Time;Arrivée\r\n/,
    );
    expect(entries.get('history/1-temperatures.csv')!.toString('utf8')).toContain(
      'Bistro Paris Opéra',
    );

    // The chain head at the end of the period: the entry inside it, not the later one.
    const at = new Date(manifest.chain_head.at);
    expect(at.getTime()).toBe(to.getTime() - 1);
    const expected = await chainHeadAt(db, parisId, at);
    expect(manifest.chain_head).toMatchObject(expected);
    expect(manifest.chain_head.seq).toBeGreaterThan(0);
    expect(manifest.chain_head.head_hash).not.toBe(
      (await chainHeadAt(db, parisId, new Date())).head_hash,
    );

    // The readable page lists the same: the store, the head's hash and each file's hash.
    const pages = await readPdf(entries.get('manifest.pdf')!);
    const text = pages.map((page) => page.text).join('\n');
    expect(text).toContain('Bistro Paris Opéra');
    expect(text).toContain(manifest.chain_head.head_hash);
    for (const file of manifest.files.filter((item) => item.name !== 'manifest.pdf')) {
      expect(text, file.name).toContain(file.sha256);
    }

    // The store's packs, newest first, with their size.
    const list = await owner.inject({ method: 'GET', url: packsUrl(parisId) });
    expect(list.json().items[0]).toMatchObject({
      id: queued.id,
      status: 'done',
      file_size: pack.file_size,
    });
  });

  it('asks once for the same period while a pack is waiting (a double click builds one)', async () => {
    const body = { period_start: '2026-02-01', period_end: '2026-02-28' };
    // From another address: the route allows 10 packs a minute per address.
    const ask = () =>
      owner.inject({
        method: 'POST',
        url: packsUrl(parisId),
        payload: body,
        remoteAddress: '10.0.0.2',
      });
    const first = await ask();
    const second = await ask();
    expect(first.statusCode).toBe(201);
    expect(second.json().pack.id).toBe(first.json().pack.id);
    await packRunnerOf(context.app.deps, context.app.log).kick();
  });
});

describe("a build's life", () => {
  const log = { info: () => {}, error: () => {} };

  it('fails a pack whose store is no longer licensed when it is built, and keeps no ZIP', async () => {
    const { db, app } = context;
    const [lyon] = await db.select().from(stores).where(eq(stores.name, 'Bistro Lyon Bellecour'));
    const pack = await queuePack(db, {
      storeId: lyon!.id,
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
      createdBy: null,
    });
    await db.update(stores).set({ mise_licence: false }).where(eq(stores.id, lyon!.id));
    try {
      await packRunnerOf(app.deps, app.log).kick();
    } finally {
      await db.update(stores).set({ mise_licence: true }).where(eq(stores.id, lyon!.id));
    }
    const [row] = await db.select().from(inspectorPacks).where(eq(inspectorPacks.id, pack.id));
    expect(row).toMatchObject({
      status: 'failed',
      error: 'inspector-pack/build-failed',
      file_path: null,
      manifest: null,
    });
    expect(row!.finished_at).toBeInstanceOf(Date);
    expect(await app.deps.storage.stat(packKey(lyon!.id, pack.id))).toBeNull();
    const download = await manager.inject({
      method: 'GET',
      url: `${packsUrl(lyon!.id)}/${pack.id}/download`,
    });
    expect(download.statusCode).toBe(409);
  });

  it('gives a queued pack to one builder only, however many claim it at once', async () => {
    const { db } = context;
    const pack = await queuePack(db, {
      storeId: parisId,
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      createdBy: null,
    });
    const claims = await Promise.all([claimNextPack(db), claimNextPack(db), claimNextPack(db)]);
    expect(claims.filter((claim) => claim !== null).map((claim) => claim!.id)).toEqual([pack.id]);
    await db.delete(inspectorPacks).where(eq(inspectorPacks.id, pack.id));
  });

  it('fails a build its instance abandoned, then builds what waits', async () => {
    const { db, app } = context;
    const [abandoned] = await db
      .insert(inspectorPacks)
      .values({
        store_id: parisId,
        period_start: '2026-05-01',
        period_end: '2026-05-31',
        status: 'running',
        progress: 40,
        created_at: new Date(Date.now() - 3 * 3_600_000),
      })
      .returning();
    const waiting = await queuePack(db, {
      storeId: parisId,
      periodStart: '2026-06-01',
      periodEnd: '2026-06-30',
      createdBy: null,
    });
    await inspectorPackJob(app.deps, log).handler();
    const rows = await db.select().from(inspectorPacks);
    expect(rows.find((row) => row.id === abandoned!.id)).toMatchObject({
      status: 'failed',
      error: 'inspector-pack/interrupted',
    });
    const built = rows.find((row) => row.id === waiting.id)!;
    expect(built).toMatchObject({ status: 'done', progress: 100 });
    expect((built.manifest as { generated_by: unknown }).generated_by).toEqual({
      kind: 'user',
      name: 'unknown',
      email: null,
    });
  });
});
