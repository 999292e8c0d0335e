import type { CreatableRole } from './constants';
import { passwordMinLength } from './constants';

/** Registration form, checked in the spec's order (spec 000 §5). */
export type RegistrationForm = {
  name: string;
  surname: string;
  email: string;
  phone: string;
  password: string;
  confirmation: string;
  hasAcceptedTerms: boolean;
};

export const registrationMessages = {
  terms: 'Please accept legal terms',
  mismatch: 'Passwords do not match',
  empty: 'Please fill all fields.',
} as const;
export type RegistrationError = keyof typeof registrationMessages;

export function validateRegistration(form: RegistrationForm): RegistrationError | null {
  if (!form.hasAcceptedTerms) return 'terms';
  if (form.password !== form.confirmation) return 'mismatch';
  const required = [form.name, form.surname, form.email, form.phone, form.password];
  if (required.some((value) => value.trim() === '')) return 'empty';
  return null;
}

/** New-account dialog (admin / distributor), spec 000 §5, in order. */
export type NewAccountForm = {
  role: CreatableRole | null;
  distributorId: string | null;
  databaseId: string | null;
  storeId: string | null;
  password: string;
  confirmation: string;
};

export type NewAccountError =
  | 'account/select-role'
  | 'account/select-distributor'
  | 'account/select-store'
  | 'account/select-database'
  | 'account/password-mismatch';

export function validateNewAccount(form: NewAccountForm): NewAccountError | null {
  if (!form.role) return 'account/select-role';
  if (form.role === 'distributor' && !form.distributorId) return 'account/select-distributor';
  if (form.role === 'customer' && !form.storeId) return 'account/select-store';
  if (form.role === 'manager' && !form.databaseId) return 'account/select-database';
  if (form.password !== form.confirmation) return 'account/password-mismatch';
  return null;
}

/** Forced password change screen (spec 000 §5). */
export type PasswordChangeError = 'auth/password-required' | 'auth/passwords-do-not-match';

export function validatePasswordChange(
  password: string,
  confirmation: string,
): PasswordChangeError | null {
  if (password.trim() === '' || confirmation.trim() === '') return 'auth/password-required';
  if (password !== confirmation) return 'auth/passwords-do-not-match';
  return null;
}

const commonPasswords = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'azerty123',
  'azertyuiop',
  'qwerty123',
  'qwertyuiop',
  'motdepasse',
  'iloveyou',
  'admin123',
  '11111111',
  '00000000',
  'abc12345',
  'passwort',
  'haslo123',
]);

/**
 * The spec only names the message for a weak password. Our rule (see
 * docs/decisions.md): at least 8 characters, not a well-known password,
 * not one repeated character, and either 12+ characters or a mix of
 * letters and digits/symbols.
 */
export function isStrongPassword(password: string): boolean {
  if (password.length < passwordMinLength) return false;
  const lower = password.toLowerCase();
  if (commonPasswords.has(lower)) return false;
  if (new Set(password).size === 1) return false;
  if (password.length >= 12) return true;
  const hasLetter = /\p{L}/u.test(password);
  const hasOther = /[^\p{L}]/u.test(password);
  return hasLetter && hasOther;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
