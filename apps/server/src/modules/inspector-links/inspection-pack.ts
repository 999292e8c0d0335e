import type { InspectorPack } from '@mise/shared/records/pack';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { fileSlug } from '../inspector-pack/build-pack';
import { packRunnerOf } from '../inspector-pack/inspector-pack.jobs';
import {
  listPacks,
  packDownload,
  packScope,
  queuePack,
} from '../inspector-pack/inspector-pack.service';
import type { LinkRow } from './inspector-links.service';

/*
 * The inspector pack through a link (issue 21), built by the inspector-pack module: the
 * inspector sees the packs of the link's store for exactly the link's period (whoever asked
 * for them) and may ask for one; the ZIP downloads through the link, never the owner's URL.
 */

type Logger = Parameters<typeof packRunnerOf>[1];

const inspectionDownloadUrl = (packId: string) => `/api/inspect/packs/${packId}/download`;

function forInspector(pack: InspectorPack): InspectorPack {
  return {
    ...pack,
    created_by: null,
    download_url: pack.status === 'done' ? inspectionDownloadUrl(pack.id) : null,
  };
}

/** The packs of the link's store for exactly its period, newest first (whoever asked). */
async function packsOfPeriod(deps: AppDeps, link: LinkRow): Promise<InspectorPack[]> {
  return (await listPacks(deps.db, packScope(link.store_id, null), link.store_id)).filter(
    (pack) => pack.period_start === link.period_start && pack.period_end === link.period_end,
  );
}

/** The pack to show: the newest built one, else the newest building, else the newest failed. */
export async function currentInspectionPack(
  deps: AppDeps,
  link: LinkRow,
): Promise<InspectorPack | null> {
  const packs = await packsOfPeriod(deps, link);
  const newest = (statuses: InspectorPack['status'][]) =>
    packs.find((pack) => statuses.includes(pack.status));
  const pack = newest(['done']) ?? newest(['queued', 'running']) ?? newest(['failed']);
  return pack ? forInspector(pack) : null;
}

/**
 * Asks for the pack of the link's store and period and starts its build; a pack already built
 * or building for that period is answered instead (a double click builds one).
 */
export async function requestInspectionPack(
  deps: AppDeps,
  link: LinkRow,
  log: Logger,
): Promise<InspectorPack> {
  const current = await currentInspectionPack(deps, link);
  if (current && current.status !== 'failed') return current;
  await queuePack(deps.db, {
    storeId: link.store_id,
    periodStart: link.period_start,
    periodEnd: link.period_end,
    createdBy: null,
    inspectorLinkId: link.id,
  });
  void packRunnerOf(deps, log).kick();
  const pack = await currentInspectionPack(deps, link);
  if (!pack) throw notFound();
  return pack;
}

/** The ZIP of a built pack of the link's store and period (404 for any other pack). */
export async function inspectionPackFile(deps: AppDeps, link: LinkRow, packId: string) {
  if (!(await packsOfPeriod(deps, link)).some((pack) => pack.id === packId)) throw notFound();
  const { pack, key, storeName } = await packDownload(
    deps.db,
    packScope(link.store_id, null),
    link.store_id,
    packId,
  );
  const file = await deps.storage.get(key);
  if (!file) throw notFound();
  return {
    file,
    name: `inspector-pack-${fileSlug(storeName)}-${pack.period_start}-${pack.period_end}.zip`,
  };
}
