import { createHash } from 'node:crypto';
import { resultAnomalies } from '@mise/shared/history/rules';
import { addDays, dayInZone, localMinuteToInstant, taskEnd } from '@mise/shared/tasks/rules';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { hashEmployeeSecret } from '../../modules/device/employees.service';
import { appendToChain } from '../../modules/records/chain';
import { taskResultRevisionContent } from '../../modules/records/sources/task-result-revisions';
import { type GenerationStore, generateItems } from '../../modules/tasks/generation.service';
import type { Database } from '../client';
import {
  databaseElements,
  employeeStores,
  employees,
  storeTaskConfigurations,
  taskConfigurations,
  taskResultRevisions,
  tasks,
  taskTypes,
} from '../schema';

/** Days of history the demo stores get, before today. */
export const demoHistoryDays = 60;
export const demoEmployeePin = '1234';

const rowsPerStatement = 2000;

/** A small deterministic generator: the demo looks the same on every fresh start. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const minutes = (count: number) => count * 60_000;
const round1 = (value: number) => Math.round(value * 10) / 10;

const cleaningActions = [
  'Plans de travail désinfectés',
  'Sols lavés',
  'Poignées et interrupteurs',
  'Poubelles vidées et lavées',
];
const deepCleaningActions = [
  'Hotte et filtres dégraissés',
  'Chambre froide vidée et lavée',
  'Four nettoyé',
  'Joints des portes',
];

/**
 * The demo's operations (first start only): task types, database task configurations of the
 * demo database, a few employees (PIN 1234), then 60 days of generated history and today for
 * the demo stores, most past tasks completed with plausible results (a few out-of-range
 * temperatures, late completions, tasks left undone, postponements), each completion with
 * its revision row. Set-based inserts; skipped when the database already has configurations.
 */
export async function seedDemoTasks(
  db: Database,
  databaseId: string,
  demoStores: GenerationStore[],
  now: Date = new Date(),
): Promise<{ tasks: number; completed: number }> {
  const [existing] = await db
    .select({ id: taskConfigurations.id })
    .from(taskConfigurations)
    .where(eq(taskConfigurations.database_id, databaseId))
    .limit(1);
  if (existing || demoStores.length === 0) return { tasks: 0, completed: 0 };

  // Each store's own calendar: its today in its zone; the anchors count from the earliest first day.
  const zoneOf = new Map(demoStores.map((store) => [store.id, store.timezone_name]));
  const firstDayOf = (store: GenerationStore) =>
    addDays(dayInZone(now, store.timezone_name), -demoHistoryDays);
  const firstDay = demoStores.map(firstDayOf).sort()[0]!;

  const [cold, hygiene, oils] = await db
    .insert(taskTypes)
    .values([
      { database_id: databaseId, name: 'Températures', color: '#1c7ed6' },
      { database_id: databaseId, name: 'Hygiène', color: '#2f9e44' },
      { database_id: databaseId, name: 'Huiles', color: '#f59f00' },
    ])
    .returning();

  const elements = await db
    .select({
      id: databaseElements.id,
      name: databaseElements.name,
      temperatures: databaseElements.temperatures_module_active,
      oils: databaseElements.oils_module_active,
      control: databaseElements.temperature_control_module_active,
      delivery: databaseElements.temperature_delivery_item,
      maximum: databaseElements.maximum_temperature,
    })
    .from(databaseElements)
    .where(and(eq(databaseElements.database_id, databaseId), eq(databaseElements.active, true)))
    .orderBy(asc(databaseElements.name));
  const fridges = elements.filter(
    (element) => element.temperatures && !element.delivery && element.maximum !== null,
  );
  const fryers = elements.filter((element) => element.oils);

  const base = { database_id: databaseId, recurrence_anchor: firstDay } as const;
  const actionsOf = (names: string[]) =>
    names.map((name) => ({ name, requires_picture: false, attachments: [] }));
  await db.insert(taskConfigurations).values([
    {
      ...base,
      module: 'temperatures',
      name: 'Relevé des températures',
      description: 'Relever la température de chaque enceinte froide.',
      type_id: cold!.id,
      starts: [480, 1020], // 08:00–09:00 and 17:00–18:00, the store's wall clock
      durations: [60, 60],
      notify_late: true,
      configuration: {
        temperature_elements: fridges.map((element) => element.id),
        is_delivery: false,
        automatic: false,
      },
    },
    {
      ...base,
      module: 'actions',
      name: 'Nettoyage de fin de service',
      type_id: hygiene!.id,
      starts: [1290], // 21:30–22:30
      durations: [60],
      configuration: { actions: actionsOf(cleaningActions) },
    },
    ...(fryers.length
      ? [
          {
            ...base,
            module: 'oils' as const,
            name: "Contrôle de l'huile",
            type_id: oils!.id,
            starts: [660], // 11:00–11:30
            durations: [30],
            configuration: { oil_elements: fryers.map((element) => element.id) },
          },
        ]
      : []),
    {
      ...base,
      module: 'actions',
      name: 'Nettoyage approfondi',
      description: 'Grand nettoyage hebdomadaire de la cuisine.',
      type_id: hygiene!.id,
      recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO',
      starts: [900], // Monday 15:00–16:30
      durations: [90],
      requires_manager: true,
      configuration: { actions: actionsOf(deepCleaningActions) },
    },
  ]);
  // Lyon opens earlier: its own opening checklist (a store-side configuration).
  if (demoStores[1]) {
    await db.insert(storeTaskConfigurations).values({
      store_id: demoStores[1].id,
      module: 'actions',
      name: 'Ouverture',
      active: true,
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      recurrence_anchor: firstDay,
      starts: [450], // 07:30–08:00
      durations: [30],
      requires_manager: false,
      notify_late: false,
      configuration: { actions: actionsOf(['Chambres froides fermées', 'Mains lavées']) },
    });
  }

  // Employees of the tablets, PIN 1234 hashed as the device module checks it.
  const pinHash = await hashEmployeeSecret(demoEmployeePin);
  const people: [string, string, number[]][] = [
    ['Lucas', 'Martin', [0]],
    ['Emma', 'Bernard', [0]],
    ['Hugo', 'Petit', [0, 1]],
    ['Chloé', 'Durand', [1]],
    ['Nina', 'Moreau', [2]],
    ['Thomas', 'Leroy', [2]],
  ];
  const employeeRows = await db
    .insert(employees)
    .values(
      people.map(([name, surname]) => ({
        database_id: databaseId,
        name,
        surname,
        using_password: true,
        pin_hash: pinHash,
      })),
    )
    .returning({ id: employees.id, name: employees.name, surname: employees.surname });
  const links = people.flatMap(([, , storeIndexes], index) =>
    storeIndexes
      .filter((storeIndex) => demoStores[storeIndex])
      .map((storeIndex) => ({
        employee_id: employeeRows[index]!.id,
        store_id: demoStores[storeIndex]!.id,
      })),
  );
  if (links.length) await db.insert(employeeStores).values(links);
  const staffOf = new Map<string, typeof employeeRows>();
  for (const link of links) {
    const list = staffOf.get(link.store_id) ?? [];
    list.push(employeeRows.find((row) => row.id === link.employee_id)!);
    staffOf.set(link.store_id, list);
  }

  // History: the same generation the scheduler runs, for 60 days and today.
  await generateItems(
    db,
    demoStores.flatMap((store) =>
      Array.from({ length: demoHistoryDays + 1 }, (_, index) => ({
        store,
        day: addDays(firstDayOf(store), index),
      })),
    ),
    { now },
  );

  const generated = await db
    .select()
    .from(tasks)
    .where(
      and(
        inArray(
          tasks.store_id,
          demoStores.map((store) => store.id),
        ),
        lte(tasks.start, now),
      ),
    )
    .orderBy(asc(tasks.start), asc(tasks.store_id), asc(tasks.name));

  const next = random(20261122);
  const completions: {
    id: string;
    store_id: string;
    result: unknown;
    anomaly: boolean;
    completed: Date;
    employee: { id: string; name: string; surname: string };
  }[] = [];
  const complete = (
    task: typeof tasks.$inferSelect,
    completed: Date,
    employee: { id: string; name: string; surname: string },
  ) => {
    const result = resultOf(task, completed, next, employee);
    completions.push({
      id: task.id,
      store_id: task.store_id,
      result,
      anomaly: resultAnomalies(task.module, task.elements, result).length > 0,
      completed,
      employee,
    });
  };
  const postponements: { task: (typeof generated)[number]; start: Date }[] = [];
  for (const task of generated) {
    const end = taskEnd(task.start, task.duration);
    if (end.getTime() > now.getTime()) continue; // still open: today's tasks stay to do
    const staff = staffOf.get(task.store_id) ?? [];
    const employee = staff[Math.floor(next() * staff.length)];
    if (!employee) continue;
    const draw = next();
    if (draw < 0.04) continue; // left undone: late, non-finalized
    if (draw < 0.06) {
      postponements.push({ task, start: new Date(task.start.getTime() + minutes(120)) });
      continue;
    }
    const completed =
      draw < 0.13
        ? new Date(end.getTime() + minutes(10 + Math.floor(next() * 80))) // done late
        : new Date(task.start.getTime() + minutes(Math.floor(next() * task.duration * 0.9)));
    complete(task, completed, employee);
  }

  // Cooling and reheating records (temperature control is recorded on the tablet when a
  // preparation is cooled or reheated, not generated): one a day at 14:00 in each store.
  const controlled = elements.filter((element) => element.control).slice(0, 2);
  if (controlled.length) {
    const controlTasks = await db
      .insert(tasks)
      .values(
        demoStores.flatMap((store) =>
          Array.from({ length: demoHistoryDays }, (_, index) => {
            const day = addDays(firstDayOf(store), index);
            const element = controlled[index % controlled.length]!;
            return {
              store_id: store.id,
              database_id: databaseId,
              day,
              name: index % 2 ? 'Remise en température' : 'Refroidissement rapide',
              module: 'temperature_control' as const,
              start: localMinuteToInstant(day, 14 * 60, store.timezone_name),
              duration: 120,
              elements: [
                {
                  id: element.id,
                  name: element.name,
                  minimum_temperature: null,
                  maximum_temperature: null,
                  maximum_polarity: null,
                  reheating_temperature: 63,
                  cooling_temperature: 10,
                },
              ],
            };
          }),
        ),
      )
      .returning();
    for (const task of controlTasks) {
      const staff = staffOf.get(task.store_id) ?? [];
      const employee = staff[Math.floor(next() * staff.length)];
      if (employee) complete(task, new Date(task.start.getTime() + minutes(95)), employee);
    }
  }

  // Postponed tasks: the copy two hours later, completed by the same kind of employee.
  if (postponements.length) {
    const copies = await db
      .insert(tasks)
      .values(
        postponements.map(({ task, start }) => ({
          store_id: task.store_id,
          database_id: task.database_id,
          configuration_id: task.configuration_id,
          store_configuration_id: task.store_configuration_id,
          generation_key: null,
          day: dayInZone(start, zoneOf.get(task.store_id)!),
          name: task.name,
          module: task.module,
          type_name: task.type_name,
          type_color: task.type_color,
          start,
          duration: task.duration,
          requires_manager: task.requires_manager,
          notify_late: task.notify_late,
          elements: task.elements,
          actions: task.actions,
          original_task: task.id,
        })),
      )
      .returning();
    const revisions = [];
    for (const [index, copy] of copies.entries()) {
      const original = postponements[index]!.task;
      const staff = staffOf.get(copy.store_id)!;
      const employee = staff[index % staff.length]!;
      const who = { name: employee.name, surname: employee.surname };
      await db
        .update(tasks)
        .set({
          postponed_task: copy.id,
          completed_employee: employee.id,
          employee: who,
          revision: 1,
        })
        .where(eq(tasks.id, original.id));
      revisions.push({
        task_id: original.id,
        store_id: original.store_id,
        revision: 1,
        kind: 'postpone' as const,
        result: { postponed_task: copy.id, start: copy.start.toISOString() },
        completed_timestamp: null,
        employee_id: employee.id,
        employee: who,
        idempotency_key: `demo-postpone:${original.id}`,
        request_hash: hashOf(`postpone:${original.id}`),
        created_at: new Date(original.start.getTime() + minutes(5)),
      });
      if (taskEnd(copy.start, copy.duration).getTime() <= now.getTime()) {
        const completed = new Date(copy.start.getTime() + minutes(Math.floor(copy.duration / 3)));
        complete(copy, completed, employee);
      }
    }
    await db.insert(taskResultRevisions).values(revisions);
  }

  // Completions: one JSON parameter per statement (json_to_recordset), a few statements.
  for (let offset = 0; offset < completions.length; offset += rowsPerStatement) {
    const chunk = completions.slice(offset, offset + rowsPerStatement).map((completion) => ({
      id: completion.id,
      store_id: completion.store_id,
      result: completion.result,
      anomaly: completion.anomaly,
      completed: completion.completed.toISOString(),
      employee_id: completion.employee.id,
      employee: { name: completion.employee.name, surname: completion.employee.surname },
      idempotency_key: `demo:${completion.id}`,
      request_hash: hashOf(`result:${completion.id}`),
    }));
    const payload = JSON.stringify(chunk);
    await db.execute(sql`
      update ${tasks} as t
         set result = v.result, result_anomaly = v.anomaly, completed_timestamp = v.completed,
             completed_employee = v.employee_id, employee = v.employee, revision = 1,
             updated_at = v.completed
        from json_to_recordset(${payload}::json)
             as v(id uuid, result jsonb, anomaly boolean, completed timestamptz, employee_id uuid,
                  employee jsonb)
       where t.id = v.id`);
    await db.execute(sql`
      insert into ${taskResultRevisions} (task_id, store_id, revision, kind, result,
             completed_timestamp, employee_id, employee, idempotency_key, request_hash, created_at)
      select v.id, v.store_id, 1, 'result', v.result, v.completed, v.employee_id, v.employee,
             v.idempotency_key, v.request_hash, v.completed
        from json_to_recordset(${payload}::json)
             as v(id uuid, store_id uuid, result jsonb, completed timestamptz, employee_id uuid,
                  employee jsonb, idempotency_key text, request_hash text)`);
  }
  await chainDemoRevisions(
    db,
    demoStores.map((store) => store.id),
  );
  return { tasks: generated.length + postponements.length, completed: completions.length };
}

/**
 * The demo's task result revisions appended to their stores' records chains (issue 21), in the
 * order of their times, as the application appends each revision it writes: the verifier
 * passes on the demo. The entries carry the seeding time (when they were appended).
 */
async function chainDemoRevisions(db: Database, storeIds: string[]): Promise<void> {
  const written = await db
    .select()
    .from(taskResultRevisions)
    .where(inArray(taskResultRevisions.store_id, storeIds))
    .orderBy(asc(taskResultRevisions.created_at), asc(taskResultRevisions.id));
  for (let offset = 0; offset < written.length; offset += rowsPerStatement) {
    await appendToChain(
      db,
      written.slice(offset, offset + rowsPerStatement).map((row) => ({
        storeId: row.store_id,
        kind: 'task_result_revision' as const,
        recordId: row.id,
        record: taskResultRevisionContent(row),
      })),
    );
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A plausible result of a task's module (the shapes of packages/shared tasks/schemas). */
function resultOf(
  task: typeof tasks.$inferSelect,
  completed: Date,
  next: () => number,
  employee: { id: string; name: string; surname: string },
): Record<string, unknown> {
  const timestamp = Math.floor(completed.getTime() / 1000);
  if (task.module === 'temperatures') {
    return {
      entries: task.elements.map((element) => {
        const minimum = element.minimum_temperature ?? 0;
        const maximum = element.maximum_temperature ?? 4;
        const isOut = next() < 0.06;
        const temperature = isOut
          ? round1(maximum + 1 + next() * 3)
          : round1(minimum + (maximum - minimum) * (0.2 + next() * 0.6));
        return {
          element: element.id,
          temperature,
          first_temperature: temperature,
          control_temperature: null,
          comment: isOut ? 'Porte restée ouverte, température recontrôlée.' : '',
          pictures: [],
          timestamp,
        };
      }),
    };
  }
  if (task.module === 'oils') {
    return {
      entries: task.elements.map((element) => {
        const polarity = round1(8 + next() * 18);
        const changed = polarity > (element.maximum_polarity ?? 25) - 2;
        return {
          element: element.id,
          cleaned: next() < 0.3,
          oil_changed: changed,
          oil_filtered: true,
          filter_changed: changed,
          polarity,
          temperature: round1(165 + next() * 15),
          pictures: [],
        };
      }),
    };
  }
  if (task.module === 'temperature_control') {
    return {
      entries: task.elements.map((element) => {
        const isCooling = task.name.startsWith('Refroidissement');
        const fails = next() < 0.1;
        const start = timestamp - 90 * 60;
        return {
          element: element.id,
          mode: isCooling ? 'cooling' : 'reheating',
          target_temperature: isCooling
            ? element.cooling_temperature
            : element.reheating_temperature,
          start_temperature: isCooling ? 63 : 4,
          start_timestamp: start,
          end_temperature: isCooling ? (fails ? 14 : 8) : fails ? 55 : 71,
          end_timestamp: timestamp,
          comment: fails ? 'Objectif non atteint, produit jeté.' : '',
          // One employee cooled (or reheated) it from start to end.
          start_employee: { id: employee.id, name: employee.name, surname: employee.surname },
          end_employee: { id: employee.id, name: employee.name, surname: employee.surname },
        };
      }),
    };
  }
  return {
    entries: task.actions.map((action, index) => ({
      index,
      action: action.name,
      done: next() > 0.05,
      requires_picture: action.requires_picture,
      picture: null,
    })),
  };
}
