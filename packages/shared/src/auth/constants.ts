export const roles = ['admin', 'distributor', 'manager', 'customer'] as const;
export type Role = (typeof roles)[number];

/** Roles an admin or distributor may give in the New account dialog (spec 000 §2). */
export const creatableRoles = ['manager', 'customer', 'distributor'] as const;
export type CreatableRole = (typeof creatableRoles)[number];

export const passwordMinLength = 8;
export const passwordMaxLength = 128;
export const maxStoresPerUser = 30;

/** Sessions and tokens. */
export const sessionLifetimeDays = 30;
export const loginTokenLifetimeMinutes = 60 * 24;
export const resetTokenLifetimeMinutes = 60;
/** A password change must happen within this many minutes of signing in. */
export const recentLoginMinutes = 60;
/** Failed sign-ins tolerated per account in one hour before throttling. */
export const maxFailuresPerAccountPerHour = 100;
/**
 * Past maxFailuresPerAccountPerHour, an address is throttled on that account only once it has
 * failed this many times on it in the hour: a stranger's flood never locks the owner out
 * after a single typo.
 */
export const maxFailuresPerAddressOnBusyAccount = 5;
/** Failed sign-ins tolerated per client address in 15 minutes. */
export const maxFailuresPerAddressPer15Minutes = 30;
/** Password-reset mails sent to one account in an hour, at most. */
export const maxResetMailsPerAccountPerHour = 5;
