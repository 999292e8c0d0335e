import { createHash } from 'node:crypto';

/**
 * The sensor provider (Koovea, spec 000 §7): credentials are checked with the password's
 * SHA-256; a connected account lists its hubs ("stickers") and probe tags.
 */
export type SensorHub = { id: string; name: string };

export type SensorProvider = {
  validCredentials(input: { email: string; passwordHash: string }): Promise<boolean>;
  stickers(credentials: { email: string; passwordHash: string }): Promise<SensorHub[]>;
  tags(
    credentials: { email: string; passwordHash: string },
    stickerId: string | null,
  ): Promise<SensorHub[]>;
};

export const localSensorPassword = 'koovea-demo';
const localPasswordHash = createHash('sha256').update(localSensorPassword).digest('hex');

/**
 * Works with no network: any account whose password is "koovea-demo" connects, and sees
 * two hubs with a few probes each. Used by default and by the tests.
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
  };
}

/** The real Koovea API behind SENSOR_PROVIDER_URL. */
export function createKooveaSensorProvider(baseUrl: string, fetchImpl = fetch): SensorProvider {
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
      return response.ok ? ((await response.json()) as T) : null;
    } catch {
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
  };
}
