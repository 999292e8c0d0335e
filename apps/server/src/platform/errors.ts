import { defaultMessages, type ErrorCode, errorStatus } from '@mise/shared/errors/codes';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';

/** The one error type of the server: a code from packages/shared, mapped to its HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: { path: string; message: string }[];
  /** For 429 answers: the seconds after which a new try may succeed (the Retry-After header). */
  retryAfterSeconds?: number;

  constructor(code: ErrorCode, message?: string, issues?: { path: string; message: string }[]) {
    super(message ?? defaultMessages[code]);
    this.code = code;
    this.status = errorStatus[code];
    this.issues = issues;
  }
}

export const notFound = () => new AppError('not-found');
export const forbidden = () => new AppError('permission/denied');

/** Where a NUL character (U+0000) sits in a request value, or null: PostgreSQL text refuses it. */
export function findNulCharacter(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  // Parsed JSON and query strings only: plain objects and arrays (not buffers or streams).
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, '(key)'].join('.');
    const found = findNulCharacter(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Input errors the database reports for a value the schema let through (NUL, bad encoding). */
const inputErrorCodes = new Set([
  '22021', // character_not_in_repertoire: "invalid byte sequence for encoding UTF8: 0x00"
  '22P05', // untranslatable_character: \u0000 in jsonb
]);

function databaseErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * An error as the logs may show it: type, code, message and stack frames, never the SQL
 * parameters (a password hash, a token, personal data) that driver and ORM errors carry in
 * their `params`/`parameters` fields and in Drizzle's "Failed query: ... params: ..." message.
 */
const safeErrors = new WeakSet<object>();

export function safeError(error: unknown, depth = 0): Record<string, unknown> {
  // Already made safe (the error handler's, then the logger's serializer).
  if (typeof error === 'object' && error !== null && safeErrors.has(error)) {
    return error as Record<string, unknown>;
  }
  if (!(error instanceof Error)) return { type: typeof error };
  const message = error.message.split(/\nparams:/)[0]!;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');
  const code = (error as { code?: unknown }).code ?? databaseErrorCode(error);
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  const cause = error.cause instanceof Error && depth < 3 ? error.cause : undefined;
  const safe = {
    type: error.name,
    message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    stack: `${error.name}: ${message}\n${frames}`,
    // Under another key than "cause": pino's serializer would merge a cause's message again.
    ...(cause ? { causedBy: safeError(cause, depth + 1) } : {}),
  };
  safeErrors.add(safe);
  return safe;
}

export function registerErrorHandling(app: FastifyInstance): void {
  // One check for every route: a NUL in any string of the body, query or path is a 400.
  app.addHook('preValidation', async (request) => {
    const where =
      findNulCharacter(request.body, ['body']) ??
      findNulCharacter(request.query, ['querystring']) ??
      findNulCharacter(request.params, ['params']);
    if (where !== null) {
      throw new AppError('validation/invalid-input', undefined, [
        { path: where, message: 'NUL characters are not allowed' },
      ]);
    }
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 429) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 60))));
      }
      return reply.status(error.status).send({
        error: { code: error.code, message: error.message, issues: error.issues },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: `${issue.instancePath}`.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'invalid',
      }));
      return reply.status(400).send({
        error: {
          code: 'validation/invalid-input',
          message: defaultMessages['validation/invalid-input'],
          issues,
        },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ issues: error.cause.issues }, 'response does not match its schema');
      return reply
        .status(500)
        .send({ error: { code: 'internal', message: defaultMessages.internal } });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', '60');
      return reply
        .status(429)
        .send({ error: { code: 'rate-limit', message: defaultMessages['rate-limit'] } });
    }
    if (status === 413) {
      return reply
        .status(413)
        .send({ error: { code: 'file/too-large', message: defaultMessages['file/too-large'] } });
    }
    if (status === 415) {
      return reply.status(415).send({
        error: { code: 'file/unsupported-type', message: defaultMessages['file/unsupported-type'] },
      });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, empty body, bad content type.
      return reply.status(400).send({
        error: { code: 'validation/invalid-input', message: error.message },
      });
    }
    const databaseCode = databaseErrorCode(error);
    if (databaseCode && inputErrorCodes.has(databaseCode)) {
      request.log.warn({ err: safeError(error) }, 'input refused by the database');
      return reply.status(400).send({
        error: {
          code: 'validation/invalid-input',
          message: defaultMessages['validation/invalid-input'],
        },
      });
    }
    request.log.error({ err: safeError(error) }, 'unhandled error');
    return reply
      .status(500)
      .send({ error: { code: 'internal', message: defaultMessages.internal } });
  });
}
