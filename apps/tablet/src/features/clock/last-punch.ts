import type { LastPunchResponse } from '@mise/shared/people/schemas';
import { ApiError, apiRequest, NetworkError } from '../../shared/api/client';
import { readValue, writeValue } from '../../shared/storage/local-db';

/** What the tablet knows of an employee's latest entry: in or out, and when (ms epoch). */
export type KnownPunch = { is_in: boolean; at: number };

/**
 * An entrance older than this is a shift left open (a forgotten exit): the next entry is an
 * entrance again (the server flags the break for the manager). A night shift crossing midnight
 * stays within it, so its exit is proposed after midnight too.
 */
export const openShiftHours = 16;

/**
 * The punch-card alternation (spec 000 §4): an entrance when the previous entry was an exit or
 * there is none, else an exit.
 */
export function nextIsIn(previous: KnownPunch | null, now: number): boolean {
  if (!previous?.is_in) return true;
  return now - previous.at >= openShiftHours * 3_600_000;
}

const storageKey = (employeeId: string) => `clock:last:${employeeId}`;

export function readKnownPunch(employeeId: string): Promise<KnownPunch | undefined> {
  return readValue<KnownPunch>(storageKey(employeeId));
}

/** Kept after each punch made here and each answer of the server (the latest wins). */
export async function rememberPunch(employeeId: string, punch: KnownPunch): Promise<void> {
  const kept = await readKnownPunch(employeeId);
  if (kept && kept.at > punch.at) return;
  await writeValue(storageKey(employeeId), punch);
}

/**
 * The employee's latest entry: the server's (GET /api/device/punches/last) unless a punch made
 * on this tablet is newer (still waiting in the outbox); without an answer, the one kept here.
 */
export async function fetchLastPunch(
  employeeId: string,
  employeeToken: string,
): Promise<KnownPunch | null> {
  try {
    const answer = await apiRequest<LastPunchResponse>('/device/punches/last', {
      employeeToken,
      timeoutMs: 6000,
    });
    if (answer.entry) {
      const { is_in, timestamp, timestamp_modified } = answer.entry;
      await rememberPunch(employeeId, { is_in, at: Date.parse(timestamp_modified ?? timestamp) });
    }
  } catch (error) {
    if (!(error instanceof NetworkError) && !(error instanceof ApiError)) throw error;
  }
  return (await readKnownPunch(employeeId)) ?? null;
}
