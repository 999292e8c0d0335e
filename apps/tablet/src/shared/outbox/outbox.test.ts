import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setDeviceToken } from '../device/device-token';
import { localDb } from '../storage/local-db';
import {
  discardRecord,
  enqueue,
  flushOutbox,
  networkReturned,
  outboxSnapshot,
  retryRecord,
  storePicture,
} from './outbox';

type Call = { url: string; method: string; body: unknown; headers: Record<string, string> };

/**
 * A stand-in network for the client-side queue: answers what a test says, records what the
 * tablet sent (the real server's idempotency is tested in apps/server and in e2e).
 */
function fakeNetwork(answer: (call: Call, index: number) => Response | 'offline') {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call: Call = {
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      headers: init.headers as Record<string, string>,
    };
    calls.push(call);
    const result = answer(call, calls.length - 1);
    if (result === 'offline') throw new TypeError('Failed to fetch');
    return result;
  });
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const record = (label: string, taskId = label) => ({
  kind: 'task-result' as const,
  path: `/device/tasks/${taskId}/result`,
  body: { result: { entries: [] } },
  employee_token: 'employee-token',
  employee_name: 'Lucas Martin',
  label,
  task_id: taskId,
});

beforeEach(async () => {
  await setDeviceToken('device-token');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('outbox', () => {
  it('sends records in the order they were made, each with its own idempotency key and both tokens', async () => {
    const calls = fakeNetwork(() => 'offline');
    await enqueue(record('first'));
    await enqueue(record('second'));
    await enqueue(record('third'));
    await flushOutbox();
    expect(outboxSnapshot().waiting.map((item) => item.label)).toEqual([
      'first',
      'second',
      'third',
    ]);

    calls.length = 0;
    fakeNetwork((call) => {
      calls.push(call);
      return json(200, { task: {} });
    });
    await networkReturned();
    expect(calls.map((call) => call.url)).toEqual([
      '/api/device/tasks/first/result',
      '/api/device/tasks/second/result',
      '/api/device/tasks/third/result',
    ]);
    const keys = calls.map((call) => (call.body as { idempotency_key: string }).idempotency_key);
    expect(new Set(keys).size).toBe(3);
    expect(calls[0]!.headers.authorization).toBe('Bearer device-token');
    expect(calls[0]!.headers['x-employee-token']).toBe('employee-token');
    // Each send carries the tablet's clock at sending (a record made offline is placed by it).
    for (const call of calls) {
      expect(Date.now() - Date.parse(call.headers['x-sent-at'] ?? '')).toBeLessThan(60_000);
    }
    expect(outboxSnapshot().waiting).toEqual([]);
    expect(await (await localDb()).count('outbox')).toBe(0);
  });

  it('sends at once when the network returns during a round that started offline (no backoff wait)', async () => {
    let failFirst: (error: Error) => void = () => {};
    const sent: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      if (sent.length === 0) {
        sent.push(`pending ${url}`);
        return new Promise<Response>((_resolve, reject) => {
          failFirst = reject;
        });
      }
      sent.push(url);
      return Promise.resolve(json(200, { task: {} }));
    });
    await enqueue(record('fridge'));
    const round = flushOutbox();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // The connection returns while the first attempt is still under way, then that attempt fails.
    const returned = networkReturned();
    failFirst(new TypeError('Failed to fetch'));
    await round;
    const startedAt = Date.now();
    await returned;
    expect(sent).toEqual([
      'pending /api/device/tasks/fridge/result',
      '/api/device/tasks/fridge/result',
    ]);
    expect(outboxSnapshot().waiting).toEqual([]);
    // Not after the first backoff delay (1 s): straight after the failed round.
    expect(Date.now() - startedAt).toBeLessThan(900);
  });

  it('retries after a lost answer with the same idempotency key (the server writes once)', async () => {
    const keys: string[] = [];
    fakeNetwork((call, index) => {
      keys.push((call.body as { idempotency_key: string }).idempotency_key);
      return index === 0 ? 'offline' : json(200, { task: {} });
    });
    const saved = await enqueue(record('fridge'));
    await flushOutbox();
    expect(outboxSnapshot().waiting).toHaveLength(1);
    expect(outboxSnapshot().offlineSince).not.toBeNull();
    await networkReturned();
    expect(keys).toEqual([saved.idempotency_key, saved.idempotency_key]);
    expect(outboxSnapshot().waiting).toHaveLength(0);
    expect(outboxSnapshot().offlineSince).toBeNull();
  });

  it('keeps a refused record visible with the server reason and goes on with the next ones', async () => {
    const calls = fakeNetwork((call) =>
      call.url.includes('closed-task')
        ? json(409, { error: { code: 'task/closed', message: "This task's day is over." } })
        : json(200, { task: {} }),
    );
    await enqueue(record('closed', 'closed-task'));
    await enqueue(record('open', 'open-task'));
    await flushOutbox();
    await flushOutbox();
    expect(calls.map((call) => call.url)).toEqual([
      '/api/device/tasks/closed-task/result',
      '/api/device/tasks/open-task/result',
    ]);
    const { refused, waiting } = outboxSnapshot();
    expect(waiting).toEqual([]);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.refusal).toEqual({
      status: 409,
      code: 'task/closed',
      message: "This task's day is over.",
    });

    // Kept until the employee decides: sent again with the same key, or discarded.
    await retryRecord(refused[0]!.seq!);
    await flushOutbox();
    expect(outboxSnapshot().refused).toHaveLength(1);
    await discardRecord(outboxSnapshot().refused[0]!.seq!);
    expect(outboxSnapshot().refused).toEqual([]);
    expect(await (await localDb()).count('outbox')).toBe(0);
  });

  it('uploads a picture once, then sends the record with the server key in its place', async () => {
    let uploads = 0;
    const calls = fakeNetwork((call, index) => {
      if (call.url === '/api/device/pictures') {
        uploads += 1;
        return json(200, { path: 'stores/s/pictures/p.jpg', url: '/x' });
      }
      // The first send of the record gets no answer: the retry must not upload again.
      return index === 1 ? 'offline' : json(200, { task: {} });
    });
    const reference = await storePicture(new Blob(['jpeg'], { type: 'image/jpeg' }));
    await enqueue({
      ...record('actions'),
      body: { result: { entries: [{ picture: { path: reference, timestamp: 1 } }] } },
    });
    await flushOutbox();
    await networkReturned();
    expect(uploads).toBe(1);
    const sent = calls.filter((call) => call.url.endsWith('/result'));
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[1]!.body)).toContain('stores/s/pictures/p.jpg');
    expect(JSON.stringify(sent[1]!.body)).not.toContain('local:');
    expect(await (await localDb()).count('pictures')).toBe(0);
  });

  it('survives a reload: records are in IndexedDB before any send', async () => {
    fakeNetwork(() => 'offline');
    await enqueue(record('kept'));
    const stored = await (await localDb()).getAll('outbox');
    expect(stored.map((item) => [item.label, item.state])).toEqual([['kept', 'waiting']]);
  });

  it('a double tap (two records with the same key) is refused locally: one record', async () => {
    fakeNetwork(() => 'offline');
    await enqueue({ ...record('tap'), idempotency_key: 'same-key-123' });
    await expect(enqueue({ ...record('tap'), idempotency_key: 'same-key-123' })).rejects.toThrow();
    expect(await (await localDb()).count('outbox')).toBe(1);
  });
});
