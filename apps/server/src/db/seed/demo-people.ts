import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { eq, inArray } from 'drizzle-orm';
import { appendToChain } from '../../modules/records/chain';
import { punchEntryRevisionContent } from '../../modules/records/sources/punch-entry-revisions';
import type { Database } from '../client';
import {
  employeeRoles,
  employeeStores,
  employees,
  punchEntries,
  punchEntryRevisions,
  storeTagLinks,
  storeTags,
} from '../schema';

/*
 * The demo's people (first start only): employee roles and store tags of the demo database,
 * a role for each demo employee, and two weeks of punch cards for the demo stores — coherent,
 * except today's two entrances in a row for one employee of Lille Centre, so the punch-card
 * screen shows an incoherence to fix. Each entry has its 'create' revision, chained.
 */

export async function seedDemoPeople(
  db: Database,
  databaseId: string,
  demoStores: { id: string; name: string; timezone_name: string }[],
  now: Date = new Date(),
): Promise<void> {
  const roles = await db
    .insert(employeeRoles)
    .values(
      [
        ['Cuisinier', { temperatures: true, labels: true, traceability: true, actions: true }],
        ['Serveur', { actions: true, training: true }],
        [
          'Responsable',
          {
            temperatures: true,
            actions: true,
            oils: true,
            employees: true,
            history: true,
            auditing: true,
          },
        ],
      ].map(([name, features]) => ({
        database_id: databaseId,
        name: name as string,
        features_permissions: features as Record<string, boolean>,
      })),
    )
    .returning();
  const [north, city] = await db
    .insert(storeTags)
    .values([
      { database_id: databaseId, name: 'Nord' },
      { database_id: databaseId, name: 'Centre-ville' },
    ])
    .returning();
  const [paris, lyon, lille] = demoStores;
  await db
    .insert(storeTagLinks)
    .values(
      [
        lille && { tag_id: north!.id, store_id: lille.id },
        paris && { tag_id: city!.id, store_id: paris.id },
        lyon && { tag_id: city!.id, store_id: lyon.id },
      ].filter((link) => link !== undefined),
    );

  const staff = await db
    .select({ id: employees.id, name: employees.name })
    .from(employees)
    .where(eq(employees.database_id, databaseId));
  for (const [index, employee] of staff.entries()) {
    await db
      .update(employees)
      .set({ role_id: roles[index % roles.length]!.id })
      .where(eq(employees.id, employee.id));
  }

  const links = await db
    .select()
    .from(employeeStores)
    .where(
      inArray(
        employeeStores.store_id,
        demoStores.map((store) => store.id),
      ),
    );
  const rows: (typeof punchEntries.$inferInsert)[] = [];
  for (const [linkIndex, link] of links.entries()) {
    const store = demoStores.find((item) => item.id === link.store_id)!;
    const zone = store.timezone_name;
    const today = dayInZone(now, zone);
    for (let back = 13; back >= 1; back -= 1) {
      const day = addDays(today, -back);
      // Sundays off.
      if (new Date(`${day}T00:00:00Z`).getUTCDay() === 0) continue;
      const shift = (linkIndex * 7 + back * 3) % 20;
      for (const [isIn, minute] of [
        [true, 8 * 60 + shift],
        [false, 12 * 60],
        [true, 13 * 60],
        [false, 16 * 60 + 30 + shift],
      ] as const) {
        rows.push({
          store_id: store.id,
          employee_id: link.employee_id,
          day,
          is_in: isIn,
          timestamp: localMinuteToInstant(day, minute, zone),
          source: 'device',
        });
      }
    }
  }
  // Today in Lille: an employee badged in twice (the second entrance breaks the alternation).
  const lilleLink = lille && links.find((link) => link.store_id === lille.id);
  if (lille && lilleLink) {
    const today = dayInZone(now, lille.timezone_name);
    for (const minute of [6 * 60, 6 * 60 + 10]) {
      rows.push({
        store_id: lille.id,
        employee_id: lilleLink.employee_id,
        day: today,
        is_in: true,
        timestamp: localMinuteToInstant(today, minute, lille.timezone_name),
        source: 'device',
        incoherent: minute !== 6 * 60,
      });
    }
  }
  if (rows.length === 0) return;
  // Each entry with its 'create' revision, as a tablet's clocking writes it, chained (issue 21).
  const created = await db.insert(punchEntries).values(rows).returning();
  const revisions = await db
    .insert(punchEntryRevisions)
    .values(
      created.map((entry) => ({
        entry_id: entry.id,
        store_id: entry.store_id,
        action: 'create' as const,
        before: null,
        after: {
          is_in: entry.is_in,
          timestamp: entry.timestamp.toISOString(),
          timestamp_modified: null,
        },
        employee_id: entry.employee_id,
        created_at: entry.timestamp,
      })),
    )
    .returning();
  revisions.sort(
    (left, right) =>
      left.created_at.getTime() - right.created_at.getTime() || left.id.localeCompare(right.id),
  );
  await appendToChain(
    db,
    revisions.map((revision) => ({
      storeId: revision.store_id,
      kind: 'punch_entry_revision' as const,
      recordId: revision.id,
      record: punchEntryRevisionContent(revision),
    })),
  );
}
