/** What the employee-roles feature offers other features' screens: the Roles tab of the database screen. */
export {
  EmployeeRolesEditor,
  type EmployeeRolesEditorProps,
} from './components/employee-roles-editor';
