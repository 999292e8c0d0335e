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

  constructor(code: ErrorCode, message?: string, issues?: { path: string; message: string }[]) {
    super(message ?? defaultMessages[code]);
    this.code = code;
    this.status = errorStatus[code];
    this.issues = issues;
  }
}

export const notFound = () => new AppError('not-found');
export const forbidden = () => new AppError('permission/denied');

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
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
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ error: { code: 'internal', message: defaultMessages.internal } });
  });
}
