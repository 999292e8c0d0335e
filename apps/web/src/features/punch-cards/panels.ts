/** What other features may use of punch cards: the home page's schedule panel. */
export { EmployeeSchedulePanel } from './components/employee-schedule-panel';
