import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { buildUser, testPassword } from '../test/factories';
import { signIn } from '../test/harness';
import { registerErrorHandling } from './errors';
import { registerWebApp } from './web-app';

/** A build as Vite writes it: index.html, hashed assets with their .br and .gz. */
function writeBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), 'mise-web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><script type="module" src="/assets/index-Ab12Cd34.js"></script>',
  );
  const script = `console.log(${JSON.stringify('mise '.repeat(400))});`;
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
  return dist;
}

describe('serving the built web app', () => {
  let app: FastifyInstance;
  const script = `console.log(${JSON.stringify('mise '.repeat(400))});`;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerErrorHandling(app);
    expect(await registerWebApp(app, writeBuild())).toBe(true);
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends a hashed asset brotli-compressed and cached for a year', async () => {
    const response = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a browser without brotli, and the plain file to one without either', async () => {
    const gzipped = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(script);
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers index.html uncached (no-cache) for the app routes and for /index.html', async () => {
    for (const url of ['/', '/home', '/stores?search=lyon', '/no-such-page', '/index.html']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toContain('/assets/index-Ab12Cd34.js');
    }
  });

  it('answers 404 for an unknown asset (a chunk of an earlier build) and an unknown API path', async () => {
    for (const url of ['/assets/index-Old00000.js', '/api/nothing-here']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('not-found');
    }
  });
});

describe("index.html's preloads for the first screen", () => {
  const hint = (file: string, when: string) =>
    `<link rel="modulepreload" crossorigin href="/assets/${file}" data-preload-when="${when}">`;
  const indexHtml = `<!doctype html><head>${hint('fr-1.js', 'language:fr')}${hint('en-1.js', 'language:en')}${hint('de-1.js', 'language:de')}${hint('pl-1.js', 'language:pl')}${hint('layout-1.js', 'signed-in')}</head>`;
  const preloads = (html: string) =>
    [...html.matchAll(/href="\/assets\/([^"]+)"/g)].map((match) => match[1]);
  let app: FastifyInstance;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'mise-web-dist-'));
    writeFileSync(join(dist, 'index.html'), indexHtml);
    app = Fastify({ logger: false });
    registerErrorHandling(app);
    expect(await registerWebApp(app, dist)).toBe(true);
    await app.ready();
  });
  afterAll(() => app.close());

  it("keeps the browser's first offered language only, English when none is offered", async () => {
    const cases: [string | undefined, string][] = [
      ['pl-PL,pl;q=0.9,en;q=0.8', 'pl-1.js'],
      ['es-ES,de;q=0.8', 'de-1.js'],
      ['es-ES', 'en-1.js'],
      [undefined, 'en-1.js'],
    ];
    for (const [acceptLanguage, file] of cases) {
      const response = await app.inject({
        url: '/login',
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      expect(preloads(response.body), acceptLanguage).toEqual([file]);
      expect(response.headers.vary).toMatch(/accept-language/);
    }
  });

  it("prefers the stored choice (language cookie) and adds the layout for a session's visitor", async () => {
    const response = await app.inject({
      url: '/home',
      headers: { 'accept-language': 'en-US', cookie: 'mise_language=fr; mise_session=abc' },
    });
    expect(preloads(response.body)).toEqual(['fr-1.js', 'layout-1.js']);
    const signedOut = await app.inject({
      url: '/home',
      headers: { 'accept-language': 'en-US', cookie: 'mise_language=xx' },
    });
    expect(preloads(signedOut.body)).toEqual(['en-1.js']);
  });
});

describe("a signed-in visitor's index.html carries the first screen's data", () => {
  const bootstrapPattern = /<script type="application\/json" id="mise-bootstrap">(.*?)<\/script>/s;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let alice: { id: string; email: string };
  let bob: { id: string; email: string };

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'mise-web-dist-'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html><head><title>Mise</title></head><body><div id="root"></div></body></html>',
    );
    database = await openDatabase({ driver: 'pglite' });
    await runMigrations(database);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-test-')),
      PUBLIC_URL: 'http://mise.test',
    });
    app = await buildApp({ config, database, logger: false, isServingWeb: true, webDist: dist });
    await app.ready();
    alice = await buildUser(database.db, {
      role: 'admin',
      name: '</script><script>alert(1)</script>',
      surname: 'A & B <!-- \u2028\u2029',
    });
    bob = await buildUser(database.db, { role: 'manager', name: 'Bob' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const bootstrapOf = (html: string) => {
    const match = bootstrapPattern.exec(html);
    return match ? JSON.parse(match[1]!) : null;
  };

  it('holds the user as GET /api/me answers it and the demo status, never cached, without secrets', async () => {
    const agent = await signIn(app, alice.email, testPassword);
    const response = await app.inject({ url: '/home', headers: { cookie: agent.cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toMatch(/cookie/);
    const me = await agent.inject({ method: 'GET', url: '/api/me' });
    const demo = await app.inject({ method: 'GET', url: '/api/demo' });
    const bootstrap = bootstrapOf(response.body);
    expect(bootstrap).toEqual({ me: me.json(), demo: demo.json() });
    expect(bootstrap.me.user.id).toBe(alice.id);
    // No password hash, session token or CSRF secret.
    expect(response.body).not.toMatch(/password_hash|token|csrf|secret/i);
    expect(response.body).not.toContain(agent.cookie.split('=')[1]);
    expect(response.body).not.toContain(agent.csrf);
    expect(response.body.indexOf('mise-bootstrap')).toBeLessThan(response.body.indexOf('</head>'));
  });

  it('escapes the data: a name holding </script><script> stays text, < > & and U+2028/9 as \\u', async () => {
    const agent = await signIn(app, alice.email, testPassword);
    const response = await app.inject({ url: '/home', headers: { cookie: agent.cookie } });
    const element = bootstrapPattern.exec(response.body)![1]!;
    expect(element).not.toMatch(/[<>&\u2028\u2029]/);
    expect(element).toContain('\\u003c/script\\u003e\\u003cscript\\u003e');
    expect(response.body.match(/<script/g)).toHaveLength(1);
    expect(bootstrapOf(response.body).me.user.name).toBe('</script><script>alert(1)</script>');
    expect(bootstrapOf(response.body).me.user.surname).toBe('A & B <!-- \u2028\u2029');
  });

  it("gives another user's cookie that user's own data", async () => {
    const aliceAgent = await signIn(app, alice.email, testPassword);
    const bobAgent = await signIn(app, bob.email, testPassword);
    const forAlice = await app.inject({ url: '/home', headers: { cookie: aliceAgent.cookie } });
    const forBob = await app.inject({ url: '/home', headers: { cookie: bobAgent.cookie } });
    expect(bootstrapOf(forBob.body).me.user.id).toBe(bob.id);
    expect(bootstrapOf(forBob.body).me.user.name).toBe('Bob');
    expect(forBob.body).not.toContain(alice.email);
    expect(bootstrapOf(forAlice.body).me.user.id).toBe(alice.id);
  });

  it('gives the plain page to a visitor without a session or with a bad or ended one', async () => {
    const agent = await signIn(app, alice.email, testPassword);
    await agent.inject({ method: 'POST', url: '/api/auth/logout' });
    for (const cookie of [undefined, 'mise_session=not-a-session', agent.cookie]) {
      const response = await app.inject({ url: '/home', headers: cookie ? { cookie } : {} });
      expect(response.statusCode, cookie).toBe(200);
      expect(response.headers['cache-control'], cookie).toBe('no-cache');
      expect(response.body, cookie).not.toContain('mise-bootstrap');
      expect(response.body, cookie).toContain('<div id="root"></div>');
    }
  });
});

describe('without a build', () => {
  it('serves nothing', async () => {
    const app = Fastify({ logger: false });
    expect(await registerWebApp(app, mkdtempSync(join(tmpdir(), 'mise-no-dist-')))).toBe(false);
    await app.close();
  });
});
