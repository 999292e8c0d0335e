import type { DeviceTraining, DeviceTrainingResultBody } from '@mise/shared/trainings/schemas';
import { apiRequest, NetworkError } from '../../shared/api/client';
import { readValue, writeValue } from '../../shared/storage/local-db';

/*
 * The tablet's training calls (issue 18): the trainings aimed at the identified employee (their
 * store, its tags, their role), read with the employee's token. Every step of a training (view,
 * skip, complete) goes through the outbox (training-results.ts), as a communication's do.
 */

export type { DeviceTraining };
export type DeviceTrainings = { items: DeviceTraining[] };

/** One list per employee: unread, completion and skips are the employee's own. */
export const trainingsKey = (employeeId: string) => ['device-trainings', employeeId] as const;
export const allTrainingsKey = ['device-trainings'] as const;
const keptKey = (employeeId: string) => `cache:trainings:${employeeId}`;

/** POST /api/device/trainings/:id/result. */
export const trainingResultPath = (trainingId: string) => `/device/trainings/${trainingId}/result`;

/** A step as the outbox keeps it (the outbox adds the idempotency key). */
export type TrainingStep = Omit<DeviceTrainingResultBody, 'idempotency_key'>;

/**
 * GET /api/device/trainings, kept in IndexedDB per employee: without network the kept list
 * answers (the employee reads and answers offline what was listed last).
 */
export async function fetchDeviceTrainings(
  employeeId: string,
  employeeToken: string,
): Promise<DeviceTrainings> {
  try {
    const answer = await apiRequest<DeviceTrainings>('/device/trainings', {
      employeeToken,
      timeoutMs: 8000,
    });
    await writeValue(keptKey(employeeId), answer);
    return answer;
  } catch (error) {
    if (error instanceof NetworkError) {
      const kept = await readValue<DeviceTrainings>(keptKey(employeeId));
      if (kept) return kept;
    }
    throw error;
  }
}

/** Keeps a change of the list (the server's answer to a step) in the kept copy too. */
export async function keepDeviceTrainings(
  employeeId: string,
  list: DeviceTrainings,
): Promise<void> {
  await writeValue(keptKey(employeeId), list);
}
