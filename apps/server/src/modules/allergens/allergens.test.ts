import { allergensPdfMaxElements } from '@mise/shared/catalogue/constants';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseElements } from '../../db/schema';
import { buildDatabase, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/** GET /api/pdf/allergens: query validation, row cap and rate limit (spec 001 §2.8). */
const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
});

describe('GET /api/pdf/allergens', () => {
  it('needs exactly one of databaseId and storeId and a known language (400)', async () => {
    const databaseId = tenants.a.database.id;
    const storeId = tenants.a.stores[0]!.id;
    for (const query of [
      `databaseId=${databaseId}&storeId=${storeId}`,
      '',
      `databaseId=${databaseId}&lang=es`,
    ]) {
      const response = await admin.inject({ method: 'GET', url: `/api/pdf/allergens?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });

  it(`refuses more than ${allergensPdfMaxElements} elements with a clear message`, async () => {
    const database = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    await context.db.insert(databaseElements).values(
      Array.from({ length: allergensPdfMaxElements + 1 }, (_, index) => ({
        database_id: database.id,
        name: `Element ${index}`,
        allergens: ['egg' as const],
      })),
    );
    const response = await admin.inject({
      method: 'GET',
      url: `/api/pdf/allergens?databaseId=${database.id}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'validation/invalid-input',
      message: expect.stringContaining(`at most ${allergensPdfMaxElements}`),
    });
  });

  it('answers 429 beyond 10 PDFs a minute', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      const response = await admin.inject({
        method: 'GET',
        url: `/api/pdf/allergens?databaseId=${tenants.a.database.id}`,
      });
      statuses.push(response.statusCode);
    }
    // The requests of the tests above count in the same minute.
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(10);
  });
});
