import type { ElementProbe } from '@mise/shared/catalogue/schemas';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { probes } from '../../db/schema';
import { AppError } from '../../platform/errors';

/*
 * The probe of a store element (spec 001 probe_id, issue 15). store_elements.probe_id holds
 * the probe's probeUID; a binding counts only while that probe belongs to the element's
 * store (probes.store_id), so another store's or another tenant's probe never matches.
 * These reads are the elements module's view of the probes table (a read by (store, uid) on
 * its unique and store indexes); the probes module owns the table and its writes.
 */

type ProbeReader = Pick<Database, 'select'>;

/** The store's probes among `probeUids`, by probeUID: one query whatever the count. */
export async function storeProbesByUid(
  db: ProbeReader,
  storeId: string,
  probeUids: readonly string[],
): Promise<Map<string, ElementProbe>> {
  const uids = [...new Set(probeUids)];
  if (uids.length === 0) return new Map();
  const rows = await db
    .select({
      probe_uid: probes.probe_uid,
      name: probes.name,
      last_temperature: probes.last_temperature,
      last_temperature_timestamp: probes.last_temperature_timestamp,
    })
    .from(probes)
    .where(and(eq(probes.store_id, storeId), inArray(probes.probe_uid, uids)));
  return new Map(
    rows.map((row) => [
      row.probe_uid,
      {
        ...row,
        last_temperature_timestamp: row.last_temperature_timestamp?.toISOString() ?? null,
      },
    ]),
  );
}

/**
 * A save that binds a probe: the probeUID must be one of the store's probes (422
 * element/unknown-probe otherwise, nothing written). Null unbinds; an unchanged value is not
 * checked again, so a probe removed from the store since does not block the element's other
 * fields (the editor shows it as missing).
 */
export async function assertStoreProbe(
  db: ProbeReader,
  storeId: string,
  probeId: string | null | undefined,
  currentProbeId: string | null = null,
): Promise<void> {
  if (probeId === undefined || probeId === null || probeId === currentProbeId) return;
  const found = await storeProbesByUid(db, storeId, [probeId]);
  if (!found.has(probeId)) throw new AppError('element/unknown-probe');
}
