/**
 * A demo tablet for the tablet benchmarks: signs in as the demo admin, takes a demo store's
 * pairing key (a new one, as the Devices tab does), pairs a device through the API.
 */
export type DemoTablet = { base: string; storeId: string; pairingKey: string };

export async function adminSession(base: string) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: 'demo1234' }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = (await (await fetch(`${base}/api/auth/csrf`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  const headers = { cookie, 'x-csrf-token': csrf.csrfToken, origin: base };
  return {
    async get<T>(path: string): Promise<T> {
      const response = await fetch(`${base}/api${path}`, { headers });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      return (await response.json()) as T;
    },
    async post<T>(path: string, body: unknown = {}): Promise<T> {
      const response = await fetch(`${base}/api${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

/** The demo store with the most employees (Bistro Paris Opéra) and a fresh pairing key. */
export async function demoTablet(
  base: string,
  storeName = 'Bistro Paris Opéra',
): Promise<DemoTablet> {
  const admin = await adminSession(base);
  const { items } = await admin.get<{ items: { id: string; name: string }[] }>('/stores');
  const store = items.find((item) => item.name === storeName);
  if (!store) throw new Error(`no demo store named ${storeName}`);
  const { pairing_key } = await admin.post<{ pairing_key: string }>(
    `/stores/${store.id}/pairing-key`,
  );
  return { base, storeId: store.id, pairingKey: pairing_key };
}

/** Pairs a device through the API: its Bearer token. */
export async function pairDevice(tablet: DemoTablet, deviceId: string): Promise<string> {
  const response = await fetch(`${tablet.base}/api/devices/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pairing_key: tablet.pairingKey, device_id: deviceId }),
  });
  if (!response.ok) throw new Error(`pairing failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
