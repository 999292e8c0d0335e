import { describe, expect, it } from 'vitest';
import {
  isStrongPassword,
  normalizeEmail,
  registrationMessages,
  validateNewAccount,
  validatePasswordChange,
  validateRegistration,
} from './rules';

const filled = {
  name: 'Nina',
  surname: 'Nouvelle',
  email: 'nina@example.test',
  phone: '0600000000',
  password: 'Fresh-bread-2026',
  confirmation: 'Fresh-bread-2026',
  hasAcceptedTerms: true,
};

describe('validateRegistration (spec 000 §5, in order)', () => {
  it('checks legal terms first, even when everything else is wrong', () => {
    const error = validateRegistration({
      ...filled,
      hasAcceptedTerms: false,
      name: '',
      confirmation: 'x',
    });
    expect(error).toBe('terms');
    expect(registrationMessages[error!]).toBe('Please accept legal terms');
  });
  it('then the password confirmation, before empty fields', () => {
    const error = validateRegistration({ ...filled, name: '', confirmation: 'other' });
    expect(registrationMessages[error!]).toBe('Passwords do not match');
  });
  it('then every field filled (blank counts as empty)', () => {
    for (const field of ['name', 'surname', 'email', 'phone'] as const) {
      const error = validateRegistration({ ...filled, [field]: '   ' });
      expect(registrationMessages[error!]).toBe('Please fill all fields.');
    }
    expect(validateRegistration({ ...filled, password: '', confirmation: '' })).toBe('empty');
  });
  it('accepts a complete form', () => {
    expect(validateRegistration(filled)).toBeNull();
  });
});

describe('validateNewAccount (spec 000 §5, in order)', () => {
  const base = {
    role: null,
    distributorId: null,
    databaseId: null,
    storeId: null,
    password: 'a',
    confirmation: 'b',
  };
  it('role first', () => {
    expect(validateNewAccount(base)).toBe('account/select-role');
  });
  it('then the picker the role needs', () => {
    expect(validateNewAccount({ ...base, role: 'distributor' })).toBe('account/select-distributor');
    expect(validateNewAccount({ ...base, role: 'customer' })).toBe('account/select-store');
    expect(validateNewAccount({ ...base, role: 'manager' })).toBe('account/select-database');
  });
  it('then the password confirmation', () => {
    expect(validateNewAccount({ ...base, role: 'manager', databaseId: 'd' })).toBe(
      'account/password-mismatch',
    );
  });
  it('a customer needs no database and a manager no store', () => {
    expect(
      validateNewAccount({ ...base, role: 'customer', storeId: 's', confirmation: 'a' }),
    ).toBeNull();
    expect(
      validateNewAccount({ ...base, role: 'manager', databaseId: 'd', confirmation: 'a' }),
    ).toBeNull();
  });
});

describe('validatePasswordChange', () => {
  it('needs both values non-empty after trimming, then equal', () => {
    expect(validatePasswordChange(' ', 'Fresh-bread-2026')).toBe('auth/password-required');
    expect(validatePasswordChange('Fresh-bread-2026', '')).toBe('auth/password-required');
    expect(validatePasswordChange('Fresh-bread-2026', 'Fresh-bread-2027')).toBe(
      'auth/passwords-do-not-match',
    );
    expect(validatePasswordChange('Fresh-bread-2026', 'Fresh-bread-2026')).toBeNull();
  });
});

describe('isStrongPassword', () => {
  it.each([
    ['demo1234', true],
    ['Str0ng-enough', true],
    ['a long passphrase only letters', true],
    ['short1', false],
    ['password', false],
    ['Password1', false],
    ['azerty123', false],
    ['abcdefgh', false],
    ['12345678', false],
    ['aaaaaaaaaaaaaa', false],
  ])('%s -> %s', (password, expected) => {
    expect(isStrongPassword(password)).toBe(expected);
  });
});

describe('normalizeEmail', () => {
  it('trims and lowercases', () => {
    expect(normalizeEmail('  Chef@Example.COM ')).toBe('chef@example.com');
  });
});
