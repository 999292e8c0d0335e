import { describe, expect, it } from 'vitest';
import {
  accountRoleLabel,
  canCreateAccounts,
  canCreateLoginToken,
  isNavigationVisible,
  landingPath,
  navigationFor,
  routePaths,
} from './rules';

const keys = (role: Parameters<typeof navigationFor>[0]) =>
  navigationFor(role).map((entry) => entry.key);

describe('navigation entries per role (spec 000 §2 table)', () => {
  it('admin', () => {
    expect(keys('admin')).toEqual([
      'home',
      'distributors',
      'databases',
      'communications',
      'documents',
      'history',
      'auditing',
      'stores',
      'trainings',
      'probes',
      'accounts',
      'billing',
      'technical',
    ]);
  });
  it('distributor', () => {
    expect(keys('distributor')).toEqual([
      'home',
      'distributors',
      'databases',
      'shop',
      'documents',
      'history',
      'auditing',
      'stores',
      'trainings',
      'accounts',
    ]);
  });
  it('manager', () => {
    expect(keys('manager')).toEqual([
      'home',
      'databases',
      'communications',
      'documents',
      'history',
      'auditing',
      'stores',
      'trainings',
    ]);
  });
  it('customer', () => {
    expect(keys('customer')).toEqual([
      'home',
      'communications',
      'documents',
      'history',
      'stores',
      'trainings',
    ]);
  });
  it('every entry leads to a route of the table', () => {
    for (const role of ['admin', 'distributor', 'manager', 'customer'] as const) {
      for (const entry of navigationFor(role)) expect(routePaths).toContain(entry.path);
    }
  });
});

describe('isNavigationVisible', () => {
  it('is hidden in tablet mode and on /login, / and /changePassword', () => {
    expect(isNavigationVisible('/home', 'task')).toBe(false);
    for (const path of ['/login', '/', '/changePassword'])
      expect(isNavigationVisible(path, null)).toBe(false);
    expect(isNavigationVisible('/accounts', null)).toBe(true);
  });
});

describe('landingPath (spec 000 §2: initial page, else changePassword, else home)', () => {
  it('prefers the initial page', () => {
    expect(landingPath('punchCards', true)).toBe('/punchCards');
    expect(landingPath('/history', false)).toBe('/history');
  });
  it('then the forced password change', () => {
    expect(landingPath(null, true)).toBe('/changePassword');
  });
  it('else home', () => {
    expect(landingPath(null, false)).toBe('/home');
  });
});

describe('viewer permissions (spec 000 §6)', () => {
  it('only admins and distributors create accounts and login tokens', () => {
    expect(
      ['admin', 'distributor', 'manager', 'customer'].filter((role) =>
        canCreateAccounts(role as never),
      ),
    ).toEqual(['admin', 'distributor']);
    expect(
      ['admin', 'distributor', 'manager', 'customer'].filter((role) =>
        canCreateLoginToken(role as never),
      ),
    ).toEqual(['admin', 'distributor']);
  });
  it('labels admin accounts as customer', () => {
    expect(accountRoleLabel('admin')).toBe('customer');
    expect(accountRoleLabel('manager')).toBe('manager');
  });
});
