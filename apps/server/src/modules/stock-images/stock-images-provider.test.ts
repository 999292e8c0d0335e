import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/**
 * A configured provider (STOCK_IMAGES_API_KEY, STOCK_IMAGES_URL) served by a loopback
 * stand-in for Pexels: the configuration reaches the route through createIntegrations.
 */
const searches: { query: string | null; authorization?: string }[] = [];
let server: Server;
const env: Record<string, string> = { STOCK_IMAGES_API_KEY: 'route-test-key' };

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const query = url.searchParams.get('query');
    searches.push({ query, authorization: request.headers.authorization });
    if (url.pathname !== '/v1/search' || query === 'fail') {
      response.writeHead(503).end();
      return;
    }
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        photos: [{ id: 7, src: { medium: `${origin}/p/7-m.jpeg`, large: `${origin}/p/7-l.jpeg` } }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env.STOCK_IMAGES_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Registered after the stand-in's beforeAll: the app is built once STOCK_IMAGES_URL is known.
const context = useTestApp({ env });
let manager: Agent;

beforeAll(async () => {
  const user = await buildUser(context.db, { role: 'manager' });
  manager = await signIn(context.app, user.email, testPassword);
});

describe('GET /api/stockImages with a provider', () => {
  it('answers 401 to a signed-out caller and asks the provider nothing', async () => {
    searches.length = 0;
    const response = await context.app.inject({ url: '/api/stockImages?query=apple' });
    expect(response.statusCode).toBe(401);
    expect(searches).toHaveLength(0);
  });

  it('answers the provider items', async () => {
    searches.length = 0;
    const response = await manager.inject({
      url: '/api/stockImages?query=cr%C3%A8me%20br%C3%BBl%C3%A9e',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      configured: true,
      items: [
        {
          id: '7',
          thumbnail_url: `${env.STOCK_IMAGES_URL}/p/7-m.jpeg`,
          url: `${env.STOCK_IMAGES_URL}/p/7-l.jpeg`,
        },
      ],
    });
    expect(searches).toEqual([{ query: 'crème brûlée', authorization: 'route-test-key' }]);
  });

  it('answers 502 stock-images/failed when the provider fails', async () => {
    const response = await manager.inject({ url: '/api/stockImages?query=fail' });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('stock-images/failed');
  });
});
