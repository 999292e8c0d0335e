import type { ErrorCode } from '@mise/shared/errors/codes';
import { employeeAuthLockoutMinutes, employeeAuthMaxFailures } from '@mise/shared/tasks/constants';
import { validatePattern, validatePin } from '@mise/shared/tasks/rules';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { employeeAuthFailures, employeeSessions, employeeStores, employees } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, notFound } from '../../platform/errors';

type EmployeeRow = typeof employees.$inferSelect;
export type DeviceIdentity = { id: string; storeId: string };
/** The employee who signs a device action (from a valid employee token). */
export type DeviceEmployee = { id: string; name: string; surname: string };

/** An employee session lasts 12 hours on the device that opened it. */
export const employeeSessionHours = 12;

/**
 * How a PIN or a pattern is hashed (argon2id, like account passwords). A pattern is its points
 * joined by '-' ([0, 4, 8] → "0-4-8"). The demo seed and the back-office employee screens use
 * this so the tablet's authentication checks the same text.
 */
export function hashEmployeeSecret(pinOrPattern: string | readonly number[]): Promise<string> {
  return hashPassword(encodeEmployeeSecret(pinOrPattern));
}

export function encodeEmployeeSecret(pinOrPattern: string | readonly number[]): string {
  return typeof pinOrPattern === 'string' ? pinOrPattern : pinOrPattern.join('-');
}

/** What a tablet may know of an employee: never a hash. */
export function presentDeviceEmployee(row: EmployeeRow) {
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    role_id: row.role_id,
    illustration_url: row.illustration_url,
    using_password: row.using_password,
    has_secret: row.using_password ? row.pin_hash !== null : row.pattern_hash !== null,
  };
}

/** Active employees linked to the store, by name. */
export async function listStoreEmployees(db: Database, storeId: string) {
  const rows = await db
    .select({ employee: employees })
    .from(employees)
    .innerJoin(
      employeeStores,
      and(eq(employeeStores.employee_id, employees.id), eq(employeeStores.store_id, storeId)),
    )
    .where(eq(employees.active, true))
    .orderBy(asc(employees.name), asc(employees.surname), asc(employees.id));
  return rows.map((row) => presentDeviceEmployee(row.employee));
}

/** An active employee of the store, or 404. */
async function findStoreEmployee(db: Database, storeId: string, id: string): Promise<EmployeeRow> {
  const [row] = await db
    .select({ employee: employees })
    .from(employees)
    .innerJoin(
      employeeStores,
      and(eq(employeeStores.employee_id, employees.id), eq(employeeStores.store_id, storeId)),
    )
    .where(and(eq(employees.id, id), eq(employees.active, true)))
    .limit(1);
  if (!row) throw notFound();
  return row.employee;
}

/** A format error of the spec (4-digit PIN, 3-point pattern) is a 400, not a failed attempt. */
function formatError(code: ErrorCode): AppError {
  const error = new AppError(code);
  (error as { status: number }).status = 400;
  return error;
}

const timestampParam = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/**
 * Counts the attempt before the secret is checked, atomically: refused (false) while the
 * (employee, device) pair is locked out; the attempt that reaches the maximum sets the lock.
 * Counting first means parallel guesses cannot pass the limit while argon2 runs; a success
 * clears the row afterwards. An expired lock starts a new count.
 */
async function reserveAttempt(
  db: Database,
  employeeId: string,
  deviceId: string,
  now: Date,
): Promise<boolean> {
  const lockUntil = new Date(now.getTime() + employeeAuthLockoutMinutes * 60_000);
  const table = employeeAuthFailures;
  const lockExpired = sql`(${table.locked_until} is not null and ${table.locked_until} <= ${timestampParam(now)})`;
  const next = sql`(case when ${lockExpired} then 0 else ${table.failures} end) + 1`;
  const rows = await db
    .insert(table)
    .values({
      employee_id: employeeId,
      device_id: deviceId,
      failures: 1,
      locked_until: employeeAuthMaxFailures <= 1 ? lockUntil : null,
      updated_at: now,
    })
    .onConflictDoUpdate({
      target: [table.employee_id, table.device_id],
      set: {
        failures: next,
        locked_until: sql`case when ${next} >= ${employeeAuthMaxFailures} then ${timestampParam(lockUntil)} else null end`,
        updated_at: now,
      },
      setWhere: sql`${table.locked_until} is null or ${table.locked_until} <= ${timestampParam(now)}`,
    })
    .returning({ failures: table.failures });
  return rows.length > 0;
}

/** 429 'employee/locked-out' with the seconds until the lock ends (the Retry-After header). */
export class EmployeeLockedOut extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('employee/locked-out');
  }
}

async function lockedOut(
  db: Database,
  employeeId: string,
  deviceId: string,
  now: Date,
): Promise<EmployeeLockedOut> {
  const [row] = await db
    .select({ until: employeeAuthFailures.locked_until })
    .from(employeeAuthFailures)
    .where(
      and(
        eq(employeeAuthFailures.employee_id, employeeId),
        eq(employeeAuthFailures.device_id, deviceId),
      ),
    )
    .limit(1);
  const until = row?.until?.getTime() ?? now.getTime() + employeeAuthLockoutMinutes * 60_000;
  return new EmployeeLockedOut(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
}

/**
 * POST /api/device/employees/:id/authenticate: the PIN or pattern of an employee of the
 * device's store. Order: employee of the store (404), format (400), lockout (429), secret
 * (401). A PIN is checked only for an employee using a PIN, a pattern only for one using a
 * pattern. Success clears the counter and opens a 12-hour employee session on this device.
 */
export async function authenticateEmployee(
  db: Database,
  device: DeviceIdentity,
  employeeId: string,
  body: { pin: string } | { pattern: number[] },
  now = new Date(),
) {
  const employee = await findStoreEmployee(db, device.storeId, employeeId);
  const isPin = 'pin' in body;
  if (isPin) {
    const problem = validatePin(body.pin);
    if (problem) throw formatError(problem);
  } else {
    const problem = validatePattern(body.pattern);
    if (problem) throw formatError(problem);
  }
  if (!(await reserveAttempt(db, employee.id, device.id, now))) {
    throw await lockedOut(db, employee.id, device.id, now);
  }
  const stored = isPin
    ? employee.using_password
      ? employee.pin_hash
      : null
    : employee.using_password
      ? null
      : employee.pattern_hash;
  const secret = isPin ? body.pin : encodeEmployeeSecret(body.pattern);
  if (!(await verifyPassword(stored, secret))) {
    throw new AppError(isPin ? 'invalid-password' : 'invalid-pattern');
  }
  await db
    .delete(employeeAuthFailures)
    .where(
      and(
        eq(employeeAuthFailures.employee_id, employee.id),
        eq(employeeAuthFailures.device_id, device.id),
      ),
    );
  const token = newToken();
  const expiresAt = new Date(now.getTime() + employeeSessionHours * 3600_000);
  await db.insert(employeeSessions).values({
    token_hash: hashToken(token),
    employee_id: employee.id,
    device_id: device.id,
    store_id: device.storeId,
    expires_at: expiresAt,
  });
  return {
    status: 'ok' as const,
    employee: presentDeviceEmployee(employee),
    employee_token: token,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * The employee behind an `x-employee-token`: a live session opened on this very device, for
 * an employee still active and still linked to the device's store. Anything else is 401
 * 'employee/unauthenticated'.
 */
export async function findEmployeeOfToken(
  db: Database,
  device: DeviceIdentity,
  token: string | undefined,
  now = new Date(),
): Promise<DeviceEmployee> {
  if (!token || token.length > 200) throw new AppError('employee/unauthenticated');
  const [row] = await db
    .select({ id: employees.id, name: employees.name, surname: employees.surname })
    .from(employeeSessions)
    .innerJoin(employees, eq(employees.id, employeeSessions.employee_id))
    .innerJoin(
      employeeStores,
      and(
        eq(employeeStores.employee_id, employees.id),
        eq(employeeStores.store_id, employeeSessions.store_id),
      ),
    )
    .where(
      and(
        eq(employeeSessions.token_hash, hashToken(token)),
        eq(employeeSessions.device_id, device.id),
        eq(employeeSessions.store_id, device.storeId),
        gt(employeeSessions.expires_at, now),
        eq(employees.active, true),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('employee/unauthenticated');
  return row;
}
