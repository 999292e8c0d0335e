/** The demo organisation the server seeds on a fresh embedded database. */
export const demoPassword = 'demo1234';

export type Role = 'admin' | 'distributor' | 'manager' | 'customer';

export const demoUsers = {
  admin: { email: 'admin@demo.test', name: 'Alice', surname: 'Admin' },
  distributor: { email: 'distributor@demo.test', name: 'Denis', surname: 'Distributeur' },
  manager: { email: 'manager@demo.test', name: 'Manon', surname: 'Manager' },
  customer: { email: 'customer@demo.test', name: 'Camille', surname: 'Client' },
} as const satisfies Record<Role, { email: string; name: string; surname: string }>;

export const roles = Object.keys(demoUsers) as Role[];

/** Navigation entries per role, in display order (spec 000 §2). */
export const expectedNavigation: Record<Role, string[]> = {
  admin: [
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
  ],
  distributor: [
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
  ],
  manager: [
    'home',
    'databases',
    'communications',
    'documents',
    'history',
    'auditing',
    'stores',
    'trainings',
  ],
  customer: ['home', 'communications', 'documents', 'history', 'stores', 'trainings'],
};

/** A strong password (8+ characters, letters and symbols, not a common one). */
export const strongPassword = 'Fresh-bread-2026';

/** A unique e-mail address for an account a test creates. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@e2e.test`;
}
