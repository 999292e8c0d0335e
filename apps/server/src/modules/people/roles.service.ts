import { type FeatureKey, featureKeys } from '@mise/shared/people/constants';
import type { EmployeeRole } from '@mise/shared/people/schemas';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { employeeRoles } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';

type DatabaseRow = Awaited<ReturnType<typeof findDatabaseInScope>>;
type RoleRow = typeof employeeRoles.$inferSelect;

export type SaveRolesInput = {
  roles: {
    id?: string;
    name: string;
    active: boolean;
    features_permissions: Partial<Record<FeatureKey, boolean>>;
  }[];
};

/**
 * Who edits a database's roles and tags (spec 001 §2.1, §6): admins, the database's
 * distributor and its managers. Customers whose store is in the database only read them.
 * The database is already known to be in the scope.
 */
export function canEditDatabasePeople(scope: Scope): boolean {
  return scope.role !== 'customer';
}

/** The features a role may grant: every extension and module the database does not hide. */
export function availableFeatures(database: DatabaseRow): FeatureKey[] {
  const hidden = new Set([...database.hidden_modules, ...database.hidden_extensions]);
  return featureKeys.filter((key) => !hidden.has(key));
}

const isFeatureKey = (key: string): key is FeatureKey =>
  (featureKeys as readonly string[]).includes(key);

/** Stored grants may hold keys the contract no longer lists (imports): only known keys are sent. */
export function presentRole(row: RoleRow): EmployeeRole {
  const features: Partial<Record<FeatureKey, boolean>> = {};
  for (const [key, value] of Object.entries(row.features_permissions ?? {})) {
    if (isFeatureKey(key) && typeof value === 'boolean') features[key] = value;
  }
  return {
    id: row.id,
    database_id: row.database_id,
    name: row.name,
    active: row.active,
    features_permissions: features,
  };
}

/** Roles of a database by name (employee_roles_database_idx). */
export async function listDatabaseRoles(
  db: Database,
  databaseId: string,
  options: { activeOnly?: boolean } = {},
): Promise<EmployeeRole[]> {
  const rows = await db
    .select()
    .from(employeeRoles)
    .where(
      and(
        eq(employeeRoles.database_id, databaseId),
        options.activeOnly ? eq(employeeRoles.active, true) : undefined,
      ),
    )
    .orderBy(asc(employeeRoles.name), asc(employeeRoles.id));
  return rows.map(presentRole);
}

/** GET /api/databases/:databaseId/employeeRoles: whoever sees the database. */
export async function getRoles(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  return {
    items: await listDatabaseRoles(db, database.id),
    available_features: availableFeatures(database),
    editable: canEditDatabasePeople(scope),
  };
}

/**
 * PUT /api/databases/:databaseId/employeeRoles: writes every role given in one transaction.
 * An id that is not a role of this database → 404; a blank name →
 * 'employee-role/invalid-name'; granting a feature the database hides →
 * 'employee-role/hidden-feature' (a grant the role already holds may be kept, so a database
 * hiding a module later does not block saving its roles). Nothing is written on any error.
 */
export async function saveRoles(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: SaveRolesInput,
) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canEditDatabasePeople(scope)) throw forbidden();

  const givenIds = body.roles.flatMap((role) => (role.id ? [role.id] : []));
  if (new Set(givenIds).size !== givenIds.length) {
    throw new AppError('validation/invalid-input', 'A role is given twice.');
  }
  const existing = givenIds.length
    ? await db
        .select()
        .from(employeeRoles)
        .where(and(eq(employeeRoles.database_id, database.id), inArray(employeeRoles.id, givenIds)))
    : [];
  const byId = new Map(existing.map((row) => [row.id, row]));
  if (givenIds.some((id) => !byId.has(id))) throw notFound();

  const available = new Set<string>(availableFeatures(database));
  for (const role of body.roles) {
    if (role.name.trim() === '') throw new AppError('employee-role/invalid-name');
    const current = role.id ? byId.get(role.id) : undefined;
    for (const [key, isGranted] of Object.entries(role.features_permissions)) {
      if (!isGranted || available.has(key)) continue;
      if (current?.features_permissions?.[key] === true) continue;
      throw new AppError('employee-role/hidden-feature');
    }
  }

  const now = new Date();
  await db.transaction(async (tx) => {
    for (const role of body.roles) {
      const current = role.id ? byId.get(role.id) : undefined;
      if (!current) continue;
      const name = role.name.trim();
      if (
        current.name === name &&
        current.active === role.active &&
        sameGrants(current.features_permissions ?? {}, role.features_permissions)
      ) {
        continue;
      }
      await tx
        .update(employeeRoles)
        .set({
          name,
          active: role.active,
          features_permissions: role.features_permissions,
          updated_at: now,
        })
        .where(and(eq(employeeRoles.id, current.id), eq(employeeRoles.database_id, database.id)));
    }
    const created = body.roles.filter((role) => !role.id);
    if (created.length) {
      await tx.insert(employeeRoles).values(
        created.map((role) => ({
          database_id: database.id,
          name: role.name.trim(),
          active: role.active,
          features_permissions: role.features_permissions,
        })),
      );
    }
  });
  return getRoles(db, scope, database.id);
}

function sameGrants(a: Record<string, boolean>, b: Record<string, boolean | undefined>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if ((a[key] ?? undefined) !== (b[key] ?? undefined)) return false;
  return true;
}
