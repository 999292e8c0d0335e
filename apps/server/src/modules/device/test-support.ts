import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Database } from '../../db/client';
import { devices, stores } from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';

/**
 * A paired tablet of a store, inserted directly, with its Bearer token. Tablet services need
 * the store's licence: the store is licensed unless `licensed: false` is given.
 */
export async function buildDevice(
  db: Database,
  storeId: string,
  { licensed = true }: { licensed?: boolean } = {},
) {
  if (licensed) await db.update(stores).set({ mise_licence: true }).where(eq(stores.id, storeId));
  const token = newToken();
  const [device] = await db
    .insert(devices)
    .values({
      store_id: storeId,
      device_id: `tablet-${randomBytes(4).toString('hex')}`,
      device_model: 'Galaxy Tab',
      app_version: '2.1.0',
      token_hash: hashToken(token),
    })
    .returning();
  return { device: device!, token };
}

/** Calls the API as a tablet (device token) and, when given, an identified employee. */
export function asDevice(
  app: FastifyInstance,
  deviceToken: string | null,
  employeeToken?: string | null,
) {
  return (options: InjectOptions) =>
    app.inject({
      ...options,
      headers: {
        ...(deviceToken ? { authorization: `Bearer ${deviceToken}` } : {}),
        ...(employeeToken ? { 'x-employee-token': employeeToken } : {}),
        ...(options.headers ?? {}),
      },
    });
}

/** Identifies an employee on a device and answers the employee token. */
export async function employeeToken(
  app: FastifyInstance,
  deviceToken: string,
  employeeId: string,
  pin = '1234',
): Promise<string> {
  const response = await asDevice(
    app,
    deviceToken,
  )({
    method: 'POST',
    url: `/api/device/employees/${employeeId}/authenticate`,
    payload: { pin },
  });
  if (response.statusCode !== 200) {
    throw new Error(`employee authentication failed: ${response.statusCode} ${response.body}`);
  }
  return response.json().employee_token as string;
}

// A valid 1×1 PNG.
export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export function multipart(file: { filename: string; contentType: string; data: Buffer }) {
  const boundary = `----mise-device-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const pngUpload = () =>
  multipart({ filename: 'picture.png', contentType: 'image/png', data: png });

export const newKey = () => `key-${randomBytes(8).toString('hex')}`;
