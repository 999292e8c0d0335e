import { describe, expect, it } from 'vitest';
import {
  applyLockToChecked,
  applyToChecked,
  type BulkRow,
  buildBulkWrites,
  bulkTaskFilters,
  changedFields,
  dirtyRows,
  duplicateRow,
  exportObjectIds,
  isInTaskFilter,
  isSameValue,
  revertColumn,
  setRowValue,
  taskFilterModule,
  validateExport,
} from './bulk-rules';
import type { FieldState } from './rules';

type Values = {
  name: string;
  active: boolean;
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  allergens: string[];
};

function buildRow(
  key: string,
  values: Partial<Values> = {},
  options: {
    version?: number | null;
    id?: string | null;
    origin_id?: string | null;
    locks?: Record<string, boolean>;
    states?: Record<string, FieldState>;
  } = {},
): BulkRow<Values> {
  return {
    key,
    id: options.id === undefined ? key : options.id,
    origin_id: options.origin_id ?? null,
    version: options.version === undefined ? 3 : options.version,
    values: {
      name: 'Chambre froide',
      active: true,
      minimum_temperature: 0,
      maximum_temperature: 4,
      allergens: [],
      ...values,
    },
    locks: {
      name: true,
      active: true,
      minimum_temperature: true,
      maximum_temperature: true,
      allergens: true,
      ...options.locks,
    },
    states: {
      name: 'own',
      active: 'own',
      minimum_temperature: 'own',
      maximum_temperature: 'own',
      allergens: 'own',
      ...options.states,
    },
  };
}

const savedOf = (rows: BulkRow<Values>[]) => new Map(rows.map((row) => [row.key, row]));

describe('isSameValue', () => {
  it('compares numbers, lists and objects by content, telling 0 from null', () => {
    expect(isSameValue(-18, -18)).toBe(true);
    expect(isSameValue(0, null)).toBe(false);
    expect(isSameValue(['egg', 'fish'], ['egg', 'fish'])).toBe(true);
    expect(isSameValue(['egg', 'fish'], ['fish', 'egg'])).toBe(false);
    expect(isSameValue([{ start: 480, end: 540 }], [{ start: 480, end: 540 }])).toBe(true);
    expect(isSameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(isSameValue({ a: 1 }, { a: 2 })).toBe(false);
  });
});

describe('the dirty-row diff', () => {
  const saved = [buildRow('a'), buildRow('b'), buildRow('c')];

  it('lists a row’s changed fields versus its last saved copy', () => {
    const edited = { ...saved[0]!, values: { ...saved[0]!.values, maximum_temperature: -2 } };
    expect(changedFields(edited, saved[0])).toEqual(['maximum_temperature']);
    // Edited back to the saved value: not changed any more.
    const back = { ...edited, values: { ...edited.values, maximum_temperature: 4 } };
    expect(changedFields(back, saved[0])).toEqual([]);
  });

  it('only new or changed rows are written, each with its changed fields and version', () => {
    const rows = [
      { ...saved[0]!, values: { ...saved[0]!.values, maximum_temperature: -2 } },
      saved[1]!,
      {
        ...saved[2]!,
        values: { ...saved[2]!.values, name: 'Saumon', allergens: ['fish'] },
        version: 7,
      },
      buildRow('new-1', { name: 'Nouveau' }, { id: null, version: null }),
    ];
    expect(dirtyRows(rows, savedOf(saved), 'database').map((row) => row.key)).toEqual([
      'a',
      'c',
      'new-1',
    ]);
    const writes = buildBulkWrites(rows, savedOf(saved), 'database');
    expect(writes).toEqual([
      { key: 'a', id: 'a', version: 3, values: { maximum_temperature: -2 } },
      { key: 'c', id: 'c', version: 7, values: { name: 'Saumon', allergens: ['fish'] } },
      {
        key: 'new-1',
        id: null,
        values: {
          name: 'Nouveau',
          active: true,
          minimum_temperature: 0,
          maximum_temperature: 4,
          allergens: [],
        },
        locks: {
          name: true,
          active: true,
          minimum_temperature: true,
          maximum_temperature: true,
          allergens: true,
        },
      },
    ]);
  });

  it('a lock change makes a database row dirty and is sent alone', () => {
    const rows = [{ ...saved[0]!, locks: { ...saved[0]!.locks, maximum_temperature: false } }];
    expect(buildBulkWrites(rows, savedOf(saved), 'database')).toEqual([
      { key: 'a', id: 'a', version: 3, values: {}, locks: { maximum_temperature: false } },
    ]);
  });

  it('nothing is written when nothing changed', () => {
    expect(buildBulkWrites(saved, savedOf(saved), 'database')).toEqual([]);
  });

  it('at store level a row not yet overridden goes with its origin, never with locks', () => {
    const inherited = buildRow(
      'origin:d1',
      {},
      {
        id: null,
        origin_id: 'd1',
        version: null,
        states: { maximum_temperature: 'inherited', minimum_temperature: 'locked' },
      },
    );
    const edited = setRowValue(inherited, 'maximum_temperature', 6, 'store');
    expect(edited.states.maximum_temperature).toBe('overridden');
    const writes = buildBulkWrites([edited], savedOf([inherited]), 'store');
    expect(writes).toEqual([
      { key: 'origin:d1', id: null, origin_id: 'd1', values: { maximum_temperature: 6 } },
    ]);
  });

  it('at store level a field the origin locks is never sent', () => {
    const row = buildRow('s1', {}, { origin_id: 'd1', states: { minimum_temperature: 'locked' } });
    const edited = { ...row, values: { ...row.values, minimum_temperature: -5, active: false } };
    expect(buildBulkWrites([edited], savedOf([row]), 'store')).toEqual([
      { key: 's1', id: 's1', origin_id: 'd1', version: 3, values: { active: false } },
    ]);
  });
});

describe('revertColumn', () => {
  const saved = [buildRow('a'), buildRow('b'), buildRow('c')];
  const edited = saved.map((row) => ({
    ...row,
    values: { ...row.values, maximum_temperature: 10 },
    locks: { ...row.locks, maximum_temperature: false },
  }));

  it('restores the column from the last saved copy for every row', () => {
    const reverted = revertColumn(edited, savedOf(saved), 'maximum_temperature');
    expect(reverted.map((row) => row.values.maximum_temperature)).toEqual([4, 4, 4]);
    expect(reverted.map((row) => row.locks.maximum_temperature)).toEqual([true, true, true]);
    expect(dirtyRows(reverted, savedOf(saved), 'database')).toEqual([]);
  });

  it('restores only the checked rows when some are checked, and leaves other columns', () => {
    const withName = edited.map((row) => ({ ...row, values: { ...row.values, name: 'X' } }));
    const reverted = revertColumn(withName, savedOf(saved), 'maximum_temperature', new Set(['b']));
    expect(reverted.map((row) => row.values.maximum_temperature)).toEqual([10, 4, 10]);
    expect(reverted.map((row) => row.values.name)).toEqual(['X', 'X', 'X']);
  });

  it('keeps new rows (no saved copy) and the identity of untouched rows', () => {
    const fresh = buildRow('new-1', { maximum_temperature: 12 }, { id: null, version: null });
    const rows = [saved[0]!, fresh];
    const reverted = revertColumn(rows, savedOf(saved), 'maximum_temperature');
    expect(reverted[0]).toBe(saved[0]);
    expect(reverted[1]).toBe(fresh);
  });
});

describe('applyToChecked', () => {
  it('sets the value of every checked row, negative temperatures included', () => {
    const rows = [buildRow('a'), buildRow('b'), buildRow('c')];
    const result = applyToChecked(
      rows,
      new Set(['a', 'c']),
      'minimum_temperature',
      -18,
      'database',
    );
    expect(result.rows.map((row) => row.values.minimum_temperature)).toEqual([-18, 0, -18]);
    expect(result.applied).toEqual(['a', 'c']);
    expect(result.skipped).toEqual([]);
    expect(result.rows[1]).toBe(rows[1]);
  });

  it('at store level skips the rows whose origin locks the field', () => {
    const rows = [
      buildRow('a', {}, { origin_id: 'd1', states: { maximum_temperature: 'locked' } }),
      buildRow('b', {}, { origin_id: 'd2', states: { maximum_temperature: 'inherited' } }),
      buildRow('c'),
    ];
    const result = applyToChecked(
      rows,
      new Set(['a', 'b', 'c']),
      'maximum_temperature',
      2,
      'store',
    );
    expect(result.rows.map((row) => row.values.maximum_temperature)).toEqual([4, 2, 2]);
    expect(result.skipped).toEqual(['a']);
    expect(result.rows[1]?.states.maximum_temperature).toBe('overridden');
  });

  it('at database level the origin lock does not apply (the row is its own origin)', () => {
    const rows = [buildRow('a', {}, { states: { maximum_temperature: 'locked' } })];
    const result = applyToChecked(rows, new Set(['a']), 'maximum_temperature', 2, 'database');
    expect(result.skipped).toEqual([]);
    expect(result.rows[0]?.values.maximum_temperature).toBe(2);
  });

  it('a lock applied to the checked rows', () => {
    const rows = [buildRow('a'), buildRow('b')];
    const next = applyLockToChecked(rows, new Set(['b']), 'active', false);
    expect(next.map((row) => row.locks.active)).toEqual([true, false]);
  });
});

describe('duplicateRow', () => {
  it('makes a new local row named with the suffix (Copy), keeping values and locks', () => {
    const row = buildRow('a', { name: 'Saumon', allergens: ['fish'] }, { locks: { name: false } });
    const copy = duplicateRow(row, 'new-2', 'database');
    expect(copy).toMatchObject({ key: 'new-2', id: null, origin_id: null, version: null });
    expect(copy.values).toEqual({ ...row.values, name: 'Saumon (Copy)' });
    expect(copy.locks.name).toBe(false);
    // A new row: written whole on Save.
    expect(dirtyRows([row, copy], savedOf([row]), 'database')).toEqual([copy]);
  });

  it('at store level the copy is the store’s own row, without origin or locks', () => {
    const row = buildRow(
      'origin:d1',
      {},
      { id: null, origin_id: 'd1', states: { name: 'locked', active: 'inherited' } },
    );
    const copy = duplicateRow(row, 'new-3', 'store');
    expect(copy.origin_id).toBeNull();
    expect(Object.values(copy.states).every((state) => state === 'own')).toBe(true);
    expect(Object.values(copy.locks).every((lock) => lock === false)).toBe(true);
  });
});

describe('validateExport (spec 001 §5)', () => {
  const base = { kind: 'elements' as const, level: 'database' as const, currentId: 'db-1' };

  it('asks for a target first', () => {
    expect(validateExport({ ...base, targetId: null, checkedCount: 0 })).toBe(
      'bulk.export.noTargetDatabase',
    );
    expect(validateExport({ ...base, level: 'store', targetId: null, checkedCount: 3 })).toBe(
      'bulk.export.noTargetStore',
    );
  });

  it('refuses the database or store being edited', () => {
    expect(validateExport({ ...base, targetId: 'db-1', checkedCount: 3 })).toBe(
      'bulk.export.sameDatabase',
    );
    expect(
      validateExport({
        ...base,
        level: 'store',
        currentId: 's-1',
        targetId: 's-1',
        checkedCount: 3,
      }),
    ).toBe('bulk.export.sameStore');
  });

  it('needs a checked row', () => {
    expect(validateExport({ ...base, targetId: 'db-2', checkedCount: 0 })).toBe(
      'bulk.export.noElementChecked',
    );
    expect(validateExport({ ...base, kind: 'tasks', targetId: 'db-2', checkedCount: 0 })).toBe(
      'bulk.export.noTaskChecked',
    );
    expect(validateExport({ ...base, targetId: 'db-2', checkedCount: 1 })).toBeNull();
  });

  it('exports the checked rows by id, a store’s inherited row by its origin', () => {
    const rows = [
      buildRow('a'),
      buildRow('origin:d1', {}, { id: null, origin_id: 'd1' }),
      buildRow('new-1', {}, { id: null, version: null }),
      buildRow('b'),
    ];
    expect(exportObjectIds(rows, new Set(['a', 'origin:d1', 'new-1']))).toEqual(['a', 'd1']);
  });
});

describe('bulk task filters (spec 001 §9)', () => {
  it('General 0, Actions 1, Temperatures 2, Oils 3', () => {
    expect(bulkTaskFilters).toEqual({ general: 0, actions: 1, temperatures: 2, oils: 3 });
  });

  it('General shows every module; the others their own', () => {
    expect(taskFilterModule(bulkTaskFilters.general)).toBeNull();
    expect(isInTaskFilter('oils', bulkTaskFilters.general)).toBe(true);
    expect(isInTaskFilter('actions', bulkTaskFilters.actions)).toBe(true);
    expect(isInTaskFilter('temperatures', bulkTaskFilters.actions)).toBe(false);
    expect(isInTaskFilter('temperatures', bulkTaskFilters.temperatures)).toBe(true);
    expect(isInTaskFilter('oils', bulkTaskFilters.oils)).toBe(true);
  });
});
