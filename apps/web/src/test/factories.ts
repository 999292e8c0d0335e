import type { Role } from '@mise/shared/auth/constants';
import type { User, UserSummary } from '@mise/shared/users/schemas';

let sequence = 0;

function nextId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

export function buildUser(overrides: Partial<User> & { role?: Role } = {}): User {
  return {
    id: nextId(),
    active: true,
    email: 'camille.martin@example.com',
    name: 'Camille',
    surname: 'Martin',
    phone_number: '+33 6 12 34 56 78',
    role: 'admin',
    illustration_url: null,
    new_password_required: false,
    distributor: null,
    database: null,
    stores: [],
    store_distributors: [],
    store_databases: [],
    manager_databases: [],
    manager_distributors: [],
    manager_store_tags: [],
    creation_date: '2026-01-05T08:00:00Z',
    version: 1,
    ...overrides,
  };
}

export function buildUserSummary(overrides: Partial<UserSummary> = {}): UserSummary {
  return {
    id: nextId(),
    active: true,
    email: 'alex.durand@example.com',
    name: 'Alex',
    surname: 'Durand',
    role: 'customer',
    illustration_url: null,
    store_count: 2,
    ...overrides,
  };
}

export function buildId(): string {
  return nextId();
}
