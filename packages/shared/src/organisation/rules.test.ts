import { describe, expect, it } from 'vitest';
import { configurationModuleInputSchema } from '../tasks/schemas';
import {
  billingCycleLabel,
  effectiveLicencePrice,
  isSameStore,
  isValidTimezone,
  timezoneOffsetHours,
} from './rules';
import { updateDatabaseBodySchema, updateStoreBodySchema } from './schemas';

describe('effectiveLicencePrice: store, else database, else distributor, else 19', () => {
  it.each([
    [{}, 19],
    [{ distributor: '22.50' }, 22.5],
    [{ distributor: 22, database: 15 }, 15],
    [{ distributor: 22, database: 15, store: 9.9 }, 9.9],
    [{ distributor: null, database: null, store: null }, 19],
    [{ store: 0 }, 0],
    [{ store: '', database: 12 }, 12],
  ])('%o -> %s', (levels, expected) => {
    expect(effectiveLicencePrice(levels)).toBe(expected);
  });
});

describe('timezoneOffsetHours', () => {
  it('converts a zone to its hour offset at a date', () => {
    expect(timezoneOffsetHours('Europe/Paris', new Date('2026-01-15T12:00:00Z'))).toBe(1);
    expect(timezoneOffsetHours('Europe/Paris', new Date('2026-07-15T12:00:00Z'))).toBe(2);
    expect(timezoneOffsetHours('Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe(0);
    expect(timezoneOffsetHours('Asia/Kolkata', new Date('2026-01-15T12:00:00Z'))).toBe(5.5);
    expect(timezoneOffsetHours('America/New_York', new Date('2026-01-15T12:00:00Z'))).toBe(-5);
  });
  it('knows valid zones', () => {
    expect(isValidTimezone('Europe/Warsaw')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
  });
});

describe('billingCycleLabel', () => {
  it('shows months below 12, else years', () => {
    expect(billingCycleLabel(1)).toEqual({ value: 1, unit: 'months' });
    expect(billingCycleLabel(60)).toEqual({ value: 5, unit: 'years' });
  });
});

describe('isSameStore (form.store.invalid.exists)', () => {
  const store = {
    name: 'Bistro Opéra',
    address: '5 place de l’Opéra',
    postal_code: '75009',
    city: 'Paris',
    country: 'FR',
  };
  it('matches the same name, whatever the case and spacing', () => {
    expect(isSameStore(store, { ...store, name: ' bistro  OPÉRA ', address: 'elsewhere' })).toBe(
      true,
    );
  });
  it('matches the same address, postal code, city and country', () => {
    expect(isSameStore(store, { ...store, name: 'Other' })).toBe(true);
    expect(isSameStore(store, { ...store, name: 'Other', country: 'BE' })).toBe(false);
    expect(isSameStore(store, { ...store, name: 'Other', postal_code: '75008' })).toBe(false);
  });
});

describe('module keys as sent (spec 000 §3)', () => {
  it('reads the legacy cleaning module as actions, once, and refuses unknown keys', () => {
    const store = updateStoreBodySchema.parse({ version: 1, hidden_modules: ['cleaning', 'oils'] });
    expect(store.hidden_modules).toEqual(['actions', 'oils']);
    const database = updateDatabaseBodySchema.parse({
      version: 1,
      hidden_modules: ['actions', 'cleaning'],
    });
    expect(database.hidden_modules).toEqual(['actions']);
    expect(
      updateStoreBodySchema.safeParse({ version: 1, hidden_modules: ['laundry'] }).success,
    ).toBe(false);
    expect(configurationModuleInputSchema.parse('cleaning')).toBe('actions');
    expect(configurationModuleInputSchema.parse('oils')).toBe('oils');
    expect(configurationModuleInputSchema.safeParse('laundry').success).toBe(false);
  });
});
