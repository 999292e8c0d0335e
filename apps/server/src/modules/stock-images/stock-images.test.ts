import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/** With the default configuration (no STOCK_IMAGES_API_KEY) the search is disabled. */
const context = useTestApp();
let customer: Agent;

beforeAll(async () => {
  const user = await buildUser(context.db, { role: 'customer' });
  customer = await signIn(context.app, user.email, testPassword);
});

describe('GET /api/stockImages without a provider', () => {
  it('answers 401 to a signed-out caller', async () => {
    const response = await context.app.inject({ url: '/api/stockImages?query=apple' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it('refuses a missing or empty query', async () => {
    for (const url of ['/api/stockImages', '/api/stockImages?query=%20%20']) {
      const response = await customer.inject({ url });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });

  it('answers configured:false and no item', async () => {
    const response = await customer.inject({ url: '/api/stockImages?query=apple' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ configured: false, items: [] });
  });
});
