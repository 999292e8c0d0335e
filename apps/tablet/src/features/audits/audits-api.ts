import type {
  AuditAnswer,
  AuditAnswerInput,
  AuditResult,
  deviceAuditsResponseSchema,
} from '@mise/shared/audits/schemas';
import type { z } from 'zod';
import { ApiError, apiRequest, NetworkError } from '../../shared/api/client';
import { errorText } from '../../shared/i18n/i18n';
import { readValue, writeValue } from '../../shared/storage/local-db';

/*
 * The tablet's audit calls (issue 16): the store's self-evaluation audits, starting or resuming
 * the store's draft, reading a result. Every call carries the identified employee's token.
 * Answers and the submission never go from here: they go through the outbox (audit-draft.ts).
 */

export type DeviceAudit = z.infer<typeof deviceAuditsResponseSchema>['items'][number];
export type DeviceAudits = { items: DeviceAudit[] };

export const deviceAuditsKey = ['device-audits'] as const;
const listCacheKey = 'cache:audits';

export const answersPath = (resultId: string) => `/device/audit-results/${resultId}/answers`;
export const filesPath = (resultId: string) => `/device/audit-results/${resultId}/files`;
export const submitPath = (resultId: string) => `/device/audit-results/${resultId}/submit`;

/**
 * GET /api/device/audits, kept in IndexedDB: without network the kept list answers (the
 * drafts on this tablet can be reopened from it). `onFresh` sees a list the server just sent.
 */
export async function fetchDeviceAudits(
  employeeToken: string | null,
  onFresh?: (list: DeviceAudits) => Promise<void>,
): Promise<DeviceAudits> {
  try {
    const answer = await apiRequest<DeviceAudits>('/device/audits', {
      employeeToken,
      timeoutMs: 8000,
    });
    await writeValue(listCacheKey, answer);
    await onFresh?.(answer);
    return answer;
  } catch (error) {
    if (error instanceof NetworkError) {
      const kept = await readValue<DeviceAudits>(listCacheKey);
      if (kept) return kept;
    }
    throw error;
  }
}

/** Keeps a change of the list (a draft started here) in the kept copy too. */
export async function keepDeviceAudits(list: DeviceAudits): Promise<void> {
  await writeValue(listCacheKey, list);
}

/** POST /api/device/audits/:auditId/results: the store's draft of the audit (new or resumed). */
export async function startAuditResult(
  auditId: string,
  employeeToken: string | null,
): Promise<AuditResult> {
  const answer = await apiRequest<{ result: AuditResult }>(`/device/audits/${auditId}/results`, {
    method: 'POST',
    employeeToken,
    timeoutMs: 10_000,
  });
  return answer.result;
}

/** GET /api/device/audit-results/:resultId. */
export async function fetchAuditResult(
  resultId: string,
  employeeToken: string | null,
): Promise<AuditResult> {
  const answer = await apiRequest<{ result: AuditResult }>(`/device/audit-results/${resultId}`, {
    employeeToken,
    timeoutMs: 8000,
  });
  return answer.result;
}

const inputFields = [
  'choices',
  'answer_yes',
  'text',
  'file_urls',
  'rating',
  'number',
  'date',
  'comment',
] as const;

/** A stored answer as an answer to send (the server's own fields left out: its schema is strict). */
export function toAnswerInput(answer: AuditAnswer | AuditAnswerInput): AuditAnswerInput {
  const input: AuditAnswerInput = { question_id: answer.question_id };
  for (const field of inputFields) {
    const value = answer[field];
    if (value !== undefined && value !== null) (input as Record<string, unknown>)[field] = value;
  }
  return input;
}
/** The text of a refusal: a 403 is the permission text (spec 002 §8) unless it says more. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.code !== 'audit/extension-hidden')
      return errorText('permission/denied');
    return errorText(error.code, error.message);
  }
  return errorText(error instanceof NetworkError ? 'network' : 'unknown');
}
