import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The demo's tasks (apps/server/src/db/seed/demo.ts, demo-tasks.ts): Lille Centre is the demo
 * store the manager may edit (manager-owned, in the database manon manages); like every demo
 * store it runs on the Paris clock and gets the demo database's daily configurations, today
 * and any day generated later.
 */
export const demoTasks = {
  managerStoreName: 'Bistro Lille Centre',
  timeZone: 'Europe/Paris',
  typeName: 'Hygiène',
  /** Daily database configurations: "Relevé des températures" has two windows a day. */
  dailyTaskNames: ['Relevé des températures', 'Nettoyage de fin de service'],
} as const;

/** The recurrence editor's weekdays (0 = Monday … 6 = Sunday) as the en-US interface names them. */
export const weekdayNames = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A calendar day YYYY-MM-DD plus `count` days. */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}

/** The recurrence editor's weekday index of a calendar day (0 = Monday … 6 = Sunday). */
export function weekdayOf(day: string): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** Today (YYYY-MM-DD) on a zone's calendar, as the server computes the store's day. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((item) => item.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A unique configuration name (a fresh database per run, but it must stand out in the lists). */
export function uniqueTaskName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The configuration row of `name` in a Tasks tab list (its aria-label is the name). */
export function configurationRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="task-configuration-row"][aria-label="${name}"]`);
}

/** The Day sub-tab's rows of the tasks named `name`. */
export function dayTaskRows(page: Page, name: string): Locator {
  return page
    .getByTestId('store-task-row')
    .filter({ has: page.getByTestId('store-task-name').getByText(name, { exact: true }) });
}

/** The status badges a task not completed yet may show today, as the en-US interface words them. */
export const openTaskStatuses = { 'on-time': 'On time', late: 'Late' } as const;

/** The Day sub-tab's date field shows the day as DD/MM/YYYY. */
export function shownDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/**
 * Picks `day` in the Day sub-tab's date field (Mantine DatePickerInput: each day button is
 * labelled "D MMMM YYYY"), moving one month on when the day is not in the month shown.
 */
export async function showDay(page: Page, day: string): Promise<void> {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const field = page.getByTestId('store-tasks-day');
  const [shownDate, shownMonth, shownYear] = ((await field.textContent()) ?? '').split('/');
  const shown = `${shownYear}-${shownMonth}-${shownDate}`;
  await field.click();
  const direction = day < shown ? 'previous' : 'next';
  const move = page.locator(`button[data-direction="${direction}"]`);
  await expect(move).toBeVisible();
  const dayButton = page.getByRole('button', {
    name: `${date} ${monthNames[month - 1]} ${year}`,
    exact: true,
  });
  if ((await dayButton.count()) === 0) await move.click();
  await dayButton.click();
  await expect(field).toHaveText(shownDay(day));
}
