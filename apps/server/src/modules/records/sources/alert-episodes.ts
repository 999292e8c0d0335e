import { and, eq, gte, inArray, lt, or } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { alertEpisodes } from '../../../db/schema';
import { appendToChain, type ChainEntryInput } from '../chain';
import type { ChainSource } from './types';

/*
 * Probe alert episodes in the records chain (issue 21, docs/decisions.md "Records chain: alert
 * episodes"). An episode row changes over its life (opened, escalated, resolved, acknowledged),
 * so each change is its own record, `<episode id>:<event>` (`<episode id>:escalated:<level>`),
 * whose content is the projection of the fields that event fixed for good: the verifier
 * rebuilds it from the row as it is now and finds it unchanged however the episode went on.
 * The worst and last values, moving while the episode is open, are covered by the resolution.
 */

type AlertEpisodeRow = typeof alertEpisodes.$inferSelect;

export type AlertEpisodeEvent = 'opened' | 'escalated' | 'resolved' | 'acknowledged';

/** One event of an episode, with the episode's row as stored now. */
export type AlertEpisodeRecord = {
  event: AlertEpisodeEvent;
  /** The level reached (escalations only). */
  level: number | null;
  episode: AlertEpisodeRow;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids per statement (each a parameter). */
const idsPerQuery = 5000;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The record id of an episode's event. */
export function alertEpisodeRecordId(
  episodeId: string,
  event: AlertEpisodeEvent,
  level?: number,
): string {
  return event === 'escalated' ? `${episodeId}:escalated:${level}` : `${episodeId}:${event}`;
}

/** An episode's id and event read back from a record id (null for anything else). */
export function parseAlertEpisodeRecordId(
  recordId: string,
): { episodeId: string; event: AlertEpisodeEvent; level: number | null } | null {
  const [episodeId = '', event, level, ...rest] = recordId.split(':');
  if (!uuidPattern.test(episodeId) || rest.length > 0) return null;
  if (event === 'escalated') {
    if (!level || !/^[1-9][0-9]{0,2}$/.test(level)) return null;
    return { episodeId, event, level: Number(level) };
  }
  if ((event === 'opened' || event === 'resolved' || event === 'acknowledged') && !level) {
    return { episodeId, event, level: null };
  }
  return null;
}

/**
 * The content of an event: the fields it fixed for good, named one by one (instants as ISO
 * text). Opened: the probe, the kind, when the condition began and the episode opened, the
 * limits and delay in force. Escalated: the level, and whether the episode still stands at it
 * or beyond (levels only climb). Resolved: when, the worst and last values (final once
 * resolved). Acknowledged: when, by whom (account or employee, and the name at the time), the
 * corrective action.
 */
export function alertEpisodeContent(record: AlertEpisodeRecord) {
  const { episode, event } = record;
  const base = { episode_id: episode.id, store_id: episode.store_id, event };
  switch (event) {
    case 'opened':
      return {
        ...base,
        probe_id: episode.probe_id,
        kind: episode.kind,
        started_at: episode.started_at.toISOString(),
        opened_at: episode.opened_at.toISOString(),
        minimum_temperature: episode.minimum_temperature ?? null,
        maximum_temperature: episode.maximum_temperature ?? null,
        delay_minutes: episode.delay_minutes,
      };
    case 'escalated':
      return {
        ...base,
        level: record.level,
        reached: episode.escalation_level >= (record.level ?? 0),
      };
    case 'resolved':
      return {
        ...base,
        resolved_at: iso(episode.resolved_at),
        worst_value: episode.worst_value ?? null,
        last_value: episode.last_value ?? null,
      };
    case 'acknowledged':
      return {
        ...base,
        acknowledged_at: iso(episode.acknowledged_at),
        acknowledged_by_user_id: episode.acknowledged_by_user_id ?? null,
        acknowledged_by_employee_id: episode.acknowledged_by_employee_id ?? null,
        acknowledged_by_name: episode.acknowledged_by_name ?? null,
        corrective_action: episode.corrective_action ?? null,
      };
  }
}

async function episodesByIds(
  db: Pick<Database, 'select'>,
  ids: readonly string[],
  storeId?: string,
): Promise<Map<string, AlertEpisodeRow>> {
  const found = new Map<string, AlertEpisodeRow>();
  const unique = [...new Set(ids)];
  for (let index = 0; index < unique.length; index += idsPerQuery) {
    const rows = await db
      .select()
      .from(alertEpisodes)
      .where(
        and(
          inArray(alertEpisodes.id, unique.slice(index, index + idsPerQuery)),
          storeId ? eq(alertEpisodes.store_id, storeId) : undefined,
        ),
      );
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

export const alertEpisodeSource: ChainSource<AlertEpisodeRecord> = {
  kind: 'alert_episode',
  contentOf: alertEpisodeContent,
  async load(db, storeId, recordIds) {
    const parsed = recordIds.flatMap((recordId) => {
      const record = parseAlertEpisodeRecordId(recordId);
      return record ? [{ recordId, ...record }] : [];
    });
    const episodes = await episodesByIds(
      db,
      parsed.map((record) => record.episodeId),
      storeId,
    );
    const found = new Map<string, AlertEpisodeRecord>();
    for (const record of parsed) {
      const episode = episodes.get(record.episodeId);
      if (episode)
        found.set(record.recordId, { event: record.event, level: record.level, episode });
    }
    return found;
  },
  async list(db, storeId, from, to) {
    const within = (
      column:
        | typeof alertEpisodes.opened_at
        | typeof alertEpisodes.resolved_at
        | typeof alertEpisodes.acknowledged_at,
    ) => and(gte(column, from), lt(column, to));
    const rows = await db
      .select({
        id: alertEpisodes.id,
        opened_at: alertEpisodes.opened_at,
        resolved_at: alertEpisodes.resolved_at,
        acknowledged_at: alertEpisodes.acknowledged_at,
        escalation_level: alertEpisodes.escalation_level,
      })
      .from(alertEpisodes)
      .where(
        and(
          eq(alertEpisodes.store_id, storeId),
          or(
            within(alertEpisodes.opened_at),
            within(alertEpisodes.resolved_at),
            within(alertEpisodes.acknowledged_at),
          ),
        ),
      );
    const isWithin = (value: Date | null) => value !== null && value >= from && value < to;
    return rows.flatMap((row) => {
      const ids: string[] = [];
      if (isWithin(row.opened_at)) {
        ids.push(alertEpisodeRecordId(row.id, 'opened'));
        // Escalations are listed with the opening (their own time is not kept on the row).
        for (let level = 1; level <= row.escalation_level; level++) {
          ids.push(alertEpisodeRecordId(row.id, 'escalated', level));
        }
      }
      if (isWithin(row.resolved_at)) ids.push(alertEpisodeRecordId(row.id, 'resolved'));
      if (isWithin(row.acknowledged_at)) ids.push(alertEpisodeRecordId(row.id, 'acknowledged'));
      return ids;
    });
  },
};

/**
 * Appends episode events just written to their stores' chains, in the transaction that wrote
 * them: the rows are read back in it (the content is built from the stored row, as the
 * verifier does). An escalation is recorded at the level the row now stands at.
 */
export async function chainAlertEpisodeEvents(
  tx: Database,
  events: readonly { id: string; event: AlertEpisodeEvent }[],
  now: Date = new Date(),
): Promise<void> {
  if (events.length === 0) return;
  const episodes = await episodesByIds(
    tx,
    events.map((event) => event.id),
  );
  const inputs: ChainEntryInput[] = [];
  for (const { id, event } of events) {
    const episode = episodes.get(id);
    if (!episode) continue;
    const level = event === 'escalated' ? episode.escalation_level : null;
    const record: AlertEpisodeRecord = { event, level, episode };
    inputs.push({
      storeId: episode.store_id,
      kind: 'alert_episode',
      recordId: alertEpisodeRecordId(id, event, level ?? undefined),
      record: alertEpisodeContent(record),
    });
  }
  await appendToChain(tx, inputs, now);
}
