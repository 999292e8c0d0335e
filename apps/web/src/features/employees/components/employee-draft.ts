import { newEmployeeName, newEmployeeSurname } from '@mise/shared/people/constants';
import type { Employee, EmployeeRole } from '@mise/shared/people/schemas';
import type { SaveEmployeesBody } from '../api/save-employees';

/** An employee as the tab edits it: a saved one (with id and version) or a new one. */
export type EmployeeDraft = {
  /** The id, or a local key for an employee not saved yet. */
  key: string;
  id?: string;
  version?: number;
  name: string;
  surname: string;
  role_id: string | null;
  role_name: string | null;
  active: boolean;
  illustration_url: string | null;
  using_password: boolean;
  has_secret: boolean;
};

export function employeeDraft(employee: Employee): EmployeeDraft {
  return {
    key: employee.id,
    id: employee.id,
    version: employee.version,
    name: employee.name,
    surname: employee.surname,
    role_id: employee.role_id,
    role_name: employee.role_name,
    active: employee.active,
    illustration_url: employee.illustration_url,
    using_password: employee.using_password,
    has_secret: employee.has_secret,
  };
}

/** A new employee (spec 001 §3.11): active, named 'Nouvel ' 'employé', no role, no secret. */
export function newEmployeeDraft(key: string): EmployeeDraft {
  return {
    key,
    name: newEmployeeName,
    surname: newEmployeeSurname,
    role_id: null,
    role_name: null,
    active: true,
    illustration_url: null,
    using_password: true,
    has_secret: false,
  };
}

/**
 * Employees save rule (spec 001 §5, spec 000 §5): when the database has roles, every active
 * employee needs one. Answers the employees missing one.
 */
export function employeesMissingRole(
  employees: readonly EmployeeDraft[],
  roles: readonly Pick<EmployeeRole, 'id'>[],
): EmployeeDraft[] {
  if (roles.length === 0) return [];
  return employees.filter((employee) => employee.active && employee.role_id === null);
}

/** Every employee needs a first name and a surname ('employee/invalid-name'). */
export function hasBlankEmployeeName(employees: readonly EmployeeDraft[]): boolean {
  return employees.some(
    (employee) => employee.name.trim() === '' || employee.surname.trim() === '',
  );
}

/** The body of a save: every employee, saved ones with the version read. */
export function employeesSaveBody(employees: readonly EmployeeDraft[]): SaveEmployeesBody {
  return {
    employees: employees.map((employee) => ({
      ...(employee.id ? { id: employee.id } : {}),
      ...(employee.version !== undefined ? { version: employee.version } : {}),
      name: employee.name,
      surname: employee.surname,
      role_id: employee.role_id,
      active: employee.active,
    })),
  };
}
