/** What the employees feature offers other features' screens: the Employees tab of the store screen. */
export { EmployeesTab, type EmployeesTabProps } from './components/employees-tab';
