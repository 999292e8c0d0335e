import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { authTokens, outbox, users } from '../../db/schema';
import { buildUser, testPassword } from '../../test/factories';
import { signIn, type TestContext, useTestApp } from '../../test/harness';
import { type ReceivedMessage, useTestSmtpServer } from '../../test/smtp';

const newPassword = 'Fresh-bread-2026';
const linkPattern = /http:\/\/mise\.test\/resetPassword\?token=([A-Za-z0-9_%-]+)/;

function forgot(context: TestContext, email: unknown, headers: Record<string, string> = {}) {
  return context.app.inject({
    method: 'POST',
    url: '/api/auth/password/forgot',
    headers,
    payload: { email },
  });
}

function reset(context: TestContext, token: string, password: string, confirmation = password) {
  return context.app.inject({
    method: 'POST',
    url: '/api/auth/password/reset',
    payload: { token, password, confirmation },
  });
}

function login(context: TestContext, email: string, password: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
}

function tokenOf(message: ReceivedMessage): string {
  const match = linkPattern.exec(message.body);
  if (!match) throw new Error(`no reset link in the mail:\n${message.body}`);
  return decodeURIComponent(match[1]!);
}

async function passwordHashOf(context: TestContext, userId: string): Promise<string> {
  const [row] = await context.db
    .select({ hash: users.password_hash })
    .from(users)
    .where(eq(users.id, userId));
  return row!.hash;
}

describe('lost password over SMTP', () => {
  const mail = useTestSmtpServer();
  const context = useTestApp({ env: mail.env });

  const mailTo = (email: string) =>
    mail.server.waitForMessage((message) => message.envelopeTo.includes(email));

  it('mails a link built from PUBLIC_URL, whatever Host the request carries', async () => {
    const user = await buildUser(context.db, {
      role: 'customer',
      email: 'lost@example.test',
      name: 'Lucie',
    });
    const response = await forgot(context, '  Lost@Example.TEST ', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });

    const message = await mailTo(user.email);
    expect(message.to).toContain('lost@example.test');
    expect(message.subject).toBe('Mise: reset your password / réinitialisez votre mot de passe');
    expect(message.body).toContain('Bonjour Lucie,');
    expect(message.body).toMatch(linkPattern);
    expect(message.raw).not.toContain('evil.example');
    expect(tokenOf(message)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers an unknown or disabled e-mail exactly like a known one, and mails nothing', async () => {
    const known = await buildUser(context.db, {
      role: 'manager',
      email: 'known-reset@example.test',
    });
    await buildUser(context.db, {
      role: 'manager',
      email: 'disabled-reset@example.test',
      active: false,
    });
    const tokensBefore = await context.db.select().from(authTokens);
    const outboxBefore = await context.db.select().from(outbox);

    const unknown = await forgot(context, 'nobody-here@example.test');
    const disabled = await forgot(context, 'disabled-reset@example.test');
    const knownResponse = await forgot(context, known.email);
    for (const response of [unknown, disabled]) {
      expect(response.statusCode).toBe(knownResponse.statusCode);
      expect(response.body).toBe(knownResponse.body);
    }
    // The known address's mail arrives; nothing was sent, queued or issued for the others.
    await mailTo(known.email);
    const recipients = mail.server.messages.flatMap((message) => message.envelopeTo);
    expect(recipients).not.toContain('nobody-here@example.test');
    expect(recipients).not.toContain('disabled-reset@example.test');
    const outboxAfter = await context.db.select().from(outbox);
    expect(outboxAfter.length - outboxBefore.length).toBe(1);
    expect(outboxAfter.flatMap((row) => row.recipients)).not.toContain('nobody-here@example.test');
    expect((await context.db.select().from(authTokens)).length - tokensBefore.length).toBe(1);
  });

  it('refuses an invalid e-mail with 400 auth/invalid-email and writes nothing', async () => {
    const tokensBefore = await context.db.select().from(authTokens);
    const outboxBefore = await context.db.select().from(outbox);
    for (const email of ['not-an-address', '', 42, `${'a'.repeat(250)}@example.test`]) {
      const response = await forgot(context, email);
      expect(response.statusCode, String(email)).toBe(400);
      expect(response.json().error).toEqual({
        code: 'auth/invalid-email',
        message: 'Unable to send a recovery message. Please specify a valid mail address.',
      });
    }
    expect(await context.db.select().from(authTokens)).toHaveLength(tokensBefore.length);
    expect(await context.db.select().from(outbox)).toHaveLength(outboxBefore.length);
  });

  it("the mailed token sets a new password once, ends the account's sessions, and the old password stops working", async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'reset-me@example.test' });
    const session = await signIn(context.app, user.email, testPassword);
    await forgot(context, user.email);
    const token = tokenOf(await mailTo(user.email));

    const response = await reset(context, token, newPassword);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });

    expect((await session.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const old = await login(context, user.email, testPassword);
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('auth/invalid-credentials');
    const fresh = await signIn(context.app, user.email, newPassword);
    expect((await fresh.inject({ method: 'GET', url: '/api/me' })).json().user.id).toBe(user.id);

    const hashAfterFirstUse = await passwordHashOf(context, user.id);
    const again = await reset(context, token, 'Another-loaf-2027');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toEqual({
      code: 'auth/reset-link-invalid',
      message: 'This password reset link is invalid or has expired.',
    });
    expect(await passwordHashOf(context, user.id)).toBe(hashAfterFirstUse);
    expect((await login(context, user.email, 'Another-loaf-2027')).statusCode).toBe(401);
  });

  it('refuses an expired token and changes nothing', async () => {
    const user = await buildUser(context.db, { role: 'manager', email: 'expired@example.test' });
    await forgot(context, user.email);
    const token = tokenOf(await mailTo(user.email));
    await context.db
      .update(authTokens)
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where(and(eq(authTokens.user_id, user.id), eq(authTokens.purpose, 'reset')));
    const hashBefore = await passwordHashOf(context, user.id);

    const response = await reset(context, token, newPassword);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('auth/reset-link-invalid');
    expect(await passwordHashOf(context, user.id)).toBe(hashBefore);
    expect((await login(context, user.email, testPassword)).statusCode).toBe(200);
  });

  it('refuses an unknown token and a login token used as a reset link', async () => {
    const signup = await context.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        name: 'Sam',
        surname: 'Signup',
        email: 'sam@example.test',
        password: newPassword,
        phone: '0600000000',
      },
    });
    const loginToken = signup.json().token as string;
    for (const token of ['not-a-real-token', loginToken]) {
      const response = await reset(context, token, 'Another-loaf-2027');
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('auth/reset-link-invalid');
    }
    expect((await login(context, 'sam@example.test', newPassword)).statusCode).toBe(200);
  });

  it('refuses a weak password, a mismatch and blank fields without using the link or changing anything', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'picky@example.test' });
    const session = await signIn(context.app, user.email, testPassword);
    await forgot(context, user.email);
    const token = tokenOf(await mailTo(user.email));
    const hashBefore = await passwordHashOf(context, user.id);

    const cases: [string, string, string][] = [
      ['azerty123', 'azerty123', 'auth/weak-password'],
      ['short1', 'short1', 'auth/weak-password'],
      [newPassword, 'Fresh-bread-2027', 'auth/passwords-do-not-match'],
      ['   ', '   ', 'auth/password-required'],
    ];
    for (const [password, confirmation, code] of cases) {
      const response = await reset(context, token, password, confirmation);
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    expect(await passwordHashOf(context, user.id)).toBe(hashBefore);
    expect((await session.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200);
    const [row] = await context.db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.user_id, user.id), eq(authTokens.purpose, 'reset')));
    expect(row!.used_at).toBeNull();
    // The link still works once a valid password is chosen.
    expect((await reset(context, token, newPassword)).statusCode).toBe(200);
  });

  it('keeps only a hash of the reset token, and not the mailed body, in the database', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'hashed@example.test' });
    await forgot(context, user.email);
    const message = await mailTo(user.email);
    const token = tokenOf(message);

    const tokenRows = await context.db.select().from(authTokens);
    const own = tokenRows.filter((row) => row.user_id === user.id);
    expect(own).toHaveLength(1);
    expect(own[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(tokenRows)).not.toContain(token);

    await vi.waitFor(async () => {
      const rows = await context.db.select().from(outbox);
      const row = rows.find((candidate) => candidate.recipients.includes(user.email));
      expect(row?.status).toBe('sent');
    });
    const rows = await context.db.select().from(outbox);
    const row = rows.find((candidate) => candidate.recipients.includes(user.email))!;
    expect(row.subject).toBe(message.subject);
    expect(row.body).toBe('[sent by SMTP, body not kept]');
    expect(row.html).toBeNull();
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('lost password throttling', () => {
  const context = useTestApp();

  it('sends at most 5 reset links an hour to one account, with the same answer after', async () => {
    const user = await buildUser(context.db, { role: 'customer' });
    for (let attempt = 0; attempt < 7; attempt++) {
      const response = await forgot(context, user.email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    }
    const tokens = await context.db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.user_id, user.id), eq(authTokens.purpose, 'reset')));
    expect(tokens).toHaveLength(5);
    await vi.waitFor(async () => {
      const mails = await context.db.select().from(outbox);
      expect(mails.filter((mail) => mail.recipients.includes(user.email))).toHaveLength(5);
    });
  });
});

describe('lost password without SMTP', () => {
  const context = useTestApp();

  it('keeps the message, with its link, in the outbox table', async () => {
    const user = await buildUser(context.db, { role: 'customer', email: 'outbox@example.test' });
    const response = await forgot(context, user.email, { host: 'evil.example' });
    expect(response.statusCode).toBe(200);

    const row = await vi.waitFor(async () => {
      const [found] = await context.db.select().from(outbox);
      if (!found) throw new Error('no outbox row yet');
      return found;
    });
    expect(row).toMatchObject({ recipients: ['outbox@example.test'], status: 'logged' });
    expect(row.body).toMatch(linkPattern);
    expect(row.body).not.toContain('evil.example');
    const token = decodeURIComponent(linkPattern.exec(row.body)![1]!);
    expect((await reset(context, token, newPassword)).statusCode).toBe(200);
    expect((await login(context, user.email, newPassword)).statusCode).toBe(200);
  });
});
