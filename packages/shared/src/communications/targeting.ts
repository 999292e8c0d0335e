/*
 * Who a communication or a training is for (spec 002 §3 Target, §4 targeting; issue 18): one
 * pure function, used by the server to decide which stores and employees receive what, by the
 * statistics to count who should have seen it, and by the editors to show the target.
 */

/** Spec 002 §3: stores, store_tags, employee_roles (references), store_tags_union (default true). */
export type Target = {
  stores: readonly string[];
  store_tags: readonly string[];
  employee_roles: readonly string[];
  store_tags_union: boolean;
};

/** Spec 002 §3: target types everyone, stores, groups (and roles, a separate list). */
export type TargetKind = 'everyone' | 'stores' | 'groups';

export const emptyTarget: Target = {
  stores: [],
  store_tags: [],
  employee_roles: [],
  store_tags_union: true,
};

/** Spec 002 §4: everyone when both lists are empty; stores when stores are picked; else groups. */
export function targetKind(target: Pick<Target, 'stores' | 'store_tags'>): TargetKind {
  if (target.stores.length > 0) return 'stores';
  if (target.store_tags.length > 0) return 'groups';
  return 'everyone';
}

/**
 * Spec 002 §4: picking stores clears the groups and picking groups clears the stores
 * (everyone clears both). The roles and the union flag are kept.
 */
export function withTargetKind<T extends Target>(
  target: T,
  kind: TargetKind,
  picked: readonly string[] = [],
): T {
  if (kind === 'stores') return { ...target, stores: [...picked], store_tags: [] };
  if (kind === 'groups') return { ...target, stores: [], store_tags: [...picked] };
  return { ...target, stores: [], store_tags: [] };
}

/**
 * Whether a store matches the target's tags: any of them when store_tags_union (the default),
 * all of them otherwise.
 */
function matchesTags(target: Target, storeTags: readonly string[]): boolean {
  const tags = new Set(storeTags);
  return target.store_tags_union
    ? target.store_tags.some((tag) => tags.has(tag))
    : target.store_tags.every((tag) => tags.has(tag));
}

/**
 * Whether a store is aimed at. An empty list sets no condition. When both lists are set (the
 * editors never do, an API caller may), store_tags_union also joins them: the stores picked
 * or the tagged ones (union), the picked stores that are also tagged (intersection).
 */
export function storeTargeted(
  target: Target,
  store: { id: string; tag_ids: readonly string[] },
): boolean {
  const hasStores = target.stores.length > 0;
  const hasTags = target.store_tags.length > 0;
  if (!hasStores && !hasTags) return true;
  const inStores = hasStores && target.stores.includes(store.id);
  if (!hasTags) return inStores;
  const tagged = matchesTags(target, store.tag_ids);
  if (!hasStores) return tagged;
  return target.store_tags_union ? inStores || tagged : inStores && tagged;
}

/** Whether an employee's role is aimed at: any role when the list is empty. */
export function roleTargeted(target: Pick<Target, 'employee_roles'>, roleId: string | null) {
  if (target.employee_roles.length === 0) return true;
  return roleId !== null && target.employee_roles.includes(roleId);
}

/** Whether an employee working in a store receives it: the store and the role both aimed at. */
export function employeeTargeted(
  target: Target,
  store: { id: string; tag_ids: readonly string[] },
  roleId: string | null,
): boolean {
  return storeTargeted(target, store) && roleTargeted(target, roleId);
}
