import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { TaskActor } from '../tasks/task-results.service';
import { type DeviceIdentity, findEmployeeOfToken } from './employees.service';

export const employeeTokenHeader = 'x-employee-token';

/**
 * Device-only routes: a paired tablet's Bearer device token. A browser or script session,
 * or no token, answers 401 (a user is never a device). A tablet of an inactive or unlicensed
 * store answers 403 'device/store-unlicensed' (tablet services stop with the licence).
 */
export function requireDevice(request: FastifyRequest): DeviceIdentity {
  if (!request.device) throw new AppError('auth/unauthenticated');
  if (!request.device.storeLicensed) throw new AppError('device/store-unlicensed');
  return { id: request.device.id, storeId: request.device.storeId };
}

/** The device and the employee identified on it (`x-employee-token`), or 401. */
export async function requireActor(db: Database, request: FastifyRequest): Promise<TaskActor> {
  const device = requireDevice(request);
  const header = request.headers[employeeTokenHeader];
  const employee = await findEmployeeOfToken(
    db,
    device,
    typeof header === 'string' ? header : undefined,
  );
  return { deviceId: device.id, storeId: device.storeId, employee };
}
