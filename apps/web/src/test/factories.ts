import type { Role } from '@mise/shared/auth/constants';
import type { DatabaseDetail, StoreDetail } from '@mise/shared/organisation/schemas';
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

export function buildStore(overrides: Partial<StoreDetail> = {}): StoreDetail {
  return {
    id: nextId(),
    name: 'Bistro Opéra',
    address: '5 place de l’Opéra',
    postal_code: '75009',
    city: 'Paris',
    country: 'FR',
    active: true,
    illustration_url: null,
    distributor: null,
    distributor_name: 'Frais Distribution',
    database: null,
    database_name: null,
    mise_licence: false,
    score: null,
    timezone: 1,
    timezone_name: 'Europe/Paris',
    task_generation_hour: 0,
    hidden_modules: [],
    hidden_extensions: [],
    slow_internet_mode: false,
    audio_task_reminders: false,
    licence_activation_history: [],
    manager_owned: false,
    maximum_devices: 1,
    week_start: 0,
    demonstration_store: false,
    licence_price: null,
    effective_licence_price: 19,
    sensor_sticker_id: null,
    pairing_key: 'PAIR-1234',
    owners: [],
    device_count: 0,
    creation_date: '2026-01-05T08:00:00Z',
    is_read_only: false,
    version: 3,
    ...overrides,
  };
}

export function buildDatabaseDetail(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return {
    id: nextId(),
    name: 'Bistro Group',
    distributor: nextId(),
    distributor_name: 'Frais Distribution',
    illustration_url: null,
    hidden: false,
    store_count: 3,
    store_access: false,
    hidden_modules: [],
    hidden_extensions: [],
    licence_price: null,
    screen_saver_url: null,
    alert_escalation_minutes: 30,
    managers: [],
    stores: [],
    version: 1,
    ...overrides,
  };
}
