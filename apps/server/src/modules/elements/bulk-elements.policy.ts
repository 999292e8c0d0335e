import { forbidden } from '../../platform/errors';
import type { Scope } from '../../platform/scope';

/**
 * Expert mode — the bulk grids and their export — is not a customer's (spec 001 §2.1, §6: the
 * button is hidden from customers; docs/decisions.md "Customers and expert mode"). A customer
 * reads a grid, not editable, but its bulk saves and copy calls answer 403 permission/denied,
 * whatever the single screens let it change. Other roles follow the single screens' rules.
 */
export function canUseExpertMode(scope: Scope): boolean {
  return scope.role !== 'customer';
}

export function assertExpertModeUser(scope: Scope): void {
  if (!canUseExpertMode(scope)) throw forbidden();
}
