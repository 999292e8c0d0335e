/**
 * The payloads the tablet reads, inferred from the API's shared contracts (type-only imports:
 * no schema code reaches the tablet's bundle).
 */
import type { Device } from '@mise/shared/organisation/schemas';
import type {
  authenticateEmployeeResponseSchema,
  deviceEmployeeSchema,
} from '@mise/shared/tasks/schemas';
import type { z } from 'zod';

export type { DeviceTask } from '@mise/shared/tasks/schemas';
export type { Device };

export type DeviceEmployee = z.infer<typeof deviceEmployeeSchema>;
export type EmployeeAuthentication = z.infer<typeof authenticateEmployeeResponseSchema>;

/* GET /api/device/context and GET /api/device/elements (issue 14). */
export type {
  DeviceContext,
  DeviceElement,
  DeviceLabel,
  DeviceLabel as ElementLabel,
} from '@mise/shared/device/schemas';

/** An employee role as the context lists it. */
export type EmployeeRole = import('@mise/shared/device/schemas').DeviceContext['roles'][number];
