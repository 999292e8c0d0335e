import type { DeviceContext } from '../api/types';
import type { EmployeeSession } from './employee-session';

/** What the tablet can open, by the module or extension key of spec 000 §3 / 001 §3.10. */
export type FeatureKey =
  | 'temperatures'
  | 'oils'
  | 'traceability'
  | 'labels'
  | 'actions'
  | 'temperature_control'
  | 'encyclopedia'
  | 'history'
  | 'documents'
  | 'settings';

const extensions = new Set(['history', 'documents', 'settings']);

/**
 * May this employee open this feature here? Not when the store or its database hides it;
 * otherwise as the employee's role says (`features_permissions[key]`), a feature the role does
 * not mention being open (an employee without a role opens everything the store shows).
 */
export function canOpen(
  feature: FeatureKey,
  context: DeviceContext | null,
  session: EmployeeSession | null,
): boolean {
  if (context) {
    const hidden: readonly string[] = extensions.has(feature)
      ? context.store.hidden_extensions
      : context.store.hidden_modules;
    if (hidden.includes(feature)) return false;
  }
  const roleId = session?.employee.role_id;
  if (!roleId || !context) return true;
  const role = context.roles.find((candidate) => candidate.id === roleId);
  return role?.features_permissions[feature] !== false;
}
