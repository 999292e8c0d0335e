import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { variantKey } from './image-variants';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributorA: Agent;
let distributorB: Agent;
let url: string;

function multipart(data: Buffer) {
  const boundary = `----mise${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    'Content-Disposition: form-data; name="file"; filename="photo.png"\r\n' +
    'Content-Type: image/png\r\n\r\n';
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  const photo = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  const response = await distributorA.inject({
    method: 'POST',
    url: `/api/users/${tenants.a.users.distributor.id}/illustration`,
    ...multipart(photo),
  });
  expect(response.statusCode, response.body).toBe(200);
  url = response.json().user.illustration_url;
});

describe('image variants (spec 000 §7)', () => {
  it('serves a 128-wide thumbnail by default, any width or height asked, made once and kept', async () => {
    const thumb = await distributorA.inject({ method: 'GET', url: `${url}?size=thumb` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([128, 96]);

    const boxed = await distributorA.inject({ method: 'GET', url: `${url}?w=300&h=100` });
    const boxedMeta = await sharp(boxed.rawPayload).metadata();
    expect([boxedMeta.width, boxedMeta.height]).toEqual([133, 100]);

    const key = url.replace('/api/files/', '');
    const stored = variantKey(key, { width: 128, height: undefined, watermark: false });
    expect(await context.app.deps.storage.stat(stored)).not.toBeNull();
    // Never enlarged past the original.
    const big = await distributorA.inject({ method: 'GET', url: `${url}?w=2000` });
    expect((await sharp(big.rawPayload).metadata()).width).toBe(800);
  });

  it('marks a watermarked variant, and keeps the access rules of the original', async () => {
    const plain = await distributorA.inject({ method: 'GET', url: `${url}?w=400` });
    const marked = await distributorA.inject({ method: 'GET', url: `${url}?w=400&watermark=true` });
    expect(marked.statusCode).toBe(200);
    const [a, b] = await Promise.all(
      [plain, marked].map((response) => sharp(response.rawPayload).raw().toBuffer()),
    );
    expect(a!.equals(b!)).toBe(false);
    expect(
      (await distributorB.inject({ method: 'GET', url: `${url}?size=thumb` })).statusCode,
    ).toBe(404);
    const bad = await distributorA.inject({ method: 'GET', url: `${url}?w=5` });
    expect(bad.statusCode).toBe(400);
  });
});
