import type { HistoryTask } from '@mise/shared/history/schemas';

/** Lower case without accents: "Crème" finds "creme". */
export function normalizeSearchText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** The words a task can be found by: its name, employee, elements, actions and comments. */
export function taskSearchText(
  task: Pick<HistoryTask, 'name' | 'employee' | 'elements' | 'actions' | 'result'>,
): string {
  const words: string[] = [task.name];
  if (task.employee) words.push(task.employee.name, task.employee.surname);
  for (const element of task.elements) words.push(element.name);
  for (const action of task.actions) words.push(action.name);
  const entries = (task.result as { entries?: unknown } | null)?.entries;
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      if (!entry || typeof entry !== 'object') continue;
      const { comment, action } = entry as { comment?: unknown; action?: unknown };
      if (typeof comment === 'string') words.push(comment);
      if (typeof action === 'string') words.push(action);
    }
  }
  return normalizeSearchText(words.join(' '));
}

/** The tasks whose text holds every word of the search (client-side, inside the active tab). */
export function searchTasks<T extends Parameters<typeof taskSearchText>[0]>(
  tasks: readonly T[],
  search: string,
): T[] {
  const terms = normalizeSearchText(search).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...tasks];
  return tasks.filter((task) => {
    const text = taskSearchText(task);
    return terms.every((term) => text.includes(term));
  });
}
