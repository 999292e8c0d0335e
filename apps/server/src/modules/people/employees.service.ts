import { randomUUID } from 'node:crypto';
import type { Employee } from '@mise/shared/people/schemas';
import { validatePattern, validatePin } from '@mise/shared/tasks/rules';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  communicationResults,
  employeeAuthFailures,
  employeeRoles,
  employeeSessions,
  employeeStores,
  employees,
  stores,
} from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import { type Scope, storeFilter } from '../../platform/scope';
import { hashEmployeeSecret } from '../device/employees.service';
import {
  canEditStore,
  findEditableStore,
  findStoreInScope,
  type StoreRow,
} from '../stores/stores.service';
import { listDatabaseRoles } from './roles.service';

type EmployeeRow = typeof employees.$inferSelect;

export type SaveEmployeesInput = {
  employees: {
    id?: string;
    version?: number;
    name: string;
    surname: string;
    role_id: string | null;
    active: boolean;
  }[];
};

export type EmployeeSecretInput = { pin: string } | { pattern: number[] };

/** What the back-office may know of an employee: whether a secret is set, never the secret. */
export function presentEmployee(
  row: EmployeeRow,
  roleName: string | null,
  completedCommunications: string[] = [],
): Employee {
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    role_id: row.role_id,
    role_name: roleName,
    active: row.active,
    illustration_url: row.illustration_url,
    using_password: row.using_password,
    has_secret: row.pin_hash !== null || row.pattern_hash !== null,
    completed_communications: completedCommunications,
    version: row.version,
  };
}

/**
 * Employees linked to the store (employee_stores_store_idx), with the name of their role
 * (a role of the store's database) joined: one query.
 */
async function selectStoreEmployees(
  db: Database,
  store: StoreRow,
  condition: SQL | undefined,
): Promise<Employee[]> {
  const rows = await db
    .select({
      employee: employees,
      role_name: employeeRoles.name,
      completed_communications: sql<string[]>`coalesce((
        select array_agg(${communicationResults.communication_id} order by ${communicationResults.completed_at})
        from ${communicationResults}
        where ${communicationResults.employee_id} = ${employees.id}
          and ${communicationResults.completed_at} is not null), '{}')`,
    })
    .from(employees)
    .innerJoin(
      employeeStores,
      and(eq(employeeStores.employee_id, employees.id), eq(employeeStores.store_id, store.id)),
    )
    .leftJoin(
      employeeRoles,
      and(
        eq(employeeRoles.id, employees.role_id),
        store.database_id ? eq(employeeRoles.database_id, store.database_id) : sql`false`,
      ),
    )
    .where(condition)
    .orderBy(asc(employees.name), asc(employees.surname), asc(employees.id));
  return rows.map((row) =>
    presentEmployee(row.employee, row.role_name, row.completed_communications),
  );
}

async function presentList(db: Database, scope: Scope, store: StoreRow, includeInactive: boolean) {
  const [items, roles] = await Promise.all([
    selectStoreEmployees(db, store, includeInactive ? undefined : eq(employees.active, true)),
    store.database_id
      ? listDatabaseRoles(db, store.database_id, { activeOnly: true })
      : Promise.resolve([]),
  ]);
  return { items, roles, editable: canEditStore(scope, store) };
}

/** GET /api/stores/:storeId/employees: whoever sees the store. */
export async function listEmployees(
  db: Database,
  scope: Scope,
  storeId: string,
  query: { includeInactive: boolean },
) {
  const store = await findStoreInScope(db, scope, storeId);
  return presentList(db, scope, store, query.includeInactive);
}

/** An employee linked to the store (the employee_stores primary key), or 404. */
async function findLinkedEmployee(
  db: Database,
  storeId: string,
  employeeId: string,
): Promise<EmployeeRow> {
  const [row] = await db
    .select({ employee: employees })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .where(and(eq(employeeStores.employee_id, employeeId), eq(employeeStores.store_id, storeId)))
    .limit(1);
  if (!row) throw notFound();
  return row.employee;
}

/**
 * PUT /api/stores/:storeId/employees: writes every employee given in one transaction (spec 001
 * §3.11, §5). New ones (no id) join the store's database and are linked to the store; existing
 * ones must be linked to the store (404) and carry their version (stale → 409). A role must be
 * a role of the store's database ('employee/unknown-role'); when the database has an active
 * role, every active employee given needs one ('employee/select-role'); names and surnames
 * are required ('employee/invalid-name'). Nothing is written on any error.
 */
export async function saveEmployees(
  db: Database,
  scope: Scope,
  storeId: string,
  body: SaveEmployeesInput,
  query: { includeInactive: boolean },
) {
  const store = await findEditableStore(db, scope, storeId);

  const givenIds = body.employees.flatMap((employee) => (employee.id ? [employee.id] : []));
  if (new Set(givenIds).size !== givenIds.length) {
    throw new AppError('validation/invalid-input', 'An employee is given twice.');
  }
  const [existing, roles] = await Promise.all([
    givenIds.length
      ? db
          .select({ employee: employees })
          .from(employeeStores)
          .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
          .where(
            and(
              eq(employeeStores.store_id, store.id),
              inArray(employeeStores.employee_id, givenIds),
            ),
          )
      : Promise.resolve([]),
    store.database_id
      ? db
          .select({ id: employeeRoles.id, active: employeeRoles.active })
          .from(employeeRoles)
          .where(eq(employeeRoles.database_id, store.database_id))
      : Promise.resolve([]),
  ]);
  const byId = new Map(existing.map((row) => [row.employee.id, row.employee]));
  if (givenIds.some((id) => !byId.has(id))) throw notFound();

  for (const employee of body.employees) {
    if (employee.name.trim() === '' || employee.surname.trim() === '') {
      throw new AppError('employee/invalid-name');
    }
    if (employee.id && employee.version === undefined) {
      throw new AppError('validation/invalid-input', 'An existing employee needs its version.');
    }
  }
  const roleIds = new Set(roles.map((role) => role.id));
  if (body.employees.some((employee) => employee.role_id && !roleIds.has(employee.role_id))) {
    throw new AppError('employee/unknown-role');
  }
  if (
    roles.some((role) => role.active) &&
    body.employees.some((employee) => employee.active && !employee.role_id)
  ) {
    throw new AppError('employee/select-role');
  }
  for (const employee of body.employees) {
    if (employee.id && byId.get(employee.id)!.version !== employee.version) {
      throw new AppError('conflict/stale-version');
    }
  }

  const now = new Date();
  await db.transaction(async (tx) => {
    for (const employee of body.employees) {
      const current = employee.id ? byId.get(employee.id) : undefined;
      if (!current) continue;
      const changes = {
        name: employee.name.trim(),
        surname: employee.surname.trim(),
        role_id: employee.role_id,
        active: employee.active,
      };
      if (
        current.name === changes.name &&
        current.surname === changes.surname &&
        current.role_id === changes.role_id &&
        current.active === changes.active
      ) {
        continue;
      }
      const updated = await tx
        .update(employees)
        .set({ ...changes, version: sql`${employees.version} + 1`, updated_at: now })
        .where(and(eq(employees.id, current.id), eq(employees.version, current.version)))
        .returning({ id: employees.id });
      // A concurrent save won: roll everything back.
      if (updated.length === 0) throw new AppError('conflict/stale-version');
    }
    const created = body.employees
      .filter((employee) => !employee.id)
      .map((employee) => ({ ...employee, id: randomUUID() }));
    if (created.length) {
      await tx.insert(employees).values(
        created.map((employee) => ({
          id: employee.id,
          database_id: store.database_id,
          name: employee.name.trim(),
          surname: employee.surname.trim(),
          role_id: employee.role_id,
          active: employee.active,
        })),
      );
      await tx
        .insert(employeeStores)
        .values(created.map((employee) => ({ employee_id: employee.id, store_id: store.id })));
    }
  });
  return presentList(db, scope, store, query.includeInactive);
}

/** One employee of the store as the API sends it (role name joined). */
async function presentStoreEmployee(db: Database, store: StoreRow, id: string): Promise<Employee> {
  const [employee] = await selectStoreEmployees(db, store, eq(employees.id, id));
  if (!employee) throw notFound();
  return employee;
}

/**
 * PUT /api/stores/:storeId/employees/:employeeId/secret: a 4-digit PIN ('employee/invalid-pin')
 * or a pattern of 3+ distinct points 0–8 ('employee/pattern-too-short'; out-of-grid or repeated
 * points are invalid input). A PIN clears the pattern and the reverse; the employee's lockouts
 * and device sessions end with the old secret.
 */
export async function setEmployeeSecret(
  db: Database,
  scope: Scope,
  storeId: string,
  employeeId: string,
  body: EmployeeSecretInput,
) {
  const store = await findEditableStore(db, scope, storeId);
  const employee = await findLinkedEmployee(db, store.id, employeeId);
  const isPin = 'pin' in body;
  if (isPin) {
    if (validatePin(body.pin)) throw new AppError('employee/invalid-pin');
  } else {
    const problem = validatePattern(body.pattern);
    if (problem === 'pattern-too-short') throw new AppError('employee/pattern-too-short');
    if (problem) throw new AppError('validation/invalid-input', 'This pattern is not valid.');
  }
  const hash = await hashEmployeeSecret(isPin ? body.pin : body.pattern);
  await db.transaction(async (tx) => {
    await tx
      .update(employees)
      .set({
        using_password: isPin,
        pin_hash: isPin ? hash : null,
        pattern_hash: isPin ? null : hash,
        version: sql`${employees.version} + 1`,
        updated_at: new Date(),
      })
      .where(eq(employees.id, employee.id));
    await tx.delete(employeeAuthFailures).where(eq(employeeAuthFailures.employee_id, employee.id));
    await tx.delete(employeeSessions).where(eq(employeeSessions.employee_id, employee.id));
  });
  return { employee: await presentStoreEmployee(db, store, employee.id) };
}

/** Who may change an employee's picture: whoever edits the store, for an employee of it. */
export async function findEditableEmployee(
  db: Database,
  scope: Scope,
  storeId: string,
  employeeId: string,
) {
  const store = await findEditableStore(db, scope, storeId);
  const employee = await findLinkedEmployee(db, store.id, employeeId);
  return { store, employee };
}

export async function setEmployeeIllustration(
  db: Database,
  scope: Scope,
  storeId: string,
  employeeId: string,
  url: string,
) {
  const { store, employee } = await findEditableEmployee(db, scope, storeId, employeeId);
  await db
    .update(employees)
    .set({
      illustration_url: url,
      version: sql`${employees.version} + 1`,
      updated_at: new Date(),
    })
    .where(eq(employees.id, employee.id));
  return {
    employee: await presentStoreEmployee(db, store, employee.id),
    previousUrl: employee.illustration_url,
  };
}

/**
 * An employee the caller may see: one linked to a store of the scope (files under
 * `employees/<id>/`). 404 otherwise.
 */
export async function findEmployeeInScope(db: Database, scope: Scope, id: string) {
  const [row] = await db
    .select({ id: employeeStores.employee_id })
    .from(employeeStores)
    .innerJoin(stores, eq(stores.id, employeeStores.store_id))
    .where(and(eq(employeeStores.employee_id, id), storeFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}
