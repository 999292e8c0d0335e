import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors';
import { registerTabletApp } from './tablet-app';
import { registerWebApp } from './web-app';

/** Two builds as Vite writes them: the web app's and the tablet app's (with its service worker). */
function writeBuilds(): { web: string; tablet: string } {
  const web = mkdtempSync(join(tmpdir(), 'mise-web-dist-'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>back-office</title>');
  const tablet = mkdtempSync(join(tmpdir(), 'mise-tablet-dist-'));
  mkdirSync(join(tablet, 'assets'));
  writeFileSync(join(tablet, 'index.html'), '<!doctype html><title>tablet</title>');
  writeFileSync(join(tablet, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  const script = `console.log(${JSON.stringify('tablet '.repeat(400))});`;
  writeFileSync(join(tablet, 'assets', 'index-Zx98Yw76.js'), script);
  writeFileSync(join(tablet, 'assets', 'index-Zx98Yw76.js.br'), brotliCompressSync(script));
  return { web, tablet };
}

describe('serving the built tablet app at /tablet/', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    const builds = writeBuilds();
    app = Fastify({ logger: false });
    registerErrorHandling(app);
    expect(await registerTabletApp(app, builds.tablet)).toBe(true);
    expect(await registerWebApp(app, builds.web)).toBe(true);
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers the app page at /tablet/ (and any path under it), revalidated; /tablet moves there', async () => {
    const moved = await app.inject({ url: '/tablet' });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/tablet/');
    for (const url of ['/tablet/', '/tablet/some/screen']) {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>tablet</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    // The back-office keeps its own page.
    expect((await app.inject({ url: '/home' })).body).toContain('<title>back-office</title>');
  });

  it('sends hashed assets precompressed for a year, the service worker revalidated', async () => {
    const asset = await app.inject({
      url: '/tablet/assets/index-Zx98Yw76.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await app.inject({ url: '/tablet/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a chunk of an earlier build, not the page', async () => {
    const missing = await app.inject({ url: '/tablet/assets/index-Old00000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<title>tablet</title>');
  });

  it('has nothing to serve without a build', async () => {
    const bare = Fastify({ logger: false });
    expect(await registerTabletApp(bare, mkdtempSync(join(tmpdir(), 'mise-no-dist-')))).toBe(false);
    await bare.close();
  });
});
