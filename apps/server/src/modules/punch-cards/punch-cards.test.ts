import { dayInZone } from '@mise/shared/tasks/rules';
import { asc, count, eq, isNull } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { employeeRoles, punchEntries, punchEntryRevisions } from '../../db/schema';
import {
  buildEmployee,
  buildStore,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';

/**
 * Punch cards through the API (spec 000 §2, §4, §5, §7, §9): access, the 62-day range, the
 * table's employees and entries in one query, the all-or-nothing save with its revisions, the
 * PDF and the home schedule.
 */

const context = useTestApp();
const zone = 'Europe/Paris';

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let customer: Agent;
let customerB: Agent;
let manager: Agent;
let admin: Agent;
let storeId: string;
let customerUserId: string;
let jeanne: Awaited<ReturnType<typeof buildEmployee>>;
let paul: Awaited<ReturnType<typeof buildEmployee>>;
let former: Awaited<ReturnType<typeof buildEmployee>>;
let outsider: Awaited<ReturnType<typeof buildEmployee>>;

/** A Paris wall-clock time of a November 2026 day (UTC+1) as an ISO instant. */
const at = (day: string, time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  const instant = new Date(`${day}T00:00:00Z`);
  instant.setUTCHours(hour! - 1, minute!);
  return instant.toISOString();
};

async function insertEntry(
  values: {
    employee_id: string;
    timestamp: string;
    timestamp_modified?: string;
    is_in: boolean;
  } & Partial<Omit<typeof punchEntries.$inferInsert, 'timestamp' | 'timestamp_modified'>>,
  store = storeId,
) {
  const { timestamp, timestamp_modified, ...rest } = values;
  const [row] = await context.db
    .insert(punchEntries)
    .values({
      store_id: store,
      day: dayInZone(new Date(timestamp_modified ?? timestamp), zone),
      source: 'device',
      ...rest,
      timestamp: new Date(timestamp),
      timestamp_modified: timestamp_modified ? new Date(timestamp_modified) : null,
    })
    .returning();
  return row!;
}

const cardsUrl = (start: string, end: string, store = storeId) =>
  `/api/stores/${store}/punchCards?start=${start}&end=${end}`;

async function rowCounts() {
  const [entries] = await context.db.select({ value: count() }).from(punchEntries);
  const [revisions] = await context.db.select({ value: count() }).from(punchEntryRevisions);
  const [live] = await context.db
    .select({ value: count() })
    .from(punchEntries)
    .where(isNull(punchEntries.deleted_at));
  return { entries: entries!.value, revisions: revisions!.value, live: live!.value };
}

/** The GET answer turned into a save body (every entry as it is). */
function asBody(cards: {
  start: string;
  end: string;
  entries: {
    id: string;
    version: number;
    employee_id: string;
    is_in: boolean;
    timestamp: string;
    timestamp_modified: string | null;
  }[];
}) {
  return {
    start: cards.start,
    end: cards.end,
    entries: cards.entries.map((entry) => ({
      id: entry.id,
      version: entry.version,
      employee_id: entry.employee_id,
      is_in: entry.is_in,
      timestamp: entry.timestamp,
      timestamp_modified: entry.timestamp_modified,
    })),
  };
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  storeId = tenants.a.stores[0]!.id;
  customerUserId = tenants.a.users.customer.id;
  const customerOfB = await buildUser(context.db, {
    role: 'customer',
    ownedStoreIds: [tenants.b.stores[0]!.id],
  });
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  customerB = await signIn(context.app, customerOfB.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  const [cook] = await context.db
    .insert(employeeRoles)
    .values({ database_id: tenants.a.database.id, name: 'Cuisinier' })
    .returning();
  jeanne = await buildEmployee(context.db, {
    storeIds: [storeId],
    name: 'Jeanne',
    surname: 'Martin',
    role_id: cook!.id,
  });
  paul = await buildEmployee(context.db, { storeIds: [storeId], name: 'Paul', surname: 'Durand' });
  former = await buildEmployee(context.db, {
    storeIds: [storeId],
    name: 'Ancien',
    surname: 'Salarié',
    active: false,
  });
  outsider = await buildEmployee(context.db, {
    storeIds: [tenants.a.stores[1]!.id],
    name: 'Autre',
    surname: 'Magasin',
  });
});

describe('access and range', () => {
  it('needs a session, hides other tenants (404) and limits the range to 62 days', async () => {
    expect(
      (await context.app.inject({ method: 'GET', url: cardsUrl('2026-11-01', '2026-11-02') }))
        .statusCode,
    ).toBe(401);
    const other = await customerB.inject({
      method: 'GET',
      url: cardsUrl('2026-11-01', '2026-11-02'),
    });
    expect(other.statusCode).toBe(404);
    // 1 January – 3 March is 62 days; one more is too long.
    expect(
      (await customer.inject({ method: 'GET', url: cardsUrl('2026-01-01', '2026-03-03') }))
        .statusCode,
    ).toBe(200);
    const tooLong = await customer.inject({
      method: 'GET',
      url: cardsUrl('2026-01-01', '2026-03-04'),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const reversed = await customer.inject({
      method: 'GET',
      url: cardsUrl('2026-11-05', '2026-11-04'),
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.code).toBe('validation/invalid-input');
    const savedTooLong = await customer.inject({
      method: 'PUT',
      url: `/api/stores/${storeId}/punchCards`,
      payload: { start: '2026-01-01', end: '2026-03-04', entries: [] },
    });
    expect(savedTooLong.json().error.code).toBe('date-range-too-long');
  });

  it('lets a manager read a store that is not manager-owned but not save it (403)', async () => {
    const read = await manager.inject({ method: 'GET', url: cardsUrl('2026-11-01', '2026-11-02') });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    const save = await manager.inject({
      method: 'PUT',
      url: `/api/stores/${storeId}/punchCards`,
      payload: { start: '2026-11-01', end: '2026-11-02', entries: [] },
    });
    expect(save.statusCode).toBe(403);
    expect(save.json().error.code).toBe('permission/denied');
    const otherTenant = await customerB.inject({
      method: 'PUT',
      url: `/api/stores/${storeId}/punchCards`,
      payload: { start: '2026-11-01', end: '2026-11-02', entries: [] },
    });
    expect(otherTenant.statusCode).toBe(404);
  });
});

describe('reading a range', () => {
  it('lists the active employees with their role and the non-deleted entries of the range', async () => {
    const inside = await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-10-05', '08:00'),
      is_in: true,
      selfie_path: `stores/${storeId}/selfies/2026-10/${'a'.repeat(32)}.png`,
    });
    await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-10-05', '09:00'),
      is_in: false,
      deleted_at: new Date(),
    });
    await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-10-08', '08:00'),
      is_in: true,
    });
    await insertEntry(
      { employee_id: outsider.id, timestamp: at('2026-10-05', '08:00'), is_in: true },
      tenants.a.stores[1]!.id,
    );
    const response = await customer.inject({
      method: 'GET',
      url: cardsUrl('2026-10-05', '2026-10-07'),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.store).toEqual({
      id: storeId,
      name: tenants.a.stores[0]!.name,
      timezone_name: zone,
    });
    expect(body.editable).toBe(true);
    expect(body.employees).toEqual([
      { id: jeanne.id, name: 'Jeanne', surname: 'Martin', role_name: 'Cuisinier' },
      { id: paul.id, name: 'Paul', surname: 'Durand', role_name: null },
    ]);
    expect(body.entries).toEqual([
      {
        id: inside.id,
        employee_id: jeanne.id,
        is_in: true,
        timestamp: at('2026-10-05', '08:00'),
        timestamp_modified: null,
        day: '2026-10-05',
        source: 'device',
        selfie_url: `/api/files/stores/${storeId}/selfies/2026-10/${'a'.repeat(32)}.png`,
        incoherent: false,
        version: 0,
      },
    ]);
  });

  it('reads the entries in one query whatever their number (5 or 300)', async () => {
    const busy = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const worker = await buildEmployee(context.db, { storeIds: [busy.id] });
    const fill = async (total: number, already: number) => {
      const rows = [];
      for (let index = already; index < total; index += 1) {
        const day = `2026-09-${String(1 + (index % 28)).padStart(2, '0')}`;
        const minute = Math.floor(index / 28) * 2;
        rows.push({
          store_id: busy.id,
          employee_id: worker.id,
          day,
          is_in: minute % 4 === 0,
          timestamp: new Date(`${day}T06:${String(minute).padStart(2, '0')}:00Z`),
          source: 'device' as const,
        });
      }
      if (rows.length) await context.db.insert(punchEntries).values(rows);
    };
    const measure = async (expected: number) =>
      countQueries(context.database, async () => {
        const response = await admin.inject({
          method: 'GET',
          url: cardsUrl('2026-09-01', '2026-09-28', busy.id),
        });
        expect(response.statusCode).toBe(200);
        expect(response.json().entries).toHaveLength(expected);
      });
    await fill(5, 0);
    const few = await measure(5);
    await fill(300, 5);
    const many = await measure(300);
    expect(many).toBe(few);
  });
});

describe('saving a range', () => {
  const range = { start: '2026-11-09', end: '2026-11-10' };
  let cards: ReturnType<typeof asBody>;

  beforeAll(async () => {
    await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-11-09', '08:00'),
      is_in: true,
    });
    await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-11-09', '12:00'),
      is_in: false,
    });
    await insertEntry({ employee_id: paul.id, timestamp: at('2026-11-09', '09:00'), is_in: true });
    await insertEntry({ employee_id: paul.id, timestamp: at('2026-11-09', '17:00'), is_in: false });
    await insertEntry({
      employee_id: former.id,
      timestamp: at('2026-11-09', '10:00'),
      is_in: true,
    });
  });

  const load = async () => {
    const response = await customer.inject({
      method: 'GET',
      url: cardsUrl(range.start, range.end),
    });
    expect(response.statusCode).toBe(200);
    cards = asBody(response.json());
    return cards;
  };
  const save = (payload: object, agent = customer) =>
    agent.inject({ method: 'PUT', url: `/api/stores/${storeId}/punchCards`, payload });
  const entryAt = (time: string) =>
    cards.entries.find((entry) => entry.timestamp === at('2026-11-09', time))!;

  it('refuses an incoherent save and writes nothing', async () => {
    await load();
    const before = await rowCounts();
    // Jeanne: in 08:00, out 12:00, then a second exit at 13:00.
    const response = await save({
      ...cards,
      entries: [
        ...cards.entries,
        { employee_id: jeanne.id, is_in: false, timestamp: at('2026-11-10', '13:00') },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'punch-card/incoherent',
      message: 'There is an incoherence in the punch cards. Please fix it before saving.',
    });
    // A correction that puts the exit before the entrance is incoherent too.
    const reversed = await save({
      ...cards,
      entries: cards.entries.map((entry) =>
        entry.id === entryAt('12:00').id
          ? { ...entry, timestamp_modified: at('2026-11-09', '07:00') }
          : entry,
      ),
    });
    expect(reversed.json().error.code).toBe('punch-card/incoherent');
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses unknown entries, new entries without a time or of another store, out-of-range days and changed fields', async () => {
    await load();
    const before = await rowCounts();
    const foreign = await insertEntry(
      { employee_id: outsider.id, timestamp: at('2026-11-09', '08:00'), is_in: true },
      tenants.a.stores[1]!.id,
    );
    const cases: [object[], string][] = [
      [
        [{ id: foreign.id, version: 0, employee_id: outsider.id, is_in: true }],
        'punch-card/unknown-entry',
      ],
      [[{ employee_id: paul.id, is_in: true }], 'punch-card/timestamp-required'],
      [
        [{ employee_id: outsider.id, is_in: true, timestamp: at('2026-11-10', '08:00') }],
        'punch-card/unknown-employee',
      ],
      [
        [{ employee_id: former.id, is_in: false, timestamp: at('2026-11-10', '08:00') }],
        'punch-card/unknown-employee',
      ],
      [
        [{ employee_id: paul.id, is_in: true, timestamp: at('2026-11-11', '08:00') }],
        'punch-card/outside-range',
      ],
      [
        [
          {
            employee_id: paul.id,
            is_in: true,
            timestamp: at('2026-11-10', '08:00'),
            timestamp_modified: at('2026-11-08', '08:00'),
          },
        ],
        'punch-card/outside-range',
      ],
    ];
    for (const [extra, code] of cases) {
      const response = await save({ ...cards, entries: [...cards.entries, ...extra] });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    const flipped = await save({
      ...cards,
      entries: cards.entries.map((entry) =>
        entry.id === entryAt('08:00').id ? { ...entry, is_in: false } : entry,
      ),
    });
    expect(flipped.json().error.code).toBe('validation/invalid-input');
    const moved = await save({
      ...cards,
      entries: cards.entries.map((entry) =>
        entry.id === entryAt('08:00').id
          ? { ...entry, timestamp: at('2026-11-09', '07:00') }
          : entry,
      ),
    });
    expect(moved.json().error.code).toBe('validation/invalid-input');
    const unknownField = await save({ ...cards, store_id: storeId });
    expect(unknownField.statusCode).toBe(400);
    expect(await rowCounts()).toEqual({
      ...before,
      entries: before.entries + 1,
      live: before.live + 1,
    });
  });

  it('never deletes unseen an entry a tablet added after the screen read the range (409)', async () => {
    const response = await customer.inject({
      method: 'GET',
      url: cardsUrl(range.start, range.end),
    });
    const read = response.json();
    expect(Date.parse(read.loaded_at)).not.toBeNaN();
    // A tablet clocks Paul out again meanwhile (an entry of the range the screen has not seen).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await insertEntry({
      employee_id: paul.id,
      timestamp: at('2026-11-09', '18:00'),
      is_in: true,
    });
    const before = await rowCounts();
    const conflict = await save({ ...asBody(read), loaded_at: read.loaded_at });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('conflict/stale-version');
    expect(await rowCounts()).toEqual(before);
    const [kept] = await context.db.select().from(punchEntries).where(eq(punchEntries.id, late.id));
    expect(kept!.deleted_at).toBeNull();
    // Read again, the entry is there; removing it knowingly is allowed.
    const again = (
      await customer.inject({ method: 'GET', url: cardsUrl(range.start, range.end) })
    ).json();
    const body = asBody(again);
    const saved = await save({
      ...body,
      loaded_at: again.loaded_at,
      entries: body.entries.filter((entry) => entry.id !== late.id),
    });
    expect(saved.statusCode).toBe(200);
    // Leave the range as the next tests expect it (the row and its revisions go together).
    await context.db.delete(punchEntries).where(eq(punchEntries.id, late.id));
  });

  it('answers 409 on a stale version and writes nothing', async () => {
    await load();
    const before = await rowCounts();
    const response = await save({
      ...cards,
      entries: cards.entries.map((entry) =>
        entry.id === entryAt('08:00').id
          ? { ...entry, version: entry.version + 1, timestamp_modified: at('2026-11-09', '07:30') }
          : entry,
      ),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('conflict/stale-version');
    expect(await rowCounts()).toEqual(before);
  });

  it('inserts, corrects keeping the clock time, deletes softly and writes revisions by the caller', async () => {
    await load();
    const start = entryAt('08:00');
    const paulIn = entryAt('09:00');
    const paulOut = entryAt('17:00');
    const response = await save({
      ...cards,
      entries: [
        // Jeanne came at 07:45 in fact; her exit stays.
        { ...start, timestamp_modified: at('2026-11-09', '07:45') },
        entryAt('12:00'),
        // Paul's day is removed; a new pair on the 10th is added.
        { employee_id: paul.id, is_in: true, timestamp: at('2026-11-10', '10:00') },
        {
          employee_id: paul.id,
          is_in: false,
          timestamp: at('2026-11-10', '18:00'),
          timestamp_modified: at('2026-11-10', '18:30'),
        },
        // The inactive employee's entry is not sent: the screen does not show it.
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.editable).toBe(true);
    const byTime = (time: string) =>
      body.entries.find(
        (entry: { timestamp_modified: string | null; timestamp: string }) =>
          (entry.timestamp_modified ?? entry.timestamp) === time,
      );
    expect(byTime(at('2026-11-09', '07:45'))).toMatchObject({
      id: start.id,
      timestamp: at('2026-11-09', '08:00'),
      timestamp_modified: at('2026-11-09', '07:45'),
      version: start.version + 1,
    });
    expect(byTime(at('2026-11-10', '10:00'))).toMatchObject({
      employee_id: paul.id,
      is_in: true,
      source: 'back-office',
      day: '2026-11-10',
      version: 0,
    });
    expect(byTime(at('2026-11-10', '18:30'))).toMatchObject({
      is_in: false,
      timestamp: at('2026-11-10', '18:00'),
    });
    expect(body.entries.map((entry: { id: string }) => entry.id)).not.toContain(paulIn.id);
    // Kept: the inactive employee's entry.
    expect(
      body.entries.filter((entry: { employee_id: string }) => entry.employee_id === former.id),
    ).toHaveLength(1);

    const [deleted] = await context.db
      .select()
      .from(punchEntries)
      .where(eq(punchEntries.id, paulOut.id));
    expect(deleted!.deleted_at).not.toBeNull();
    expect(deleted!.timestamp.toISOString()).toBe(at('2026-11-09', '17:00'));

    const revisions = await context.db
      .select()
      .from(punchEntryRevisions)
      .where(eq(punchEntryRevisions.store_id, storeId))
      .orderBy(asc(punchEntryRevisions.created_at));
    expect(revisions).toHaveLength(5);
    for (const revision of revisions) {
      expect(revision.user_id).toBe(customerUserId);
      expect(revision.device_id).toBeNull();
    }
    const of = (entryId: string) => revisions.find((revision) => revision.entry_id === entryId)!;
    expect(of(start.id)).toMatchObject({
      action: 'update',
      employee_id: jeanne.id,
      before: { is_in: true, timestamp: at('2026-11-09', '08:00'), timestamp_modified: null },
      after: {
        is_in: true,
        timestamp: at('2026-11-09', '08:00'),
        timestamp_modified: at('2026-11-09', '07:45'),
      },
    });
    expect(of(paulIn.id)).toMatchObject({
      action: 'delete',
      before: { is_in: true, timestamp: at('2026-11-09', '09:00'), timestamp_modified: null },
      after: null,
    });
    expect(of(paulOut.id).action).toBe('delete');
    expect(revisions.filter((revision) => revision.action === 'create')).toHaveLength(2);

    // Saving the same set again changes nothing.
    const again = await save(asBody(body));
    expect(again.statusCode).toBe(200);
    const after = await context.db
      .select({ value: count() })
      .from(punchEntryRevisions)
      .where(eq(punchEntryRevisions.store_id, storeId));
    expect(after[0]!.value).toBe(5);
  });

  it('moves an entry to another day of the range when its corrected time does', async () => {
    const late = { start: '2026-11-20', end: '2026-11-21' };
    const entryIn = await insertEntry({
      employee_id: paul.id,
      timestamp: at('2026-11-20', '22:00'),
      is_in: true,
    });
    const entryOut = await insertEntry({
      employee_id: paul.id,
      timestamp: at('2026-11-20', '23:30'),
      is_in: false,
    });
    const response = await save({
      ...late,
      entries: [
        { id: entryIn.id, version: 0, employee_id: paul.id, is_in: true },
        {
          id: entryOut.id,
          version: 0,
          employee_id: paul.id,
          is_in: false,
          timestamp_modified: at('2026-11-21', '01:15'),
        },
      ],
    });
    expect(response.statusCode).toBe(200);
    const [row] = await context.db
      .select()
      .from(punchEntries)
      .where(eq(punchEntries.id, entryOut.id));
    expect(row!.day).toBe('2026-11-21');
    expect(row!.timestamp.toISOString()).toBe(at('2026-11-20', '23:30'));
  });

  it('answers the incoherence flag of each entry and clears it on the entries it saves', async () => {
    const flaggedRange = { start: '2026-11-03', end: '2026-11-03' };
    const flagged = await insertEntry({
      employee_id: jeanne.id,
      timestamp: at('2026-11-03', '08:00'),
      is_in: true,
      incoherent: true,
    });
    const flagOf = async () => {
      const read = await customer.inject({
        method: 'GET',
        url: cardsUrl(flaggedRange.start, flaggedRange.end),
      });
      const { entries } = read.json() as { entries: { id: string; incoherent: boolean }[] };
      return entries.find((entry) => entry.id === flagged.id)?.incoherent;
    };
    expect(await flagOf()).toBe(true);
    const response = await save({
      ...flaggedRange,
      entries: [{ id: flagged.id, version: 0, employee_id: jeanne.id, is_in: true }],
    });
    expect(response.statusCode).toBe(200);
    const [row] = await context.db
      .select()
      .from(punchEntries)
      .where(eq(punchEntries.id, flagged.id));
    expect(row!.incoherent).toBe(false);
    expect(await flagOf()).toBe(false);
  });
});

describe('PDF export', () => {
  it('answers a PDF attachment with the employees and their total hours', async () => {
    const day = '2026-09-15';
    await insertEntry({ employee_id: jeanne.id, timestamp: at(day, '08:00'), is_in: true });
    await insertEntry({ employee_id: jeanne.id, timestamp: at(day, '15:30'), is_in: false });
    const response = await customer.inject({
      method: 'POST',
      url: '/api/pdf/punch_cards',
      payload: { storeId, start: day, end: '2026-09-17', lang: 'en' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="punch_cards.pdf"');
    const pdf = await getDocument({
      data: new Uint8Array(response.rawPayload),
      disableFontFace: true,
      isEvalSupported: false,
      useSystemFonts: false,
    }).promise;
    const page = await pdf.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('\n');
    await pdf.destroy();
    expect(text).toContain('Jeanne Martin');
    expect(text).toContain('Paul Durand');
    expect(text).not.toContain('Ancien');
    expect(text).toContain('7.50');
    expect(text).toContain('Total hours');

    const other = await customerB.inject({
      method: 'POST',
      url: '/api/pdf/punch_cards',
      payload: { storeId, start: day, end: day },
    });
    expect(other.statusCode).toBe(404);
    const tooLong = await customer.inject({
      method: 'POST',
      url: '/api/pdf/punch_cards',
      payload: { storeId, start: '2026-01-01', end: '2026-06-01' },
    });
    expect(tooLong.json().error.code).toBe('date-range-too-long');
  });
});

describe('home schedule', () => {
  it("lists the active employees with the day's entries, by name then time (default today)", async () => {
    const now = Date.now();
    const earlier = await insertEntry({
      employee_id: paul.id,
      timestamp: new Date(now - 2000).toISOString(),
      is_in: true,
      selfie_path: `stores/${storeId}/selfies/2026-11/${'b'.repeat(32)}.jpg`,
    });
    const later = await insertEntry({
      employee_id: paul.id,
      timestamp: new Date(now - 1000).toISOString(),
      is_in: false,
    });
    await insertEntry({
      employee_id: paul.id,
      timestamp: new Date(now).toISOString(),
      is_in: true,
      deleted_at: new Date(),
    });
    const response = await manager.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/schedule`,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.day).toBe(dayInZone(new Date(), zone));
    expect(body.items.map((item: { name: string }) => item.name)).toEqual(['Jeanne', 'Paul']);
    expect(body.items[0]).toMatchObject({ role_name: 'Cuisinier', entries: [] });
    expect(body.items[1].entries).toEqual([
      {
        id: earlier.id,
        is_in: true,
        time: earlier.timestamp.toISOString(),
        selfie_url: `/api/files/${earlier.selfie_path}`,
      },
      { id: later.id, is_in: false, time: later.timestamp.toISOString(), selfie_url: null },
    ]);
    const chosen = await manager.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/schedule?day=2026-11-09`,
    });
    expect(chosen.json().items[0].entries.map((entry: { time: string }) => entry.time)).toEqual([
      at('2026-11-09', '07:45'),
      at('2026-11-09', '12:00'),
    ]);
    expect(
      (await customerB.inject({ method: 'GET', url: `/api/stores/${storeId}/schedule` }))
        .statusCode,
    ).toBe(404);
  });
});
