import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createIntegrations } from '.';
import { createHttpVideoHost, createLocalVideoHost } from './video-host';
import { FakeVideoHost } from './video-host.test-support';

const specDelays = [0, 3000, 5000, 10000, 20000];

/**
 * A stand-in for the gcore-style video host on loopback: it records every request and answers
 * what the test set for its path.
 */
let fake: FakeVideoHost;
let baseUrl: string;
let answers: FakeVideoHost['answers'];
let received: FakeVideoHost['received'];

beforeAll(async () => {
  fake = await FakeVideoHost.start();
  baseUrl = fake.baseUrl;
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  answers = fake.answers;
  received = fake.received;
});

function httpHost() {
  const logged: { details: Record<string, unknown>; message: string }[] = [];
  const host = createHttpVideoHost({
    baseUrl,
    apiKey: 'secret-key',
    log: (details, message) => logged.push({ details, message }),
  });
  return { host, logged };
}

const tusParameters = JSON.stringify({
  token: 'upload-token-1',
  servers: [{ id: 1, hostname: 'upload-1.video.example' }],
  video: { id: 4821, name: 'Nettoyage.mp4', client_id: 77 },
});

describe('HTTP video host (gcore-style, spec 002 §7)', () => {
  it('GETs an upload token with the name and path and answers what tus needs', async () => {
    answers['GET /api/video/upload-token'] = { status: 200, body: tusParameters };
    const { host, logged } = httpHost();
    const ticket = await host.uploadToken({
      name: 'Nettoyage friteuse.mp4',
      path: 'stores/a/documents',
    });
    expect(received).toEqual([
      {
        method: 'GET',
        url: '/api/video/upload-token?name=Nettoyage+friteuse.mp4&path=stores%2Fa%2Fdocuments',
        authorization: 'APIKey secret-key',
      },
    ]);
    expect(ticket).toEqual({
      videoId: '4821',
      endpoint: 'https://upload-1.video.example/upload/',
      metadata: {
        filename: 'Nettoyage friteuse.mp4',
        token: 'upload-token-1',
        video_id: '4821',
        client_id: '77',
      },
      headers: {},
      retryDelays: specDelays,
    });
    expect(logged).toEqual([]);
  });

  it.each([
    [500, '{"error":"down"}', 'video host answered an error'],
    [200, '{"token":"t","servers":[],"video":{"id":1,"client_id":2}}', 'unexpected answer'],
    [
      200,
      '{"token":"t","servers":[{"hostname":"evil/x"}],"video":{"id":1,"client_id":2}}',
      'unexpected answer',
    ],
    [200, 'not json', 'unexpected answer'],
  ])('an upload token answered %s %s is no ticket, logged', async (status, body, message) => {
    answers['GET /api/video/upload-token'] = { status, body };
    const { host, logged } = httpHost();
    expect(await host.uploadToken({ name: 'a.mp4', path: 'p' })).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.message).toContain(message);
  });

  it('deletes by videoId; a video already gone counts as removed, a refusal is logged', async () => {
    const { host, logged } = httpHost();
    answers['DELETE /api/video/videos/4821'] = { status: 204 };
    expect(await host.remove('4821')).toBe(true);
    expect(received[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/video/videos/4821',
      authorization: 'APIKey secret-key',
    });
    expect(await host.remove('gone')).toBe(true);
    answers['DELETE /api/video/videos/4821'] = { status: 500, body: '{}' };
    expect(await host.remove('4821')).toBe(false);
    expect(logged).toEqual([
      { details: { videoId: '4821', status: 500 }, message: 'video host refused the removal' },
    ]);
  });

  it('answers the download link by videoId, refusing anything but an http(s) address', async () => {
    const { host, logged } = httpHost();
    answers['GET /api/video/videos/a%2Fb/download-link'] = {
      status: 200,
      body: '{"link":"https://cdn.video.example/videos/4821.mp4"}',
    };
    expect(await host.downloadLink('a/b')).toBe('https://cdn.video.example/videos/4821.mp4');
    answers['GET /api/video/videos/x/download-link'] = {
      status: 200,
      body: '{"link":"javascript:alert(1)"}',
    };
    expect(await host.downloadLink('x')).toBeNull();
    expect(await host.downloadLink('missing')).toBeNull();
    expect(logged.map((entry) => entry.message)).toEqual([
      'video host download link: unexpected answer',
      'video host answered an error',
    ]);
  });

  it('an unreachable host answers nothing and logs, never its key', async () => {
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const host = createHttpVideoHost({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'secret-key',
      log: (details, message) => logged.push({ details, message }),
    });
    expect(await host.uploadToken({ name: 'a.mp4', path: 'p' })).toBeNull();
    expect(await host.remove('1')).toBe(false);
    expect(await host.downloadLink('1')).toBeNull();
    expect(logged.map((entry) => entry.message)).toEqual([
      'video host call failed',
      'video host call failed',
      'video host call failed',
    ]);
    expect(JSON.stringify(logged)).not.toContain('secret-key');
  });
});

describe('local video host (no network)', () => {
  const key = 'stores/6b1f0c52-3f0e-4b7e-8a43-2a7c2f7b9d10/documents/1c6e/clip.mp4';

  it('names our resumable endpoint with the spec retry delays; the video is the stored object', async () => {
    const host = createLocalVideoHost();
    expect(host.kind).toBe('local');
    expect(await host.uploadToken({ name: 'Clip.mp4', path: key })).toEqual({
      videoId: key,
      endpoint: '/api/uploads',
      metadata: { filename: 'Clip.mp4' },
      headers: {},
      retryDelays: specDelays,
    });
    expect(await host.downloadLink(key)).toBe(`/api/files/${key}`);
    expect(await host.remove(key)).toBe(true);
  });

  it('refuses anything that is not a storage key', async () => {
    const host = createLocalVideoHost();
    expect(await host.uploadToken({ name: 'x', path: 'stores/../../etc/passwd' })).toBeNull();
    expect(await host.downloadLink('https://elsewhere.example/x.mp4')).toBeNull();
    expect(await host.remove('/absolute')).toBe(false);
  });
});

describe('choosing the video host', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/mise-config-test' };

  it('is local by default and the HTTP host with VIDEO_HOST_URL and VIDEO_HOST_API_KEY', () => {
    expect(createIntegrations(loadConfig(base)).videoHost.kind).toBe('local');
    expect(
      createIntegrations(loadConfig({ ...base, VIDEO_HOST_URL: '', VIDEO_HOST_API_KEY: '' }))
        .videoHost.kind,
    ).toBe('local');
    const config = loadConfig({
      ...base,
      VIDEO_HOST_URL: 'https://video.example/api',
      VIDEO_HOST_API_KEY: 'k',
    });
    expect(createIntegrations(config).videoHost.kind).toBe('http');
  });

  it.each([
    [{ VIDEO_HOST_URL: 'https://video.example' }, 'VIDEO_HOST_API_KEY: is required'],
    [{ VIDEO_HOST_API_KEY: 'k' }, 'VIDEO_HOST_URL: is required'],
    [{ VIDEO_HOST_URL: 'ftp://video.example', VIDEO_HOST_API_KEY: 'k' }, 'VIDEO_HOST_URL'],
    [{ VIDEO_HOST_ORIGINS: 'http://video.example' }, 'VIDEO_HOST_ORIGINS'],
    [{ VIDEO_HOST_ORIGINS: "https://video.example 'unsafe-inline'" }, 'VIDEO_HOST_ORIGINS'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
