import {
  acceptInvitationBodySchema,
  changePasswordBodySchema,
  createTokenBodySchema,
  createTokenResponseSchema,
  csrfResponseSchema,
  demoStatusResponseSchema,
  emailSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  registerAccountBodySchema,
  resetPasswordBodySchema,
  signupBodySchema,
  signupResponseSchema,
  statusOkSchema,
  tokenSignInBodySchema,
} from '@mise/shared/auth/schemas';
import { userResponseSchema, userSchema } from '@mise/shared/users/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasDemoAccounts } from '../../db/seed/demo-policy';
import {
  clearSessionCookie,
  requireAuth,
  setSessionCookie,
} from '../../platform/auth/request-auth';
import { deleteSession } from '../../platform/auth/sessions';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { findUserByEmail, presentUser } from '../users/users.service';
import * as auth from './auth.service';

const authLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config } = deps;

  app.post(
    '/auth/login',
    {
      config: authLimit,
      schema: { tags, body: loginBodySchema, response: { 200: userResponseSchema } },
    },
    async (request, reply) => {
      const { token, user } = await auth.login({ db }, { ...request.body, address: request.ip });
      setSessionCookie(reply, token, config);
      return { user: await presentUser(db, user) };
    },
  );

  app.post(
    '/auth/invitation',
    {
      config: authLimit,
      schema: { tags, body: acceptInvitationBodySchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      if (!(await auth.acceptInvitation({ db }, user, request.body.invitation))) {
        throw new AppError('not-found');
      }
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags, response: { 200: statusOkSchema } } },
    async (request, reply) => {
      if (request.auth) await deleteSession(db, request.auth.session.id);
      clearSessionCookie(reply, config);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/auth/csrf',
    { schema: { tags, response: { 200: csrfResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { csrfToken: request.auth?.via === 'cookie' ? request.auth.session.csrf_secret : '' };
    },
  );

  /** Whether the published demo accounts exist: the web app shows a "demo data" banner. */
  app.get(
    '/demo',
    { schema: { tags, response: { 200: demoStatusResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { hasDemoAccounts: await hasDemoAccounts(db) };
    },
  );

  app.get('/me', { schema: { tags, response: { 200: userResponseSchema } } }, async (request) => {
    const { user } = requireAuth(request);
    return { user: await presentUser(db, user) };
  });

  app.get(
    '/auth/email-exists',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        querystring: z.strictObject({ email: emailSchema }),
        response: { 200: z.object({ exists: z.boolean() }) },
      },
    },
    async (request) => ({ exists: (await findUserByEmail(db, request.query.email)) !== null }),
  );

  app.post(
    '/auth/signup',
    {
      config: authLimit,
      schema: { tags, body: signupBodySchema, response: { 200: signupResponseSchema } },
    },
    async (request) => {
      const { token } = await auth.signup({ db }, request.body);
      return { status: 'ok' as const, token };
    },
  );

  app.post(
    '/auth/registerAccount',
    {
      schema: {
        tags,
        body: registerAccountBodySchema,
        response: { 200: z.object({ status: z.literal('ok'), user: userSchema }) },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const created = await auth.registerAccount({ db }, scope, request.body);
      return { status: 'ok' as const, user: await presentUser(db, created) };
    },
  );

  app.post(
    '/auth/createToken',
    { schema: { tags, body: createTokenBodySchema, response: { 200: createTokenResponseSchema } } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      reply.header('cache-control', 'no-store');
      return { token: await auth.createLoginToken({ db }, scope, request.body.UId) };
    },
  );

  app.post(
    '/auth',
    {
      config: authLimit,
      schema: {
        tags,
        body: tokenSignInBodySchema,
        response: { 200: z.object({ status: z.literal('ok'), user: userSchema }) },
      },
    },
    async (request, reply) => {
      const { token, user } = await auth.signInWithToken({ db }, request.body.token);
      setSessionCookie(reply, token, config);
      return { status: 'ok' as const, user: await presentUser(db, user) };
    },
  );

  app.post(
    '/auth/password/forgot',
    {
      config: authLimit,
      // Spec 000 §8: an unusable address gets the recovery-failure message, not a generic one.
      attachValidation: true,
      schema: { tags, body: forgotPasswordBodySchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      if (request.validationError) throw new AppError('auth/invalid-email');
      await auth.requestPasswordReset(
        { db, mailer: deps.mailer, publicUrl: config.PUBLIC_URL },
        request.body.email,
      );
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/password/reset',
    {
      config: authLimit,
      schema: { tags, body: resetPasswordBodySchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      await auth.resetPassword({ db }, request.body);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/password/change',
    {
      config: authLimit,
      schema: { tags, body: changePasswordBodySchema, response: { 200: userResponseSchema } },
    },
    async (request) => {
      const session = requireAuth(request);
      const user = await auth.changePassword({ db }, session, {
        ...request.body,
        address: request.ip,
      });
      return { user: await presentUser(db, user) };
    },
  );

  app.post(
    '/auth/password/require-change',
    { schema: { tags, response: { 200: statusOkSchema } } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      await auth.requirePasswordChange({ db }, user.id);
      clearSessionCookie(reply, config);
      return { status: 'ok' as const };
    },
  );
};
