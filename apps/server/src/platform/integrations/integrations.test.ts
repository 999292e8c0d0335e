import { describe, expect, it } from 'vitest';
import { createHttpLicenceMonitoring } from './licence-monitoring';
import { createKooveaSensorProvider } from './sensor-provider';

/** The real clients, against a recorded stand-in for the outside service (no network here). */
function fakeFetch(answer: { status: number; body: string }) {
  const calls: { url: string; method: string; body?: string }[] = [];
  const fetchImpl = (async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body as string | undefined });
    return new Response(answer.body, { status: answer.status });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

describe('licence monitoring client: a falsy answer aborts (spec 000 §4)', () => {
  it.each([
    [200, '{"status":"ok"}', true],
    [200, 'true', true],
    [200, '', true],
    [200, 'false', false],
    [200, '"false"', false],
    [200, '{"status":"error"}', false],
    [200, 'not json', false],
    [500, '{"status":"ok"}', false],
  ])('HTTP %s %s -> %s', async (status, body, expected) => {
    const { fetchImpl, calls } = fakeFetch({ status, body });
    const client = createHttpLicenceMonitoring('https://monitoring.example/', fetchImpl);
    expect(await client.updateLicence({ storeId: 's1', activated: true })).toBe(expected);
    expect(calls[0]).toMatchObject({ url: 'https://monitoring.example/licence', method: 'POST' });
    expect(JSON.parse(calls[0]!.body!)).toEqual({ storeId: 's1', activated: true });
  });
});

describe('Koovea client (spec 000 §7)', () => {
  it('POSTs validCredentials with the hash, and "false" means wrong', async () => {
    const { fetchImpl, calls } = fakeFetch({ status: 200, body: '{"status":"false"}' });
    const client = createKooveaSensorProvider('https://koovea.example', fetchImpl);
    expect(await client.validCredentials({ email: 'a@b.test', passwordHash: 'h' })).toBe(false);
    expect(calls[0]).toMatchObject({
      url: 'https://koovea.example/validCredentials',
      method: 'POST',
    });
  });

  it('GETs session and tags with query parameters, tags sorted by name', async () => {
    const { fetchImpl, calls } = fakeFetch({
      status: 200,
      body: '{"stickers":[{"id":"h","name":"Hub"}],"tags":[{"id":"2","name":"b"},{"id":"1","name":"a"}]}',
    });
    const client = createKooveaSensorProvider('https://koovea.example', fetchImpl);
    const credentials = { email: 'a@b.test', passwordHash: 'h' };
    expect(await client.stickers(credentials)).toEqual([{ id: 'h', name: 'Hub' }]);
    expect((await client.tags(credentials, 'h')).map((tag) => tag.name)).toEqual(['a', 'b']);
    expect(calls.map((call) => call.method)).toEqual(['GET', 'GET']);
    expect(calls[0]!.url).toBe('https://koovea.example/session?email=a%40b.test&password=h');
    expect(calls[1]!.url).toBe(
      'https://koovea.example/tags?email=a%40b.test&password=h&stickerId=h',
    );
  });
});

describe('Koovea client: readings (assumed endpoint, docs/decisions.md)', () => {
  const credentials = { email: 'a@b.test', passwordHash: 'h' };
  const since = new Date('2026-11-20T10:00:00Z');
  const until = new Date('2026-11-20T11:00:00Z');

  it('GETs /tags/{id}/readings with the range, keeps (since, until] oldest first', async () => {
    const { fetchImpl, calls } = fakeFetch({
      status: 200,
      body: JSON.stringify({
        readings: [
          { timestamp: '2026-11-20T10:10:00Z', temperature: 4.5, batteryLevel: 80 },
          { timestamp: '2026-11-20T10:05:00Z', temperature: 3.5 },
          { timestamp: '2026-11-20T10:00:00Z', temperature: 1, batteryLevel: 80 },
          { timestamp: '2026-11-20T12:00:00Z', temperature: 1, batteryLevel: 80 },
          { timestamp: 'nonsense', temperature: 1 },
          { timestamp: '2026-11-20T10:20:00Z', temperature: 'warm' },
        ],
      }),
    });
    const client = createKooveaSensorProvider('https://koovea.example', fetchImpl);
    const readings = await client.readings(credentials, 'tag 1', since, until);
    expect(calls[0]!.url).toBe(
      'https://koovea.example/tags/tag%201/readings?email=a%40b.test&password=h&from=2026-11-20T10%3A00%3A00.000Z&to=2026-11-20T11%3A00%3A00.000Z',
    );
    expect(readings).toEqual([
      { timestamp: new Date('2026-11-20T10:05:00Z'), temperature: 3.5, batteryLevel: null },
      { timestamp: new Date('2026-11-20T10:10:00Z'), temperature: 4.5, batteryLevel: 80 },
    ]);
  });

  it.each([
    [500, '{"readings":[]}', 'sensor provider answered an error'],
    [200, 'not json', 'sensor provider call failed'],
    [200, '{"readings":"none"}', 'sensor provider readings: unexpected answer'],
  ])('HTTP %s %s: no readings, one warning, no throw', async (status, body, message) => {
    const { fetchImpl } = fakeFetch({ status, body });
    const logged: string[] = [];
    const client = createKooveaSensorProvider('https://koovea.example', fetchImpl, (_, text) =>
      logged.push(text),
    );
    expect(await client.readings(credentials, 't', since, until)).toEqual([]);
    expect(logged).toEqual([message]);
  });

  it('a network failure or timeout answers no readings', async () => {
    const failing = (async () => {
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    }) as typeof fetch;
    const logged: Record<string, unknown>[] = [];
    const client = createKooveaSensorProvider('https://koovea.example', failing, (details) =>
      logged.push(details),
    );
    expect(await client.readings(credentials, 't', since, until)).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain('password');
  });
});
