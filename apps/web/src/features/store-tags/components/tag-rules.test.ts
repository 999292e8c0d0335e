import { describe, expect, it } from 'vitest';
import {
  addStoresToTag,
  hasBlankTagName,
  hasDuplicateTagName,
  removeStoresFromTag,
} from './tag-rules';

describe('tag rules', () => {
  it('finds two active tags with the same name, ignoring case and surrounding spaces', () => {
    expect(
      hasDuplicateTagName([
        { name: 'Paris', active: true },
        { name: ' paris ', active: true },
      ]),
    ).toBe(true);
    expect(
      hasDuplicateTagName([
        { name: 'Paris', active: true },
        { name: 'Lyon', active: true },
      ]),
    ).toBe(false);
  });

  it('ignores removed (inactive) tags when checking names', () => {
    expect(
      hasDuplicateTagName([
        { name: 'Paris', active: false },
        { name: 'Paris', active: true },
      ]),
    ).toBe(false);
    expect(hasBlankTagName([{ name: '  ', active: false }])).toBe(false);
    expect(hasBlankTagName([{ name: '  ', active: true }])).toBe(true);
  });

  it('ignores a store already in the tag and keeps the order', () => {
    expect(addStoresToTag(['a', 'b'], ['b', 'c', 'c'])).toEqual(['a', 'b', 'c']);
    expect(removeStoresFromTag(['a', 'b', 'c'], ['b'])).toEqual(['a', 'c']);
  });
});
