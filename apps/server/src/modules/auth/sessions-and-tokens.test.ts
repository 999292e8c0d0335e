import { maxFailuresPerAccountPerHour } from '@mise/shared/auth/constants';
import { and, asc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginFailures, outbox } from '../../db/schema';
import { buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import {
  agentFromCookie,
  sessionCookieOf,
  signIn,
  type TestContext,
  useTestApp,
} from '../../test/harness';

/** Issue 13, point 12: sessions and tokens. */
const context = useTestApp();

let address = 0;
/** Each call from its own client address unless one is given (the per-address limits). */
function login(
  email: string,
  password: string,
  remoteAddress = `192.0.2.${++address}`,
  extra: object = {},
) {
  return context.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    payload: { email, password, ...extra },
  });
}

async function resetLinksOf(context: TestContext, email: string): Promise<string[]> {
  // The reset mail is sent without being awaited: wait for the outbox rows.
  for (let wait = 0; wait < 50; wait++) {
    const rows = await context.db
      .select({ body: outbox.body, recipients: outbox.recipients })
      .from(outbox)
      .where(like(outbox.subject, '%password%'))
      .orderBy(asc(outbox.created_at));
    const mine = rows.filter((row) => row.recipients.includes(email));
    if (mine.length) {
      return mine.map((row) => {
        const match = /resetPassword\?token=([A-Za-z0-9_%-]+)/.exec(row.body);
        return decodeURIComponent(match![1]!);
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [];
}

async function requestReset(email: string, count: number): Promise<string[]> {
  let links: string[] = [];
  for (let index = 0; index < count; index++) {
    await context.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      remoteAddress: `198.18.0.${++address}`,
      payload: { email },
    });
    for (let wait = 0; wait < 50 && links.length <= index; wait++) {
      links = await resetLinksOf(context, email);
      if (links.length <= index) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return links;
}

const reset = (token: string, password: string) =>
  context.app.inject({
    method: 'POST',
    url: '/api/auth/password/reset',
    remoteAddress: `198.19.0.${++address}`,
    payload: { token, password, confirmation: password },
  });

describe('deactivating an account', () => {
  it('ends its sessions and login links: re-activating it revives none', async () => {
    const tenants = await buildTwoTenants(context.db);
    const distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
    const customer = tenants.a.users.customer;
    const session = await signIn(context.app, customer.email, testPassword);
    const loginToken = (
      await distributor.inject({
        method: 'POST',
        url: '/api/auth/createToken',
        payload: { UId: customer.id },
      })
    ).json().token as string;

    const patch = async (active: boolean) => {
      const current = await distributor.inject({ method: 'GET', url: `/api/users/${customer.id}` });
      const response = await distributor.inject({
        method: 'PATCH',
        url: `/api/users/${customer.id}`,
        payload: { version: current.json().user.version, active },
      });
      expect(response.statusCode).toBe(200);
    };
    await patch(false);
    expect((await session.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    await patch(true);
    // The old session and the login link created before stay dead.
    expect((await session.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const exchange = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token: loginToken },
    });
    expect(exchange.statusCode).toBe(401);
    // A fresh sign-in works again.
    expect((await login(customer.email, testPassword)).statusCode).toBe(200);
  });
});

describe('password reset links', () => {
  it('die when another link of the account is used', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'two-links@example.test' });
    const [first, second] = await requestReset(user.email, 2);
    expect(first && second && first !== second).toBe(true);
    expect((await reset(second!, 'Fresh-bread-2026')).statusCode).toBe(200);
    const stale = await reset(first!, 'Stolen-bread-2026');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe('auth/reset-link-invalid');
    expect((await login(user.email, 'Fresh-bread-2026')).statusCode).toBe(200);
    expect((await login(user.email, 'Stolen-bread-2026')).statusCode).toBe(401);
  });

  it('die when the password is changed', async () => {
    const user = await buildUser(context.db, {
      role: 'customer',
      email: 'changed-after-link@example.test',
    });
    const [link] = await requestReset(user.email, 1);
    const agent = await signIn(context.app, user.email, testPassword);
    const change = await agent.inject({
      method: 'POST',
      url: '/api/auth/password/change',
      payload: {
        current_password: testPassword,
        password: 'Fresh-bread-2026',
        confirmation: 'Fresh-bread-2026',
      },
    });
    expect(change.statusCode).toBe(200);
    const stale = await reset(link!, 'Stolen-bread-2026');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe('auth/reset-link-invalid');
  });
});

describe('changing the password', () => {
  it("asks for the current one: a distributor's login-token session cannot lock the owner out", async () => {
    const tenants = await buildTwoTenants(context.db);
    const distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
    const owner = tenants.a.users.customer;
    const { token } = (
      await distributor.inject({
        method: 'POST',
        url: '/api/auth/createToken',
        payload: { UId: owner.id },
      })
    ).json();
    const exchange = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token },
    });
    const asOwner = await agentFromCookie(
      context.app,
      sessionCookieOf(exchange.headers['set-cookie']),
    );
    const change = (payload: object) =>
      asOwner.inject({ method: 'POST', url: '/api/auth/password/change', payload });
    const without = await change({ password: 'Taken-over-2026', confirmation: 'Taken-over-2026' });
    expect(without.statusCode).toBe(400);
    expect(without.json().error.code).toBe('validation/invalid-input');
    const wrong = await change({
      current_password: 'a-guess-1',
      password: 'Taken-over-2026',
      confirmation: 'Taken-over-2026',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('auth/wrong-current-password');
    // The owner still signs in with the password they know.
    expect((await login(owner.email, testPassword)).statusCode).toBe(200);
    expect((await login(owner.email, 'Taken-over-2026')).statusCode).toBe(401);
  });
});

describe('sign-in throttling', () => {
  it('answers 429 with a Retry-After header', async () => {
    const from = '203.0.113.77';
    for (let attempt = 0; attempt < 30; attempt++) {
      await login(`nobody${attempt}@example.test`, 'wrong-password', from);
    }
    const blocked = await login('nobody@example.test', 'wrong-password', from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('auth/too-many-attempts');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it("the rate limiter's 429 carries Retry-After too", async () => {
    let last = null as Awaited<ReturnType<typeof context.app.inject>> | null;
    for (let attempt = 0; attempt < 21; attempt++) {
      last = await context.app.inject({
        method: 'GET',
        url: '/api/auth/email-exists?email=someone%40example.test',
        remoteAddress: '203.0.113.78',
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json().error.code).toBe('rate-limit');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("a stranger's flood on an account does not lock its owner out after one typo", async () => {
    const owner = await buildUser(context.db, { role: 'customer', email: 'flooded@example.test' });
    // A stranger failed 100 times within the hour, from many addresses.
    await context.db.insert(loginFailures).values(
      Array.from({ length: maxFailuresPerAccountPerHour }, (_, index) => ({
        email: owner.email,
        address: `10.66.${Math.floor(index / 250)}.${index % 250}`,
      })),
    );
    const home = '198.51.100.200';
    const typo = await login(owner.email, 'Correct-horse-24', home);
    expect(typo.statusCode).toBe(401);
    expect((await login(owner.email, testPassword, home)).statusCode).toBe(200);
    // An address that keeps failing on the flooded account is throttled.
    const stranger = '198.51.100.201';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login(owner.email, `guess-${attempt}`, stranger)).statusCode).toBe(401);
    }
    const refused = await login(owner.email, testPassword, stranger);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const left = await context.db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.email, owner.email), eq(loginFailures.address, home)));
    expect(left).toEqual([]);
  });
});
