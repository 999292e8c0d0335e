import { randomBytes } from 'node:crypto';
import { dayInZone } from '@mise/shared/tasks/rules';
import type { Database } from '../db/client';
import {
  databaseElements,
  databaseManagers,
  databases,
  distributors,
  elementLabels,
  elementTypes,
  employeeStores,
  employees,
  storeElements,
  storeOwners,
  stores,
  storeTaskConfigurations,
  taskConfigurations,
  tasks,
  taskTypes,
  users,
} from '../db/schema';
import { hashEmployeeSecret } from '../modules/device/employees.service';
import { hashPassword } from '../platform/auth/passwords';

export const testPassword = 'Correct-horse-42';
let testPasswordHash: Promise<string> | undefined;

const unique = () => randomBytes(4).toString('hex');

export async function buildDistributor(
  db: Database,
  values: Partial<typeof distributors.$inferInsert> = {},
) {
  const [row] = await db
    .insert(distributors)
    .values({ name: `Distributor ${unique()}`, city: 'Paris', ...values })
    .returning();
  return row!;
}

export async function buildDatabase(
  db: Database,
  values: Partial<typeof databases.$inferInsert> = {},
) {
  const [row] = await db
    .insert(databases)
    .values({ name: `Database ${unique()}`, ...values })
    .returning();
  return row!;
}

export async function buildStore(db: Database, values: Partial<typeof stores.$inferInsert> = {}) {
  const [row] = await db
    .insert(stores)
    .values({
      name: `Store ${unique()}`,
      address: `${Math.floor(Math.random() * 200)} rue des Tests ${unique()}`,
      postal_code: '75001',
      city: 'Paris',
      ...values,
    })
    .returning();
  return row!;
}

type UserOptions = Partial<typeof users.$inferInsert> & {
  role: (typeof users.$inferInsert)['role'];
  password?: string;
  ownedStoreIds?: string[];
  managedDatabaseIds?: string[];
};

/** An account with the test password (hashed once per run), its owned stores and managed databases. */
export async function buildUser(db: Database, options: UserOptions) {
  const { password, ownedStoreIds = [], managedDatabaseIds = [], ...values } = options;
  testPasswordHash ??= hashPassword(testPassword);
  const password_hash = password ? await hashPassword(password) : await testPasswordHash;
  const [row] = await db
    .insert(users)
    .values({
      email: `${values.role}-${unique()}@example.test`,
      name: 'Test',
      surname: values.role,
      password_hash,
      ...values,
    })
    .returning();
  if (ownedStoreIds.length) {
    await db
      .insert(storeOwners)
      .values(ownedStoreIds.map((store_id) => ({ store_id, user_id: row!.id })));
  }
  if (managedDatabaseIds.length) {
    await db
      .insert(databaseManagers)
      .values(managedDatabaseIds.map((database_id) => ({ database_id, user_id: row!.id })));
  }
  return row!;
}

/**
 * Two tenants, each a distributor with a database, two stores and one account per role,
 * plus an admin: the fixture every authorization test uses.
 */
export async function buildTwoTenants(db: Database) {
  const admin = await buildUser(db, { role: 'admin' });
  const build = async (label: string) => {
    const distributor = await buildDistributor(db, { name: `Distributor ${label}` });
    const database = await buildDatabase(db, {
      name: `Database ${label}`,
      distributor_id: distributor.id,
    });
    const storeA = await buildStore(db, {
      name: `Store ${label}1`,
      distributor_id: distributor.id,
      database_id: database.id,
    });
    const storeB = await buildStore(db, {
      name: `Store ${label}2`,
      distributor_id: distributor.id,
      database_id: database.id,
    });
    const distributorUser = await buildUser(db, {
      role: 'distributor',
      distributor_id: distributor.id,
    });
    const manager = await buildUser(db, {
      role: 'manager',
      database_id: database.id,
      managedDatabaseIds: [database.id],
    });
    const customer = await buildUser(db, { role: 'customer', ownedStoreIds: [storeA.id] });
    return {
      distributor,
      database,
      stores: [storeA, storeB],
      users: { distributor: distributorUser, manager, customer },
    };
  };
  return { admin, a: await build('A'), b: await build('B') };
}

/* ---------- Catalogue (spec 001) ---------- */

/** An element type of a database, or of a store (store side) when `store_id` is given. */
export async function buildElementType(
  db: Database,
  values: { database_id?: string; store_id?: string; name?: string },
) {
  const [row] = await db
    .insert(elementTypes)
    .values({ name: `Type ${unique()}`, ...values })
    .returning();
  return row!;
}

export async function buildDatabaseElement(
  db: Database,
  values: Partial<typeof databaseElements.$inferInsert> & { database_id: string },
) {
  const [row] = await db
    .insert(databaseElements)
    .values({ name: `Element ${unique()}`, ...values })
    .returning();
  return row!;
}

/** A store element: an override of `origin_id` (null fields follow it) or one of its own. */
export async function buildStoreElement(
  db: Database,
  values: Partial<typeof storeElements.$inferInsert> & { store_id: string },
) {
  const [row] = await db.insert(storeElements).values(values).returning();
  return row!;
}

/** A label of a database element (every field set) or of a store element. */
export async function buildLabel(db: Database, values: Partial<typeof elementLabels.$inferInsert>) {
  const [row] = await db
    .insert(elementLabels)
    .values({
      name: `Label ${unique()}`,
      active: true,
      type: 'defrosting',
      expiration_duration: 0,
      defrosting_duration: 0,
      expiration_text: null,
      cumulate_expiration_duration: false,
      show_expiration_hour: false,
      show_expiration_weekday: false,
      ...values,
    })
    .returning();
  return row!;
}

/* ---------- Employees and tasks (tablet) ---------- */

/** Hashes of employee secrets, computed once per run (argon2 is slow on purpose). */
const employeeSecretHashes = new Map<string, Promise<string>>();
const employeeSecretHash = (secret: string | number[]) => {
  const text = typeof secret === 'string' ? `pin:${secret}` : `pattern:${secret.join('-')}`;
  let hashed = employeeSecretHashes.get(text);
  if (!hashed) {
    hashed = hashEmployeeSecret(secret);
    employeeSecretHashes.set(text, hashed);
  }
  return hashed;
};

/**
 * An employee linked to `storeIds`, with a PIN (default '1234') or, when `pattern` is given,
 * a pattern (using_password false). `pin: null` leaves the employee without a secret.
 */
export async function buildEmployee(
  db: Database,
  options: Partial<typeof employees.$inferInsert> & {
    storeIds: string[];
    pin?: string | null;
    pattern?: number[];
  },
) {
  const { storeIds, pin = '1234', pattern, ...values } = options;
  const [row] = await db
    .insert(employees)
    .values({
      name: `Employee ${unique()}`,
      surname: 'Test',
      using_password: !pattern,
      pin_hash: !pattern && pin !== null ? await employeeSecretHash(pin) : null,
      pattern_hash: pattern ? await employeeSecretHash(pattern) : null,
      ...values,
    })
    .returning();
  if (storeIds.length) {
    await db
      .insert(employeeStores)
      .values(storeIds.map((store_id) => ({ employee_id: row!.id, store_id })));
  }
  return row!;
}

/**
 * A task of a store, inserted directly (generation is not needed): by default a temperatures
 * task of today (UTC) starting now, lasting an hour, with two elements.
 */
export async function buildTask(
  db: Database,
  values: Partial<typeof tasks.$inferInsert> & { store_id: string },
) {
  const start = values.start ?? new Date();
  const element = (name: string) => ({
    id: crypto.randomUUID(),
    name,
    minimum_temperature: 0,
    maximum_temperature: 4,
    maximum_polarity: null,
    reheating_temperature: null,
    cooling_temperature: null,
  });
  const [row] = await db
    .insert(tasks)
    .values({
      name: `Task ${unique()}`,
      module: 'temperatures',
      // The store day of `start` in the stores' default zone (not UTC's: from 23:00 UTC Paris
      // is already on the next day, and the task's window would be over).
      day: dayInZone(start, 'Europe/Paris'),
      start,
      duration: 60,
      elements: [element('Fridge 1'), element('Fridge 2')],
      ...values,
    })
    .returning();
  return row!;
}

/* ---------- Task configurations (spec 001 §3.6, §3.7) ---------- */

/** A task type of a database, or of a store (store side) when `store_id` is given. */
export async function buildTaskType(
  db: Database,
  values: { database_id?: string; store_id?: string; name?: string; color?: string },
) {
  const [row] = await db
    .insert(taskTypes)
    .values({ name: `Task type ${unique()}`, ...values })
    .returning();
  return row!;
}

/** A database task configuration: an Action task with one action unless told otherwise. */
export async function buildTaskConfiguration(
  db: Database,
  values: Partial<typeof taskConfigurations.$inferInsert> & { database_id: string },
) {
  const [row] = await db
    .insert(taskConfigurations)
    .values({
      name: `Task ${unique()}`,
      module: 'actions',
      configuration: { actions: [{ name: 'Clean', requires_picture: false, attachments: [] }] },
      starts: [480],
      durations: [60],
      ...values,
    })
    .returning();
  return row!;
}

/** A store task configuration: an override of `origin_id` (null fields follow it) or one of its own. */
export async function buildStoreTaskConfiguration(
  db: Database,
  values: Partial<typeof storeTaskConfigurations.$inferInsert> & { store_id: string },
) {
  const [row] = await db.insert(storeTaskConfigurations).values(values).returning();
  return row!;
}
