import { createHash } from 'node:crypto';
import type { CopyBody, CopyResponse } from '@mise/shared/catalogue/bulk';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { catalogueExports } from '../../db/schema';
import { canonicalJson } from '../../platform/canonical-json';
import { AppError } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { assertExpertModeUser } from '../elements/bulk-elements.policy';
import { copyFiles } from '../elements/duplicate-element';
import { assertDatabaseWriter } from '../elements/elements.policy';
import { findEditableStore } from '../stores/stores.service';
import { isUniqueViolation } from '../tasks/task-results.service';
import { planDatabaseElements, planStoreElements } from './copy-elements';
import { planDatabaseConfigurations, planStoreConfigurations } from './copy-task-configurations';
import type { ExportPlan } from './export-support';

/*
 * The export (copy) calls of spec 001 §7 (issue 19): each checks who may write the source and
 * the target as the single create does, answers a retried request (same user, same
 * Idempotency-Key, same body) with the first answer, and writes everything in one transaction.
 */

export type ExportKind = (typeof catalogueExports.$inferInsert)['kind'];
type Deps = { db: Database; storage: Storage };

const keyPattern = /^[\x21-\x7e]{1,200}$/;

/** The Idempotency-Key header: required, 1 to 200 visible ASCII characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !keyPattern.test(value)) {
    throw new AppError('export/idempotency-key-required', undefined, [
      { path: 'Idempotency-Key', message: 'A header of 1 to 200 visible characters.' },
    ]);
  }
  return value;
}

function requestHash(kind: ExportKind, body: CopyBody): string {
  return createHash('sha256').update(canonicalJson({ kind, body })).digest('hex');
}

/**
 * The source and the target, each found as the single create finds its owner: a database in
 * the scope and a database writer (customers 403), or a store the caller may edit (a manager
 * on a store that is not manager-owned 403) and not a customer (403: expert mode is not
 * theirs); outside the scope 404.
 */
async function plan(deps: Deps, scope: Scope, kind: ExportKind, body: CopyBody) {
  const { db } = deps;
  if (kind === 'database-elements' || kind === 'database-task-configurations') {
    const source = await findDatabaseInScope(db, scope, body.sourceId);
    assertDatabaseWriter(scope);
    const target = await findDatabaseInScope(db, scope, body.targetId);
    return () =>
      kind === 'database-elements'
        ? planDatabaseElements(deps, source, target, body)
        : planDatabaseConfigurations(deps, source, target, body);
  }
  const source = await findEditableStore(db, scope, body.sourceId);
  const target = await findEditableStore(db, scope, body.targetId);
  // Export belongs to expert mode, which is not a customer's (bulk-elements.policy.ts).
  assertExpertModeUser(scope);
  return () =>
    kind === 'store-elements'
      ? planStoreElements(deps, source, target, body)
      : planStoreConfigurations(deps, source, target, body);
}

/** The answer kept for this user's key: replayed for the same request, else 409. */
async function storedAnswer(
  db: Database,
  userId: string,
  key: string,
  kind: ExportKind,
  hash: string,
): Promise<CopyResponse | null> {
  const [row] = await db
    .select()
    .from(catalogueExports)
    .where(and(eq(catalogueExports.user_id, userId), eq(catalogueExports.idempotency_key, key)))
    .limit(1);
  if (!row) return null;
  if (row.kind !== kind || row.request_hash !== hash) throw new AppError('idempotency/conflict');
  return row.response as CopyResponse;
}

/**
 * One export call: permissions, then the stored answer of a retry, else the plan (what is
 * copied and what is skipped, and why), the files copied to new keys, then one transaction
 * writing the copies and the answer under the key. A failure deletes the files copied.
 */
export async function runExport(
  deps: Deps,
  scope: Scope,
  kind: ExportKind,
  body: CopyBody,
  idempotencyKey: string,
): Promise<CopyResponse> {
  const { db, storage } = deps;
  if (body.sourceId === body.targetId) throw new AppError('export/same-target');
  const planner = await plan(deps, scope, kind, body);
  const hash = requestHash(kind, body);
  const earlier = await storedAnswer(db, scope.userId, idempotencyKey, kind, hash);
  if (earlier) return earlier;
  const exportPlan: ExportPlan = await planner();
  const written = await copyFiles(storage, exportPlan.files);
  try {
    return await db.transaction(async (tx) => {
      const { created_types } = await exportPlan.write(tx, written);
      const response: CopyResponse = {
        created: exportPlan.created,
        skipped: exportPlan.skipped,
        created_types,
        attachments_copied: written.size,
      };
      await tx.insert(catalogueExports).values({
        user_id: scope.userId,
        idempotency_key: idempotencyKey,
        kind,
        source_id: body.sourceId,
        target_id: body.targetId,
        request_hash: hash,
        response,
      });
      return response;
    });
  } catch (error) {
    await Promise.all([...written].map((key) => storage.delete(key).catch(() => {})));
    if (!isUniqueViolation(error)) throw error;
    // The same key sent twice at once: the other request's answer (or 409); otherwise a row
    // written meanwhile by someone else (an override): nothing was written, try again.
    const stored = await storedAnswer(db, scope.userId, idempotencyKey, kind, hash);
    if (stored) return stored;
    throw new AppError('conflict/stale-version');
  }
}
