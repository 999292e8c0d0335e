import type { DeviceContext } from '../../shared/api/types';
import type { EmployeeSession } from '../../shared/session/employee-session';

/**
 * The Audits entry shows unless the store or its database hides the auditing extension (the
 * context merges both). Before the context is known, it shows: the server decides then.
 */
export function isAuditingShown(context: DeviceContext | null): boolean {
  return !(context?.store.hidden_extensions.includes('auditing') ?? false);
}

/**
 * Whether the identified employee may perform audits: their role must grant auditing
 * explicitly (an employee without a role, or whose role is not among the active ones, may
 * not), as the server checks it. Unknown context: left to the server's answer.
 */
export function mayAudit(context: DeviceContext | null, session: EmployeeSession | null): boolean {
  if (!session) return false;
  if (!context) return true;
  const roleId = session.employee.role_id;
  const role = roleId ? context.roles.find((candidate) => candidate.id === roleId) : undefined;
  return role?.features_permissions.auditing === true;
}
