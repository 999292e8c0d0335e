import type {
  DeviceCommunication,
  DeviceCommunicationResultBody,
} from '@mise/shared/communications/schemas';
import { ApiError, apiRequest, NetworkError } from '../../shared/api/client';
import { errorText } from '../../shared/i18n/i18n';
import { readValue, writeValue } from '../../shared/storage/local-db';

/*
 * The tablet's communication calls (issue 18): the communications aimed at the identified
 * employee (their store, its tags, their role), read with the employee's token. Every step of
 * their reading (view, skip, complete) goes through the outbox (communication-results.ts).
 */

export type { DeviceCommunication };
export type DeviceCommunications = { items: DeviceCommunication[] };

/** One list per employee: unread, completion and skips are the employee's own. */
export const communicationsKey = (employeeId: string) =>
  ['device-communications', employeeId] as const;
export const allCommunicationsKey = ['device-communications'] as const;
const keptKey = (employeeId: string) => `cache:communications:${employeeId}`;

/** POST /api/device/communications/:id/result. */
export const resultPath = (communicationId: string) =>
  `/device/communications/${communicationId}/result`;

/** A step as the outbox keeps it (the outbox adds the idempotency key). */
export type ResultStep = Omit<DeviceCommunicationResultBody, 'idempotency_key'>;

/**
 * GET /api/device/communications, kept in IndexedDB per employee: without network the kept list
 * answers (the employee reads and answers offline what was listed last).
 */
export async function fetchDeviceCommunications(
  employeeId: string,
  employeeToken: string,
): Promise<DeviceCommunications> {
  try {
    const answer = await apiRequest<DeviceCommunications>('/device/communications', {
      employeeToken,
      timeoutMs: 8000,
    });
    await writeValue(keptKey(employeeId), answer);
    return answer;
  } catch (error) {
    if (error instanceof NetworkError) {
      const kept = await readValue<DeviceCommunications>(keptKey(employeeId));
      if (kept) return kept;
    }
    throw error;
  }
}

/** Keeps a change of the list (the server's answer to a step) in the kept copy too. */
export async function keepDeviceCommunications(
  employeeId: string,
  list: DeviceCommunications,
): Promise<void> {
  await writeValue(keptKey(employeeId), list);
}

/** The text of a refusal or a failure to load. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) return errorText(error.code, error.message);
  return errorText(error instanceof NetworkError ? 'network' : 'unknown');
}
