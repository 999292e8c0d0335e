/** Pure rules of the tags editor (spec 001 §4, §5). */

type NamedTag = { name: string; active: boolean };

/** The name a uniqueness check compares: trimmed, case ignored. */
function comparableName(name: string): string {
  return name.trim().toLocaleLowerCase();
}

/** Whether two active tags share a name, ignoring case ('Deux tags ne peuvent pas avoir le même nom'). */
export function hasDuplicateTagName(tags: readonly NamedTag[]): boolean {
  const seen = new Set<string>();
  for (const tag of tags) {
    if (!tag.active) continue;
    const name = comparableName(tag.name);
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

/** Whether an active tag has a blank name. */
export function hasBlankTagName(tags: readonly NamedTag[]): boolean {
  return tags.some((tag) => tag.active && tag.name.trim() === '');
}

/**
 * The stores of a tag after adding some: a store already in the tag is ignored (spec 001 §4),
 * the order of the tag's stores is kept and the new ones follow.
 */
export function addStoresToTag(storeIds: readonly string[], added: readonly string[]): string[] {
  const next = [...storeIds];
  for (const id of added) if (!next.includes(id)) next.push(id);
  return next;
}

/** The stores of a tag after removing some. */
export function removeStoresFromTag(
  storeIds: readonly string[],
  removed: readonly string[],
): string[] {
  return storeIds.filter((id) => !removed.includes(id));
}
