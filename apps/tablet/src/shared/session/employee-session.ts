import { useSyncExternalStore } from 'react';
import type { DeviceEmployee } from '../api/types';
import { deleteValue, readValue, writeValue } from '../storage/local-db';

/**
 * The employee working on the tablet. Opened by the server's PIN or pattern check only (the
 * tablet never holds a PIN); ends after `employeeIdleMinutes` without a touch, on "change
 * employee", or when the server's token expires. Offline, the last identified employee goes on
 * until then (a new identification needs the network).
 */
export const employeeIdleMinutes = 5;

export type EmployeeSession = {
  employee: DeviceEmployee;
  token: string;
  expires_at: string;
  last_touch: number;
};

const sessionKey = 'employee_session';
let session: EmployeeSession | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentSession(): EmployeeSession | null {
  return session;
}

export function useEmployeeSession(): EmployeeSession | null {
  return useSyncExternalStore(subscribe, currentSession, currentSession);
}

export function isSessionValid(candidate: EmployeeSession | null, now = Date.now()): boolean {
  if (!candidate) return false;
  if (Date.parse(candidate.expires_at) <= now) return false;
  return now - candidate.last_touch < employeeIdleMinutes * 60_000;
}

/** Boot: a session of the last minutes survives a reload. */
export async function loadSession(): Promise<void> {
  const stored = (await readValue<EmployeeSession>(sessionKey)) ?? null;
  session = isSessionValid(stored) ? stored : null;
  if (!session && stored) await deleteValue(sessionKey);
  emit();
}

export async function openSession(next: Omit<EmployeeSession, 'last_touch'>): Promise<void> {
  session = { ...next, last_touch: Date.now() };
  await writeValue(sessionKey, session);
  emit();
}

export async function endSession(): Promise<void> {
  session = null;
  await deleteValue(sessionKey);
  emit();
}

let lastWrite = 0;
/** A touch keeps the session open (kept in IndexedDB at most every 10 s). */
export function touchSession(now = Date.now()): void {
  if (!session) return;
  session.last_touch = now;
  if (now - lastWrite > 10_000) {
    lastWrite = now;
    void writeValue(sessionKey, session);
  }
}

/** Ends the session once idle too long; called every few seconds by the shell. */
export async function expireIdleSession(now = Date.now()): Promise<boolean> {
  if (session && !isSessionValid(session, now)) {
    await endSession();
    return true;
  }
  return false;
}
