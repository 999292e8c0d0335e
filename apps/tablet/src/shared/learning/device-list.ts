import { ApiError, apiRequest, NetworkError } from '../api/client';
import { errorText } from '../i18n/i18n';
import { readValue, writeValue } from '../storage/local-db';

/*
 * The identified employee's list of communications or trainings (issue 18), read with the
 * employee's token and kept in IndexedDB per employee: without network the kept list answers
 * (the employee reads and answers offline what was listed last).
 */

export type DeviceList<Item> = {
  /** The query key of one employee's list: unread, completion and skips are their own. */
  key: (employeeId: string) => readonly [string, string];
  /** The query key of every employee's list. */
  allKey: readonly [string];
  /** GET the list (`/device/<name>`), or the kept copy without network. */
  fetch: (employeeId: string, employeeToken: string) => Promise<{ items: Item[] }>;
  /** Keeps a change of the list (the server's answer to a step) in the kept copy too. */
  keep: (employeeId: string, list: { items: Item[] }) => Promise<void>;
};

/** The list GET /api/device/<name>, its query keys 'device-<name>' and kept copy 'cache:<name>'. */
export function deviceList<Item>(name: 'communications' | 'trainings'): DeviceList<Item> {
  const allKey = [`device-${name}`] as const;
  const keptKey = (employeeId: string) => `cache:${name}:${employeeId}`;
  return {
    key: (employeeId) => [allKey[0], employeeId] as const,
    allKey,
    async fetch(employeeId, employeeToken) {
      try {
        const answer = await apiRequest<{ items: Item[] }>(`/device/${name}`, {
          employeeToken,
          timeoutMs: 8000,
        });
        await writeValue(keptKey(employeeId), answer);
        return answer;
      } catch (error) {
        if (error instanceof NetworkError) {
          const kept = await readValue<{ items: Item[] }>(keptKey(employeeId));
          if (kept) return kept;
        }
        throw error;
      }
    },
    async keep(employeeId, list) {
      await writeValue(keptKey(employeeId), list);
    },
  };
}

/** The text of a refusal or a failure to load. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) return errorText(error.code, error.message);
  return errorText(error instanceof NetworkError ? 'network' : 'unknown');
}
