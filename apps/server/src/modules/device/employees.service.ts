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

/**
 * Counts the attempt before the secret is checked: refused (false) while the employee is
 * locked out; 'locking' when this attempt, if it fails, locks the employee out. The count is the employee's, across every tablet of the store (one row per
 * device, summed; a lock on any row locks them all), so another tablet gives no more
 * guesses. The employee's row is locked while counting, so parallel guesses from several
 * tablets cannot pass the limit while argon2 runs; a success clears the rows afterwards.
 * An expired lock starts a new count.
 */
async function reserveAttempt(
  db: Database,
  employeeId: string,
  deviceId: string,
  now: Date,
): Promise<false | 'counted' | 'locking'> {
  const lockUntil = new Date(now.getTime() + employeeAuthLockoutMinutes * 60_000);
  const table = employeeAuthFailures;
  return db.transaction(async (tx) => {
    await tx
      .select({ id: employees.id })
      .from(employees)
      .where(eq(employees.id, employeeId))
      .for('update');
    const rows = await tx
      .select({ failures: table.failures, locked_until: table.locked_until })
      .from(table)
      .where(eq(table.employee_id, employeeId));
    if (rows.some((row) => row.locked_until && row.locked_until > now)) return false;
    const hasExpiredLock = rows.some((row) => row.locked_until !== null);
    if (hasExpiredLock) await tx.delete(table).where(eq(table.employee_id, employeeId));
    const total = (hasExpiredLock ? 0 : rows.reduce((sum, row) => sum + row.failures, 0)) + 1;
    const lockedUntil = total >= employeeAuthMaxFailures ? lockUntil : null;
    await tx
      .insert(table)
      .values({
        employee_id: employeeId,
        device_id: deviceId,
        failures: 1,
        locked_until: lockedUntil,
        updated_at: now,
      })
      .onConflictDoUpdate({
        target: [table.employee_id, table.device_id],
        set: { failures: sql`${table.failures} + 1`, locked_until: lockedUntil, updated_at: now },
      });
    if (lockedUntil) {
      await tx
        .update(table)
        .set({ locked_until: lockedUntil })
        .where(eq(table.employee_id, employeeId));
    }
    return lockedUntil ? 'locking' : 'counted';
  });
}

/** 429 'employee/locked-out' with the seconds until the lock ends (the Retry-After header). */
export class EmployeeLockedOut extends AppError {
  constructor(override readonly retryAfterSeconds: number) {
    super('employee/locked-out');
  }
}

async function lockedOut(db: Database, employeeId: string, now: Date): Promise<EmployeeLockedOut> {
  const [row] = await db
    .select({ until: sql<string | null>`max(${employeeAuthFailures.locked_until})` })
    .from(employeeAuthFailures)
    .where(eq(employeeAuthFailures.employee_id, employeeId));
  const until = row?.until
    ? new Date(row.until).getTime()
    : now.getTime() + employeeAuthLockoutMinutes * 60_000;
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
  const attempt = await reserveAttempt(db, employee.id, device.id, now);
  if (!attempt) throw await lockedOut(db, employee.id, now);
  const stored = isPin
    ? employee.using_password
      ? employee.pin_hash
      : null
    : employee.using_password
      ? null
      : employee.pattern_hash;
  const secret = isPin ? body.pin : encodeEmployeeSecret(body.pattern);
  if (!(await verifyPassword(stored, secret))) {
    // The failure that reaches the maximum says so at once, with the time left.
    if (attempt === 'locking') throw await lockedOut(db, employee.id, now);
    throw new AppError(isPin ? 'invalid-password' : 'invalid-pattern');
  }
  // A success clears the employee's count on every tablet.
  await db.delete(employeeAuthFailures).where(eq(employeeAuthFailures.employee_id, employee.id));
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
