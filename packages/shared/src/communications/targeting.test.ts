import { describe, expect, it } from 'vitest';
import {
  employeeTargeted,
  emptyTarget,
  roleTargeted,
  storeTargeted,
  targetKind,
  withTargetKind,
} from './targeting';

const lyon = { id: 'lyon', tag_ids: ['south', 'city'] };
const nice = { id: 'nice', tag_ids: ['south', 'sea'] };
const lille = { id: 'lille', tag_ids: ['north', 'city'] };

describe('targeting (spec 002 §3 Target, §4)', () => {
  it('aims at everyone when no store and no group is picked', () => {
    expect(targetKind(emptyTarget)).toBe('everyone');
    for (const store of [lyon, nice, lille]) expect(storeTargeted(emptyTarget, store)).toBe(true);
  });

  it('aims at the picked stores', () => {
    const target = { ...emptyTarget, stores: ['lyon'] };
    expect(targetKind(target)).toBe('stores');
    expect([lyon, nice, lille].filter((store) => storeTargeted(target, store))).toEqual([lyon]);
  });

  it('aims at stores with any of the groups (union, the default) or all of them (intersection)', () => {
    const union = { ...emptyTarget, store_tags: ['south', 'city'] };
    expect(targetKind(union)).toBe('groups');
    expect([lyon, nice, lille].filter((store) => storeTargeted(union, store))).toEqual([
      lyon,
      nice,
      lille,
    ]);
    const intersection = { ...union, store_tags_union: false };
    expect([lyon, nice, lille].filter((store) => storeTargeted(intersection, store))).toEqual([
      lyon,
    ]);
  });

  it('joins stores and groups by the same flag when an API caller sets both', () => {
    const both = { ...emptyTarget, stores: ['lille', 'nice'], store_tags: ['south'] };
    expect([lyon, nice, lille].filter((store) => storeTargeted(both, store))).toEqual([
      lyon,
      nice,
      lille,
    ]);
    const narrow = { ...both, store_tags_union: false };
    expect([lyon, nice, lille].filter((store) => storeTargeted(narrow, store))).toEqual([nice]);
  });

  it('aims at every role when none is picked, else at the picked roles only', () => {
    expect(roleTargeted(emptyTarget, null)).toBe(true);
    const cooks = { ...emptyTarget, employee_roles: ['cook'] };
    expect(roleTargeted(cooks, 'cook')).toBe(true);
    expect(roleTargeted(cooks, 'waiter')).toBe(false);
    expect(roleTargeted(cooks, null)).toBe(false);
    const southCooks = { ...cooks, store_tags: ['south'] };
    expect(employeeTargeted(southCooks, nice, 'cook')).toBe(true);
    expect(employeeTargeted(southCooks, lille, 'cook')).toBe(false);
    expect(employeeTargeted(southCooks, nice, 'waiter')).toBe(false);
  });

  it('clears the other list when stores or groups are picked (spec 002 §4)', () => {
    const start = { ...emptyTarget, stores: ['lyon'], employee_roles: ['cook'] };
    const groups = withTargetKind(start, 'groups', ['south']);
    expect(groups).toEqual({ ...emptyTarget, store_tags: ['south'], employee_roles: ['cook'] });
    expect(withTargetKind(groups, 'stores', ['nice'])).toEqual({
      ...emptyTarget,
      stores: ['nice'],
      employee_roles: ['cook'],
    });
    expect(withTargetKind(groups, 'everyone')).toEqual({
      ...emptyTarget,
      employee_roles: ['cook'],
    });
  });
});
