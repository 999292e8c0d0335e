import type { CopyBody, CopyResponse } from '@mise/shared/catalogue/bulk';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { apiRequest } from '../../../shared/api/api-client';
import type { BulkKind } from './bulk-query-keys';

/** The spec's four copy calls (spec 001 §7). */
const copyPaths: Record<BulkLevel, Record<BulkKind, string>> = {
  database: {
    elements: '/database/copyDatabaseElements',
    tasks: '/database/copyDatabaseTaskConfs',
  },
  store: { elements: '/stores/copyStoreElements', tasks: '/stores/copyStoreTaskConfs' },
};

/**
 * POST one of the copy calls with an `Idempotency-Key`: a retried request (same key) answers
 * the first answer again instead of copying twice.
 */
export async function copyCatalogue(
  kind: BulkKind,
  level: BulkLevel,
  body: CopyBody,
  idempotencyKey: string,
): Promise<CopyResponse> {
  return apiRequest<CopyResponse>(copyPaths[level][kind], {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
