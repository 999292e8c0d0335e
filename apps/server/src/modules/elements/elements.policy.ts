import { forbidden } from '../../platform/errors';
import type { Scope } from '../../platform/scope';

/**
 * Database-level catalogue writes (spec 001 §6): admins, the database's distributor and its
 * managers; customers read only. The database is already known to be in the scope.
 */
export function canWriteDatabase(scope: Scope): boolean {
  return scope.role === 'admin' || scope.role === 'distributor' || scope.role === 'manager';
}

export function assertDatabaseWriter(scope: Scope): void {
  if (!canWriteDatabase(scope)) throw forbidden();
}
