import {
  type AlertEvent,
  type AlertReading,
  defaultEscalationMinutes,
  lowBatteryPercent,
  offlineIntervals,
  type RangeDecision,
  rangeDecision,
} from '@mise/shared/probes/alerts';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { boundElementSql } from '../probes/bound-element';
import { type AlertEpisodeEvent, chainAlertEpisodeEvents } from '../records/sources/alert-episodes';

/*
 * The alert engine (issue 15). One tick evaluates every active probe that has a store, set by
 * set: offline and low battery entirely in SQL; out of range in SQL for the candidates (the
 * probes whose last reading is out of their range, and those with an open episode), whose
 * recent readings are read in one query and decided by the shared pure rule (rangeDecision).
 * Episodes open with INSERT … ON CONFLICT DO NOTHING on the one-open-episode-per-(probe, kind)
 * index, and every state change is an UPDATE guarded by its previous state, so two instances
 * running a tick at once open, resolve and escalate each episode once. Escalation climbs one
 * level a tick when next_escalation_at has passed (owners, then managers, then distributor).
 * Each opening, resolution and escalation is appended to the store's records chain in the
 * transaction of its statement (issue 21, records/sources/alert-episodes).
 */

export type TickSummary = {
  opened: number;
  resolved: number;
  escalated: number;
  candidates: number;
  events: AlertEvent[];
};

type Rows<T> = { rows: T[] };

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

/**
 * A statement that opens, resolves or escalates episodes, and the records chain's entries of
 * the episodes it changed, in one transaction (issue 21): a change is never left unchained.
 */
function changeEpisodes(
  db: Database,
  query: SQL,
  event: AlertEpisodeEvent,
  now: Date,
): Promise<{ id: string; store_id: string }[]> {
  return db.transaction(async (tx) => {
    const changed = await rows<{ id: string; store_id: string }>(tx, query);
    await chainAlertEpisodeEvents(
      tx,
      changed.map((row) => ({ id: row.id, event })),
      now,
    );
    return changed;
  });
}

/** Epoch milliseconds of a timestamptz, as a JS number on both drivers. */
const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The evaluated probes with their effective range: the probe's own minimum/maximum, else the
 * bound store element's (store value, else its database element's), else for the maximum the
 * probe's notifyTemperature, then criticalThreshold.
 */
const rulesCte = sql`rules as (
  select p.id, p.store_id, p.probe_uid, p.posting_interval, p.alert_delay_minutes,
    p.battery_level, p.last_temperature, p.last_temperature_timestamp, p.created_at,
    coalesce(p.minimum_temperature, el.minimum) as minimum,
    coalesce(p.maximum_temperature, el.maximum, p.notify_temperature, p.critical_threshold)
      as maximum
  from probes p
  left join lateral ${boundElementSql(sql`p.store_id`, sql`p.probe_uid`)} el on true
  where p.active and p.store_id is not null
)`;

/** Minutes before escalation for the episode's store (its database's setting). */
const escalationMinutes = sql`coalesce((select d.alert_escalation_minutes from stores s
  join databases d on d.id = s.database_id where s.id = e.store_id), ${defaultEscalationMinutes})`;

export async function runAlertTick(db: Database, now: Date): Promise<TickSummary> {
  const at = now.toISOString();
  const nowSql = sql`${at}::timestamptz`;
  const events: AlertEvent[] = [];
  const push = (list: { id: string; store_id: string }[], kind: AlertEvent['kind']) => {
    for (const row of list) events.push({ store_id: row.store_id, alert_id: row.id, kind });
  };
  let opened = 0;
  let resolved = 0;

  // A probe switched off, or moved to another store (or none): its open episodes close now.
  const closed = await changeEpisodes(
    db,
    sql`update alert_episodes e set resolved_at = ${nowSql}
      from probes p
      where p.id = e.probe_id and e.resolved_at is null
        and (not p.active or p.store_id is distinct from e.store_id)
      returning e.id, e.store_id`,
    'resolved',
    now,
  );
  resolved += closed.length;
  push(closed, 'resolved');

  // Offline: silent for 2 posting intervals (counted from registration if never heard).
  const offlineOpened = await changeEpisodes(
    db,
    sql`with ${rulesCte}
      insert into alert_episodes as e (probe_id, store_id, kind, started_at, opened_at,
        delay_minutes, last_value, next_escalation_at)
      select r.id, r.store_id, 'offline', coalesce(r.last_temperature_timestamp, r.created_at),
        ${nowSql}, 0, r.last_temperature,
        ${nowSql} + make_interval(mins => coalesce(d.alert_escalation_minutes, ${defaultEscalationMinutes}))
      from rules r
      join stores s on s.id = r.store_id
      left join databases d on d.id = s.database_id
      where coalesce(r.last_temperature_timestamp, r.created_at)
        <= ${nowSql} - make_interval(secs => ${offlineIntervals} * r.posting_interval)
      on conflict (probe_id, kind) where resolved_at is null do nothing
      returning e.id, e.store_id`,
    'opened',
    now,
  );
  const offlineResolved = await changeEpisodes(
    db,
    sql`update alert_episodes e set
        resolved_at = coalesce((select min(r."timestamp") from probe_readings r
          where r.probe_id = e.probe_id and r."timestamp" > e.started_at), p.last_temperature_timestamp),
        last_value = p.last_temperature
      from probes p
      where p.id = e.probe_id and e.kind = 'offline' and e.resolved_at is null
        and p.last_temperature_timestamp
          > ${nowSql} - make_interval(secs => ${offlineIntervals} * p.posting_interval)
      returning e.id, e.store_id`,
    'resolved',
    now,
  );

  // Low battery: below 20 %, told to the owners only (no escalation).
  const batteryOpened = await changeEpisodes(
    db,
    sql`with ${rulesCte}
      insert into alert_episodes as e (probe_id, store_id, kind, started_at, opened_at,
        delay_minutes, worst_value, last_value)
      select r.id, r.store_id, 'low_battery', coalesce(r.last_temperature_timestamp, ${nowSql}),
        ${nowSql}, 0, r.battery_level, r.battery_level
      from rules r
      where r.battery_level < ${lowBatteryPercent}
      on conflict (probe_id, kind) where resolved_at is null do nothing
      returning e.id, e.store_id`,
    'opened',
    now,
  );
  const batteryResolved = await changeEpisodes(
    db,
    sql`update alert_episodes e set resolved_at = coalesce(p.last_temperature_timestamp, ${nowSql}),
        last_value = p.battery_level
      from probes p
      where p.id = e.probe_id and e.kind = 'low_battery' and e.resolved_at is null
        and p.battery_level >= ${lowBatteryPercent}
      returning e.id, e.store_id`,
    'resolved',
    now,
  );
  opened += offlineOpened.length + batteryOpened.length;
  resolved += offlineResolved.length + batteryResolved.length;
  push([...offlineOpened, ...batteryOpened], 'opened');
  push([...offlineResolved, ...batteryResolved], 'resolved');

  // Out of range: candidates, their recent readings, the shared decision.
  const range = await evaluateRanges(db, now, nowSql);
  opened += range.opened.length;
  resolved += range.resolved.length;
  push(range.opened, 'opened');
  push(range.resolved, 'resolved');

  // Escalation: one level a tick once its time has passed, while unacknowledged and open.
  const escalated = await changeEpisodes(
    db,
    sql`update alert_episodes e set
        escalation_level = e.escalation_level + 1,
        next_escalation_at = case when e.escalation_level + 1 < 2
          then e.opened_at + make_interval(mins => (e.escalation_level + 2) * ${escalationMinutes})
          else null end
      where e.next_escalation_at <= ${nowSql}
        and e.acknowledged_at is null and e.resolved_at is null
      returning e.id, e.store_id`,
    'escalated',
    now,
  );
  push(escalated, 'escalated');

  await queueNotifications(db, nowSql);
  return { opened, resolved, escalated: escalated.length, candidates: range.candidates, events };
}

type Candidate = {
  id: string;
  store_id: string;
  minimum: number | null;
  maximum: number | null;
  alert_delay_minutes: number;
  posting_interval: number;
  episode_id: string | null;
  worst_value: number | null;
  started_ms: number | null;
};

async function evaluateRanges(db: Database, now: Date, nowSql: SQL) {
  const candidates = await rows<Candidate>(
    db,
    sql`with ${rulesCte}
      select r.id, r.store_id, r.minimum, r.maximum, r.alert_delay_minutes, r.posting_interval,
        e.id as episode_id, e.worst_value, ${ms(sql`e.started_at`)} as started_ms
      from rules r
      left join alert_episodes e
        on e.probe_id = r.id and e.kind = 'out_of_range' and e.resolved_at is null
      where e.id is not null
        or (r.last_temperature > r.maximum or r.last_temperature < r.minimum)`,
  );
  const result = {
    candidates: candidates.length,
    opened: [] as { id: string; store_id: string }[],
    resolved: [] as { id: string; store_id: string }[],
  };
  if (candidates.length === 0) return result;

  // The readings since each candidate's window: its delay plus two posting intervals.
  const since = candidates.map(
    (candidate) =>
      new Date(
        now.getTime() -
          (candidate.alert_delay_minutes * 60 + offlineIntervals * candidate.posting_interval) *
            1000,
      ),
  );
  const earliest = new Date(Math.min(...since.map((date) => date.getTime())));
  const readings = await rows<{ probe_id: string; time: number; temperature: number }>(
    db,
    sql`select r.probe_id, ${ms(sql`r."timestamp"`)} as time, r.temperature
      from unnest(${`{${candidates.map((c) => c.id).join(',')}}`}::uuid[],
        ${`{${since.map((date) => date.toISOString()).join(',')}}`}::timestamptz[]) as c(id, since)
      join probe_readings r on r.probe_id = c.id and r."timestamp" > c.since
      where r."timestamp" > ${earliest.toISOString()}::timestamptz and r."timestamp" <= ${nowSql}
      order by r.probe_id, r."timestamp"`,
  );
  const byProbe = new Map<string, AlertReading[]>();
  for (const reading of readings) {
    const list = byProbe.get(reading.probe_id) ?? [];
    list.push({ time: Number(reading.time), temperature: Number(reading.temperature) });
    byProbe.set(reading.probe_id, list);
  }

  const opens: { candidate: Candidate; decision: Extract<RangeDecision, { action: 'open' }> }[] =
    [];
  const holds: { id: string; worst: number | null; last: number }[] = [];
  const resolves: { id: string; resolvedAt: number; last: number }[] = [];
  for (const candidate of candidates) {
    const rule = {
      minimum: candidate.minimum === null ? null : Number(candidate.minimum),
      maximum: candidate.maximum === null ? null : Number(candidate.maximum),
      delayMs: candidate.alert_delay_minutes * 60_000,
    };
    const decision = rangeDecision(
      byProbe.get(candidate.id) ?? [],
      rule,
      now.getTime(),
      candidate.episode_id !== null,
    );
    if (decision.action === 'open') opens.push({ candidate, decision });
    else if (decision.action === 'hold' && candidate.episode_id)
      holds.push({ id: candidate.episode_id, worst: decision.worst, last: decision.last });
    else if (decision.action === 'resolve' && candidate.episode_id)
      resolves.push({
        id: candidate.episode_id,
        resolvedAt: decision.resolvedAt,
        last: decision.last,
      });
  }

  const array = (values: (string | number | null)[], type: string) =>
    sql`${`{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`}::${sql.raw(type)}[]`;

  if (opens.length > 0) {
    result.opened = await changeEpisodes(
      db,
      sql`insert into alert_episodes as e (probe_id, store_id, kind, started_at, opened_at,
          minimum_temperature, maximum_temperature, delay_minutes, worst_value, last_value,
          next_escalation_at)
        select o.probe_id, o.store_id, 'out_of_range', to_timestamp(o.started_ms / 1000.0),
          ${nowSql}, o.minimum, o.maximum, o.delay, o.worst, o.last,
          ${nowSql} + make_interval(mins => coalesce(d.alert_escalation_minutes, ${defaultEscalationMinutes}))
        from unnest(
          ${array(
            opens.map((o) => o.candidate.id),
            'uuid',
          )},
          ${array(
            opens.map((o) => o.candidate.store_id),
            'uuid',
          )},
          ${array(
            opens.map((o) => o.decision.startedAt),
            'float8',
          )},
          ${array(
            opens.map((o) => o.candidate.minimum),
            'float8',
          )},
          ${array(
            opens.map((o) => o.candidate.maximum),
            'float8',
          )},
          ${array(
            opens.map((o) => o.candidate.alert_delay_minutes),
            'int',
          )},
          ${array(
            opens.map((o) => o.decision.worst),
            'float8',
          )},
          ${array(
            opens.map((o) => o.decision.last),
            'float8',
          )}
        ) as o(probe_id, store_id, started_ms, minimum, maximum, delay, worst, last)
        join stores s on s.id = o.store_id
        left join databases d on d.id = s.database_id
        on conflict (probe_id, kind) where resolved_at is null do nothing
        returning e.id, e.store_id`,
      'opened',
      now,
    );
  }
  if (holds.length > 0) {
    // The worst value only moves further out of range; the last follows the readings.
    await db.execute(
      sql`update alert_episodes e set last_value = h.last,
          worst_value = case
            when h.worst is null then e.worst_value
            when e.worst_value is null then h.worst
            when greatest(h.worst - e.maximum_temperature, e.minimum_temperature - h.worst, 0)
              > greatest(e.worst_value - e.maximum_temperature, e.minimum_temperature - e.worst_value, 0)
              then h.worst
            else e.worst_value end
        from unnest(${array(
          holds.map((h) => h.id),
          'uuid',
        )}, ${array(
          holds.map((h) => h.worst),
          'float8',
        )}, ${array(
          holds.map((h) => h.last),
          'float8',
        )}) as h(id, worst, last)
        where e.id = h.id and e.resolved_at is null`,
    );
  }
  if (resolves.length > 0) {
    result.resolved = await changeEpisodes(
      db,
      sql`update alert_episodes e set resolved_at = to_timestamp(x.resolved_ms / 1000.0),
          last_value = x.last
        from unnest(${array(
          resolves.map((r) => r.id),
          'uuid',
        )}, ${array(
          resolves.map((r) => r.resolvedAt),
          'float8',
        )}, ${array(
          resolves.map((r) => r.last),
          'float8',
        )}) as x(id, resolved_ms, last)
        where e.id = x.id and e.resolved_at is null
        returning e.id, e.store_id`,
      'resolved',
      now,
    );
  }
  return result;
}

/**
 * The notifications every open, unacknowledged episode owes at its level (owners, managers,
 * the distributor; e-mail always, push where the probe's push toggle is on and the person
 * subscribed, the store's subscribed tablets), and the "back to normal" notice to those told
 * of an episode that resolved in the last day. Rows are unique per (episode, level, recipient,
 * channel): computed again each tick, only what is missing is added, so a crash between an
 * opening and its notifications loses nothing and a second instance adds nothing.
 */
async function queueNotifications(db: Database, nowSql: SQL): Promise<void> {
  await db.execute(sql`insert into alert_notifications (episode_id, level, recipient, channel)
    select e.id, e.escalation_level, u.id::text, ch.channel
    from alert_episodes e
    join stores s on s.id = e.store_id
    join probes p on p.id = e.probe_id
    join lateral (
      select so.user_id from store_owners so
        where e.escalation_level = 0 and so.store_id = e.store_id
      union
      select dm.user_id from database_managers dm
        where e.escalation_level = 1 and dm.database_id = s.database_id
      union
      select du.id from users du
        where e.escalation_level = 2 and du.role = 'distributor'
          and du.distributor_id = s.distributor_id
    ) recipient on true
    join users u on u.id = recipient.user_id and u.active
    join lateral (
      select 'email' as channel
      union all
      select 'push' where p.push_notification
        and exists (select 1 from push_subscriptions ps where ps.user_id = u.id)
    ) ch on true
    where e.resolved_at is null and e.acknowledged_at is null
    on conflict do nothing`);
  await db.execute(sql`insert into alert_notifications (episode_id, level, recipient, channel)
    select e.id, 0, dv.id::text, 'tablet'
    from alert_episodes e
    join probes p on p.id = e.probe_id
    join devices dv on dv.store_id = e.store_id
    where p.push_notification and e.resolved_at is null and e.acknowledged_at is null
      and exists (select 1 from push_subscriptions ps where ps.device_id = dv.id)
    on conflict do nothing`);
  await db.execute(sql`insert into alert_notifications (episode_id, level, recipient, channel)
    select distinct n.episode_id, -1, n.recipient, n.channel
    from alert_notifications n
    join alert_episodes e on e.id = n.episode_id
    where n.level >= 0 and n.channel in ('email', 'push') and e.kind <> 'low_battery'
      and e.resolved_at is not null and e.resolved_at > ${nowSql} - interval '1 day'
    on conflict do nothing`);
}
