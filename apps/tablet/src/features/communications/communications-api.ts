import type { DeviceCommunication } from '@mise/shared/communications/schemas';
import { deviceList } from '../../shared/learning/device-list';

/*
 * The tablet's communication calls (issue 18): the communications aimed at the identified
 * employee (their store, its tags, their role), read with the employee's token. Every step of
 * their reading (view, skip, complete) goes through the outbox (communication-results.ts).
 */

export type { DeviceCommunication };

/** GET /api/device/communications, one list per employee, kept for offline use. */
export const communicationList = deviceList<DeviceCommunication>('communications');

/** POST /api/device/communications/:id/result. */
export const resultPath = (communicationId: string) =>
  `/device/communications/${communicationId}/result`;
