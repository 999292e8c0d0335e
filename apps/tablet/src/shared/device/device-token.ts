import { deleteValue, readValue, writeValue } from '../storage/local-db';

const tokenKey = 'device_token';
const deviceIdKey = 'device_id';
let cached: string | null | undefined;

/** The paired device's Bearer token, kept in IndexedDB (never in a URL or a cookie). */
export async function getDeviceToken(): Promise<string | null> {
  if (cached === undefined) cached = (await readValue<string>(tokenKey)) ?? null;
  return cached;
}

export async function setDeviceToken(token: string | null): Promise<void> {
  cached = token;
  if (token) await writeValue(tokenKey, token);
  else await deleteValue(tokenKey);
}

/** Forgets the in-memory copy (tests reset the database under it). */
export function forgetDeviceTokenCache(): void {
  cached = undefined;
}

/** This installation's stable id: a paired again tablet keeps its row (devices.device_id). */
export async function getInstallationId(): Promise<string> {
  const existing = await readValue<string>(deviceIdKey);
  if (existing) return existing;
  const id = crypto.randomUUID();
  await writeValue(deviceIdKey, id);
  return id;
}
