import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { buildUser, testPassword } from '../../test/factories';
import { agentFromCookie, sessionCookieOf, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

describe('POST /api/auth/login', () => {
  it('signs in with a lowercased e-mail, sets an httpOnly session cookie and answers the user', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'chef@example.test' });
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: '  Chef@Example.TEST ', password: testPassword },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      id: user.id,
      email: 'chef@example.test',
      role: 'customer',
    });
    expect(response.body).not.toContain('password_hash');
    const cookie = [response.headers['set-cookie']].flat().join(';');
    expect(cookie).toMatch(/mise_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('answers the same for a wrong password and an unknown e-mail', async () => {
    await buildUser(context.db, { role: 'customer', email: 'known@example.test' });
    const wrong = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'known@example.test', password: 'not-the-password' },
    });
    const unknown = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.test', password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toEqual({
      code: 'auth/invalid-credentials',
      message: 'Adresse email ou mot de passe incorrect.',
    });
  });

  it('refuses a disabled account with the wrong-login answer', async () => {
    await buildUser(context.db, { role: 'customer', email: 'off@example.test', active: false });
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'off@example.test', password: testPassword },
    });
    expect(response.statusCode).toBe(401);
  });

  it('rejects bad input with a validation code and writes no session', async () => {
    const before = await context.db.select().from(sessions);
    for (const payload of [
      {},
      { email: 'x@example.test' },
      { email: 42, password: 'x' },
      { email: 'a@b.test', password: 'x', extra: 1 },
      { email: `${'a'.repeat(300)}@b.test`, password: 'x' },
    ]) {
      const response = await context.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await context.db.select().from(sessions)).toHaveLength(before.length);
  });

  it('throttles an address after 30 failures in 15 minutes, but not the owner elsewhere', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'target@example.test' });
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await context.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.9',
        payload: { email: `guess${attempt}@example.test`, password: 'wrong-password' },
      });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '203.0.113.9',
      payload: { email: user.email, password: testPassword },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('auth/too-many-attempts');
    const owner = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.7',
      payload: { email: user.email, password: testPassword },
    });
    expect(owner.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('GET /api/me answers 401 without a session and the user with one', async () => {
    const anonymous = await context.app.inject({ method: 'GET', url: '/api/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('auth/unauthenticated');
    const user = await buildUser(context.db, { role: 'manager' });
    const agent = await signIn(context.app, user.email, testPassword);
    const me = await agent.inject({ method: 'GET', url: '/api/me' });
    expect(me.json().user.id).toBe(user.id);
  });

  it('stores only a hash of the session token', async () => {
    const user = await buildUser(context.db, { role: 'manager' });
    const agent = await signIn(context.app, user.email, testPassword);
    const token = agent.cookie.split('=')[1]!;
    const rows = await context.db.select().from(sessions).where(eq(sessions.user_id, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('logout ends the session', async () => {
    const user = await buildUser(context.db, { role: 'manager' });
    const agent = await signIn(context.app, user.email, testPassword);
    const logout = await agent.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(logout.statusCode).toBe(200);
    const me = await agent.inject({ method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(401);
  });

  it('a disabled account loses its sessions at once', async () => {
    const user = await buildUser(context.db, { role: 'manager' });
    const agent = await signIn(context.app, user.email, testPassword);
    await context.db.update(users).set({ active: false }).where(eq(users.id, user.id));
    expect((await agent.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('cookie writes need the session CSRF token and a same-origin Origin; bearer writes do not', async () => {
    const user = await buildUser(context.db, { role: 'customer' });
    const agent = await signIn(context.app, user.email, testPassword);
    const patch = {
      method: 'PATCH' as const,
      url: `/api/users/${user.id}`,
      payload: { version: 0, name: 'Renamed' },
    };
    const withoutToken = await context.app.inject({ ...patch, headers: { cookie: agent.cookie } });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json().error.code).toBe('auth/csrf');
    const crossOrigin = await agent.inject({
      ...patch,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossOrigin.statusCode).toBe(403);
    const [row] = await context.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.name).toBe('Test');
    const ok = await agent.inject({ ...patch, headers: { origin: 'http://mise.test' } });
    expect(ok.statusCode).toBe(200);
    const bearer = await context.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: { authorization: `Bearer ${agent.cookie.split('=')[1]}` },
      payload: { version: 1, name: 'By bearer' },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().user.name).toBe('By bearer');
  });
});

describe('POST /api/auth/signup and token sign-in', () => {
  const form = {
    name: 'Nina',
    surname: 'Nouvelle',
    email: 'Nina@Example.test',
    password: 'Fresh-bread-2026',
    phone: '+33 6 00 00 00 00',
    distributorId: null,
    databaseId: null,
    storeId: null,
    role: 'customer',
  };

  it('creates a customer and answers a token that POST /api/auth exchanges once for a session', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: form,
    });
    expect(response.statusCode).toBe(200);
    const { status, token } = response.json();
    expect(status).toBe('ok');
    const [created] = await context.db
      .select()
      .from(users)
      .where(eq(users.email, 'nina@example.test'));
    expect(created).toMatchObject({
      role: 'customer',
      name: 'Nina',
      phone_number: '+33 6 00 00 00 00',
    });
    const exchange = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token },
    });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.json()).toMatchObject({ status: 'ok', user: { email: 'nina@example.test' } });
    const agent = await agentFromCookie(
      context.app,
      sessionCookieOf(exchange.headers['set-cookie']),
    );
    expect((await agent.inject({ method: 'GET', url: '/api/me' })).json().user.id).toBe(
      created!.id,
    );
    const again = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token },
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toEqual({
      code: 'auth/invalid-token',
      message: 'Unable to authentificate using Mise token.',
    });
  });

  it('refuses a second account on the same e-mail, a weak password, another role and missing fields', async () => {
    await buildUser(context.db, { role: 'customer', email: 'taken@example.test' });
    const cases: [object, number, string][] = [
      [{ ...form, email: 'TAKEN@example.test' }, 409, 'auth/email-already-in-use'],
      [{ ...form, email: 'weak@example.test', password: 'password' }, 400, 'auth/weak-password'],
      [{ ...form, email: 'role@example.test', role: 'admin' }, 400, 'validation/invalid-input'],
      [
        { ...form, email: 'ids@example.test', storeId: '6d1f20bf-32ec-4efa-9a40-4811ac628e9d' },
        400,
        'validation/invalid-input',
      ],
      [{ ...form, email: 'blank@example.test', name: '   ' }, 400, 'validation/invalid-input'],
      [
        { ...form, email: 'long@example.test', surname: 'x'.repeat(101) },
        400,
        'validation/invalid-input',
      ],
    ];
    for (const [payload, status, code] of cases) {
      const response = await context.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    const created = await context.db.select().from(users);
    for (const email of [
      'weak@example.test',
      'role@example.test',
      'ids@example.test',
      'blank@example.test',
      'long@example.test',
    ]) {
      expect(created.find((row) => row.email === email)).toBeUndefined();
    }
  });
});

describe('password change', () => {
  it('requires both fields, equal, and a strong password; then clears new_password_required', async () => {
    const user = await buildUser(context.db, { role: 'manager', new_password_required: true });
    const agent = await signIn(context.app, user.email, testPassword);
    const change = (password: string, confirmation: string) =>
      agent.inject({
        method: 'POST',
        url: '/api/auth/password/change',
        payload: { current_password: testPassword, password, confirmation },
      });
    expect((await change('  ', '  ')).json().error).toEqual({
      code: 'auth/password-required',
      message: 'Veuillez renseigner une valeur pour le mot de passe.',
    });
    expect((await change('Fresh-bread-2026', 'Fresh-bread-2027')).json().error.message).toBe(
      'Les deux mot de passes ne correspondent pas.',
    );
    expect((await change('azerty123', 'azerty123')).json().error.message).toBe(
      'Votre mot de passe est trop faible. Veuillez choisir un mot de passe plus sécurisé.',
    );
    const ok = await change('Fresh-bread-2026', 'Fresh-bread-2026');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.new_password_required).toBe(false);
    expect((await signIn(context.app, user.email, 'Fresh-bread-2026')).cookie).toMatch(
      /mise_session/,
    );
  });

  it('refuses a change long after sign-in with requires-recent-login', async () => {
    const user = await buildUser(context.db, { role: 'manager' });
    const agent = await signIn(context.app, user.email, testPassword);
    await context.db
      .update(sessions)
      .set({ created_at: new Date(Date.now() - 2 * 3600 * 1000) })
      .where(eq(sessions.user_id, user.id));
    const response = await agent.inject({
      method: 'POST',
      url: '/api/auth/password/change',
      payload: {
        current_password: testPassword,
        password: 'Fresh-bread-2026',
        confirmation: 'Fresh-bread-2026',
      },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/requires-recent-login');
  });

  it('"change password" on one\'s own account flags it and ends every session', async () => {
    const user = await buildUser(context.db, { role: 'customer' });
    const agent = await signIn(context.app, user.email, testPassword);
    const other = await signIn(context.app, user.email, testPassword);
    const response = await agent.inject({
      method: 'POST',
      url: '/api/auth/password/require-change',
    });
    expect(response.statusCode).toBe(200);
    expect((await other.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const again = await signIn(context.app, user.email, testPassword);
    expect(
      (await again.inject({ method: 'GET', url: '/api/me' })).json().user.new_password_required,
    ).toBe(true);
  });
});
