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
