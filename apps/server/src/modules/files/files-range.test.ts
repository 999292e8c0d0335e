import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, type Storage } from '../../platform/storage';
import { createS3Storage } from '../../platform/storage-s3';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { startS3Server, type TestS3Server } from '../../test/s3-server';

/**
 * GET /api/files/* with HTTP range requests (a video seeks without downloading all of it), on
 * each storage driver chosen by configuration: the local disk, and S3 (STORAGE_DRIVER=s3 and
 * the S3_* variables pointing at a real S3-protocol server on loopback).
 */
const drivers = [{ driver: 'local' as const }, { driver: 's3' as const }];

// A valid 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function multipartPng() {
  const boundary = `----mise${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    'Content-Disposition: form-data; name="file"; filename="me.png"\r\n' +
    'Content-Type: image/png\r\n\r\n';
  return {
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each(drivers)('GET /api/files/* on the $driver driver', ({ driver }) => {
  let s3: TestS3Server | null = null;
  const env: Record<string, string> = {};
  // Registered before the app's hooks: the server's address is known when the app is built.
  beforeAll(async () => {
    if (driver === 's3') {
      s3 = await startS3Server();
      Object.assign(env, s3.env);
    }
  });
  afterAll(async () => {
    await s3?.close();
  });
  const context = useTestApp({ env });

  let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
  let distributorA: Agent;
  let distributorB: Agent;
  let storage: Storage;
  const video = randomBytes(256 * 1024);
  let url: string;

  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
    distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
    storage =
      driver === 's3'
        ? createS3Storage(s3!.options)
        : createLocalStorage(join(context.config.DATA_DIR, 'files'));
    const key = `accounts/${tenants.a.users.manager.id}/clip.mp4`;
    await storage.put(key, video);
    url = `/api/files/${key}`;
  });

  const get = (headers: Record<string, string> = {}, agent = distributorA) =>
    agent.inject({ method: 'GET', url, headers });

  it('answers the whole file with Accept-Ranges and the usual headers', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['content-length']).toBe(String(video.length));
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-range']).toBeUndefined();
    expect(response.rawPayload.equals(video)).toBe(true);
  });

  it('answers 206 Partial Content with Content-Range for bytes=a-b, a- and -n', async () => {
    const size = video.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-1999', 1000, 1999],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=200000-${size + 5000}`, 200000, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await get({ range });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers['content-length'], range).toBe(String(end - start + 1));
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.headers['content-type']).toBe('video/mp4');
      expect(response.headers['content-disposition']).toBe('inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.rawPayload.equals(video.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 with the size for a range past the end, and for an empty suffix', async () => {
    for (const range of [`bytes=${video.length}-`, 'bytes=999999999-1000000000', 'bytes=-0']) {
      const response = await get({ range });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers['content-range'], range).toBe(`bytes */${video.length}`);
      expect(response.rawPayload.includes(video.subarray(0, 64))).toBe(false);
    }
  });

  it('answers the whole file to a range it does not serve (several, malformed, other unit)', async () => {
    for (const range of ['bytes=0-9,20-29', 'bytes=abc', 'bytes=50-10', 'items=0-9', 'bytes=-']) {
      const response = await get({ range });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.equals(video), range).toBe(true);
    }
    // No validator is sent, so an If-Range never matches: the whole file.
    const conditional = await get({ range: 'bytes=0-9', 'if-range': '"some-etag"' });
    expect(conditional.statusCode).toBe(200);
    expect(conditional.rawPayload.length).toBe(video.length);
  });

  it('keeps the access checks: 404 to another tenant and 401 anonymous, with or without a range', async () => {
    const variants: Record<string, string>[] = [
      {},
      { range: 'bytes=0-9' },
      { range: 'bytes=99999999-' },
    ];
    for (const headers of variants) {
      const foreign = await get(headers, distributorB);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe('not-found');
      const anonymous = await context.app.inject({ method: 'GET', url, headers });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('answers 404 for a missing file with a range', async () => {
    const missing = `/api/files/accounts/${tenants.a.users.manager.id}/none.mp4`;
    for (const range of ['bytes=0-9', 'bytes=-10']) {
      const response = await distributorA.inject({
        method: 'GET',
        url: missing,
        headers: { range },
      });
      expect(response.statusCode).toBe(404);
    }
  });

  it('stores an upload with the configured driver and serves it back', async () => {
    const target = tenants.a.users.manager;
    const response = await distributorA.inject({
      method: 'POST',
      url: `/api/users/${target.id}/illustration`,
      ...multipartPng(),
    });
    expect(response.statusCode).toBe(200);
    const fileUrl: string = response.json().user.illustration_url;
    const name = fileUrl.split('/').pop()!;
    const localFolder = join(context.config.DATA_DIR, 'files', 'accounts', target.id);
    const onDisk = existsSync(localFolder) ? readdirSync(localFolder) : [];
    if (driver === 's3') {
      expect(onDisk).not.toContain(name);
      expect(s3!.storedFiles().some((path) => path.includes(`${target.id}/${name}`))).toBe(true);
    } else {
      expect(onDisk).toContain(name);
    }
    const file = await distributorA.inject({
      method: 'GET',
      url: fileUrl,
      headers: { range: 'bytes=0-7' },
    });
    expect(file.statusCode).toBe(206);
    expect(file.headers['content-range']).toBe(`bytes 0-7/${png.length}`);
    expect(file.rawPayload.equals(png.subarray(0, 8))).toBe(true);
  });
});
