import { describe, expect, it } from 'vitest';
import { buildElement, buildHistoryTask } from '../test/build-history';
import { searchTasks } from './task-search';

describe('history text search', () => {
  const fridges = buildHistoryTask({
    name: 'Relevé des frigos',
    elements: [buildElement({ name: 'Chambre froide' })],
    result: { entries: [{ element: 'x', comment: 'Porte mal fermée' }] },
  });
  const cleaning = buildHistoryTask({
    name: 'Nettoyage',
    module: 'actions',
    employee: { name: 'Hugo', surname: 'Bernard' },
    actions: [{ name: 'Hotte', requires_picture: true }],
    result: { entries: [{ action: 'Sol cuisine', done: true }] },
  });
  const tasks = [fridges, cleaning];
  const names = (search: string) => searchTasks(tasks, search).map((task) => task.name);

  it('finds tasks by name, employee, element, action and comment, without case or accents', () => {
    expect(names('')).toEqual(['Relevé des frigos', 'Nettoyage']);
    expect(names('releve')).toEqual(['Relevé des frigos']);
    expect(names('BERNARD')).toEqual(['Nettoyage']);
    expect(names('chambre')).toEqual(['Relevé des frigos']);
    expect(names('hotte')).toEqual(['Nettoyage']);
    expect(names('sol cuisine')).toEqual(['Nettoyage']);
    expect(names('fermee porte')).toEqual(['Relevé des frigos']);
    expect(names('porte hugo')).toEqual([]);
  });
});
