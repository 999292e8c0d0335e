import type { DeviceTraining } from '@mise/shared/trainings/schemas';
import { deviceList } from '../../shared/learning/device-list';

/*
 * The tablet's training calls (issue 18): the trainings aimed at the identified employee (their
 * store, its tags, their role), read with the employee's token. Every step of a training (view,
 * skip, complete) goes through the outbox (training-results.ts), as a communication's do.
 */

export type { DeviceTraining };

/** GET /api/device/trainings, one list per employee, kept for offline use. */
export const trainingList = deviceList<DeviceTraining>('trainings');

/** POST /api/device/trainings/:id/result. */
export const trainingResultPath = (trainingId: string) => `/device/trainings/${trainingId}/result`;
