import { createHash } from 'node:crypto';
import { simulatedReadings } from './sensor-simulation';

/**
 * The sensor provider (Koovea, spec 000 §7): credentials are checked with the password's
 * SHA-256; a connected account lists its hubs ("stickers") and probe tags, and a tag's readings.
 */
export type SensorHub = { id: string; name: string };
export type SensorCredentials = { email: string; passwordHash: string };
export type SensorReading = { timestamp: Date; temperature: number; batteryLevel: number | null };

/** What a provider failure looks like in the logs (never a throw: a pull job must go on). */
export type SensorProviderLog = (details: Record<string, unknown>, message: string) => void;

export type SensorProvider = {
  validCredentials(input: { email: string; passwordHash: string }): Promise<boolean>;
  stickers(credentials: { email: string; passwordHash: string }): Promise<SensorHub[]>;
  tags(
    credentials: { email: string; passwordHash: string },
    stickerId: string | null,
  ): Promise<SensorHub[]>;
  /**
   * A tag's readings stamped in (since, until], oldest first. Any failure (network, timeout,
   * an answer that is not a list of readings) answers an empty list and is logged.
   */
  readings(
    credentials: SensorCredentials,
    tagId: string,
    since: Date,
    until: Date,
  ): Promise<SensorReading[]>;
};

export const localSensorPassword = 'koovea-demo';
const localPasswordHash = createHash('sha256').update(localSensorPassword).digest('hex');

/**
 * Works with no network: any account whose password is "koovea-demo" connects, and sees
 * two hubs with a few probes each. Used by default and by the tests. Readings are simulated
 * (sensor-simulation.ts): "Chambre froide positive" (tag-walk-in) has a compressor failing every
 * 8 hours, "Chambre froide" (tag-cold-room) a battery crossing 20 % every 8 days. Any tag id is
 * answered readings, so `tag-freezer:failing:<unix seconds>` and the like pick a scenario.
 */
export function createLocalSensorProvider(): SensorProvider {
  const hubs = [
    { id: 'hub-kitchen', name: 'Hub cuisine' },
    { id: 'hub-storage', name: 'Hub réserve' },
  ];
  const tagsByHub: Record<string, SensorHub[]> = {
    'hub-kitchen': [
      { id: 'tag-fridge-1', name: 'Frigo 1' },
      { id: 'tag-cold-room', name: 'Chambre froide' },
      { id: 'tag-walk-in', name: 'Chambre froide positive' },
    ],
    'hub-storage': [{ id: 'tag-freezer', name: 'Congélateur' }],
  };
  return {
    validCredentials: async ({ passwordHash }) => passwordHash === localPasswordHash,
    stickers: async () => hubs,
    tags: async (_credentials, stickerId) =>
      (stickerId ? (tagsByHub[stickerId] ?? []) : Object.values(tagsByHub).flat()).sort((a, b) =>
        a.name.localeCompare(b.name),
      ),
    readings: async ({ passwordHash }, tagId, since, until) =>
      passwordHash === localPasswordHash ? simulatedReadings(tagId, since, until) : [],
  };
}

/** A provider reading as Koovea sends it: ISO or epoch-milliseconds time, °C, battery %. */
function readingOf(value: unknown): SensorReading | null {
  if (typeof value !== 'object' || value === null) return null;
  const { timestamp, temperature, batteryLevel } = value as Record<string, unknown>;
  const time =
    typeof timestamp === 'string' || typeof timestamp === 'number' ? new Date(timestamp) : null;
  if (!time || Number.isNaN(time.getTime())) return null;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature)) return null;
  const battery =
    typeof batteryLevel === 'number' && Number.isFinite(batteryLevel) ? batteryLevel : null;
  return { timestamp: time, temperature, batteryLevel: battery };
}

/**
 * The real Koovea API behind SENSOR_PROVIDER_URL. Readings (an assumption, docs/decisions.md):
 * GET /tags/{tagId}/readings?email&password&from&to (ISO instants) answering
 * `{readings: [{timestamp, temperature, batteryLevel}]}`.
 */
export function createKooveaSensorProvider(
  baseUrl: string,
  fetchImpl = fetch,
  log: SensorProviderLog = () => {},
): SensorProvider {
  const url = (path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;
  // POST validCredentials; GET session and tags with query parameters (spec 000 §7).
  const call = async <T>(
    path: string,
    body: Record<string, string | null>,
    method: 'GET' | 'POST',
  ): Promise<T | null> => {
    try {
      const query = new URLSearchParams(
        Object.entries(body).filter((entry): entry is [string, string] => entry[1] !== null),
      );
      const response = await fetchImpl(method === 'GET' ? `${url(path)}?${query}` : url(path), {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) {
        log({ path, status: response.status }, 'sensor provider answered an error');
        return null;
      }
      return (await response.json()) as T;
    } catch (error) {
      log({ path, error: (error as Error).message }, 'sensor provider call failed');
      return null;
    }
  };
  return {
    async validCredentials({ email, passwordHash }) {
      const result = await call<{ status?: string }>(
        '/validCredentials',
        { email, password: passwordHash },
        'POST',
      );
      return result !== null && result.status !== 'false';
    },
    async stickers({ email, passwordHash }) {
      return (
        (
          await call<{ stickers?: SensorHub[] }>(
            '/session',
            { email, password: passwordHash },
            'GET',
          )
        )?.stickers ?? []
      );
    },
    async tags({ email, passwordHash }, stickerId) {
      const result = await call<{ tags?: SensorHub[] }>(
        '/tags',
        { email, password: passwordHash, stickerId },
        'GET',
      );
      return (result?.tags ?? []).sort((a, b) => a.name.localeCompare(b.name));
    },
    async readings({ email, passwordHash }, tagId, since, until) {
      const result = await call<{ readings?: unknown }>(
        `/tags/${encodeURIComponent(tagId)}/readings`,
        { email, password: passwordHash, from: since.toISOString(), to: until.toISOString() },
        'GET',
      );
      if (!result) return [];
      if (!Array.isArray(result.readings)) {
        log({ tagId }, 'sensor provider readings: unexpected answer');
        return [];
      }
      const readings: SensorReading[] = [];
      for (const value of result.readings) {
        const reading = readingOf(value);
        if (reading && reading.timestamp > since && reading.timestamp <= until) {
          readings.push(reading);
        }
      }
      return readings.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    },
  };
}
