import { describe, expect, it } from 'vitest';
import { compactLocksAndStates, defaultFieldState, expandLocksAndStates } from './bulk';
import type { FieldState } from './rules';

const keys = ['name', 'minimum_temperature', 'labels'] as const;
type Key = (typeof keys)[number];

describe('sparse locks and field states of a bulk row', () => {
  it('a database row locked everywhere sends nothing', () => {
    const sparse = compactLocksAndStates(
      keys,
      { name: true, minimum_temperature: true, labels: true },
      { name: 'own', minimum_temperature: 'own', labels: 'own' },
      false,
    );
    expect(sparse).toEqual({ unlocked: [], states: {} });
  });

  it('a store row following its origin sends only its overridden fields', () => {
    const locks: Record<Key, boolean> = { name: true, minimum_temperature: false, labels: false };
    const states: Record<Key, FieldState> = {
      name: 'locked',
      minimum_temperature: 'overridden',
      labels: 'inherited',
    };
    const sparse = compactLocksAndStates(keys, locks, states, true);
    expect(sparse).toEqual({
      unlocked: ['minimum_temperature', 'labels'],
      states: { minimum_temperature: 'overridden' },
    });
    expect(expandLocksAndStates(keys, { ...sparse, origin_id: 'origin-1' })).toEqual({
      locks,
      states,
    });
  });

  it('a store row of its own is unlocked and its own everywhere', () => {
    const locks: Record<Key, boolean> = { name: false, minimum_temperature: false, labels: false };
    const states: Record<Key, FieldState> = {
      name: 'own',
      minimum_temperature: 'own',
      labels: 'own',
    };
    const sparse = compactLocksAndStates(keys, locks, states, false);
    expect(sparse.states).toEqual({});
    expect(expandLocksAndStates(keys, { ...sparse, origin_id: null })).toEqual({ locks, states });
  });

  it('a state that is not the default travels even where a default exists', () => {
    // A locked field of a row with an origin is 'locked' by default; anything else is sent.
    expect(defaultFieldState(true, true)).toBe('locked');
    expect(defaultFieldState(true, false)).toBe('inherited');
    expect(defaultFieldState(false, true)).toBe('own');
    const sparse = compactLocksAndStates(
      keys,
      { name: true, minimum_temperature: true, labels: true },
      { name: 'own', minimum_temperature: 'locked', labels: 'locked' },
      true,
    );
    expect(sparse.states).toEqual({ name: 'own' });
    expect(expandLocksAndStates(keys, { ...sparse, origin_id: 'origin-1' }).states.name).toBe(
      'own',
    );
  });
});
