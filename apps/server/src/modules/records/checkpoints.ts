import { mailLanguages } from '@mise/shared/organisation/invitation-mail';
import type { RecordsCheckpoint } from '@mise/shared/records/checkpoints';
import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { recordChainCheckpoints } from '../../db/schema';
import type { Mailer } from '../../platform/mail';
import { recordsCheckpointMail } from '../../platform/mail-texts';
import { chainHeadAt } from './chain';

/*
 * The daily checkpoints of the records chains (issue 21, docs/decisions.md "Records chain:
 * checkpoints"): once a store day is over, the chain's head at its end (its last entry's seq
 * and hash) is kept once per store and day, then published: e-mailed to the store's owners and
 * shown on the store page. A rewrite of the chain would have to rewrite what the owners hold.
 */

/** A day is checkpointed this long after its end (appends stamped before it have committed). */
const checkpointDelayMs = 5 * 60_000;
/** Days a run catches up after downtime. */
const catchUpDays = 7;

type Rows<T> = { rows: T[] };
async function rows<T>(db: Pick<Database, 'execute'>, query: ReturnType<typeof sql>) {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

const dayEnd = (day: string, zone: string) => localMinuteToInstant(addDays(day, 1), 0, zone);

/**
 * Writes the checkpoints of the store days over at `now` (the last week's, those missing), for
 * every store whose chain has begun; a day before the chain's first entry gets none. Once per
 * store and day whatever the runs and instances (primary key, ON CONFLICT DO NOTHING).
 * Answers how many were written.
 */
export async function writeCheckpoints(db: Database, now: Date): Promise<number> {
  const heads = await rows<{ store_id: string; timezone_name: string; last_day: string | null }>(
    db,
    sql`select h.store_id, s.timezone_name,
        (select max(c.day)::text from record_chain_checkpoints c where c.store_id = h.store_id)
          as last_day
      from record_chain_heads h join stores s on s.id = h.store_id
      where h.seq > 0`,
  );
  let written = 0;
  for (const head of heads) {
    const zone = head.timezone_name;
    const today = dayInZone(now, zone);
    let day = addDays(today, -catchUpDays);
    if (head.last_day && head.last_day >= day) day = addDays(head.last_day, 1);
    for (; day < today; day = addDays(day, 1)) {
      const end = dayEnd(day, zone);
      if (end.getTime() + checkpointDelayMs > now.getTime()) break;
      // The head as it stood at the day's end (the last entry stamped before it).
      const at = await chainHeadAt(db, head.store_id, new Date(end.getTime() - 1));
      if (at.seq === 0) continue;
      const inserted = await db
        .insert(recordChainCheckpoints)
        .values({ store_id: head.store_id, day, seq: at.seq, head_hash: at.head_hash })
        .onConflictDoNothing()
        .returning({ day: recordChainCheckpoints.day });
      written += inserted.length;
    }
  }
  return written;
}

type Claimed = { store_id: string; day: string; seq: number; head_hash: string };

/**
 * Publishes the checkpoints not published yet: each store's are claimed (published_at set,
 * FOR UPDATE SKIP LOCKED, so two instances never send the same), then e-mailed in one message
 * to each of its active owners, in their language. Checkpoints whose head did not move since
 * the one published before are published without an e-mail (the owners hold that seal
 * already); a store without an owner publishes on its page only. A failed e-mail releases the
 * store's checkpoints for the next run. Answers the e-mails sent.
 */
export async function publishCheckpoints(
  deps: { db: Database; mailer: Mailer; publicUrl: string },
  now: Date,
  log?: { warn(object: object, message: string): void },
): Promise<number> {
  const { db } = deps;
  const claimed = await rows<Claimed>(
    db,
    sql`update record_chain_checkpoints c set published_at = ${now.toISOString()}::timestamptz
      where (c.store_id, c.day) in (
        select store_id, day from record_chain_checkpoints
        where published_at is null
        order by day, store_id limit 500
        for update skip locked)
      returning c.store_id, c.day::text as day, c.seq, c.head_hash`,
  );
  const byStore = new Map<string, Claimed[]>();
  for (const row of claimed) {
    const list = byStore.get(row.store_id) ?? [];
    list.push({ ...row, seq: Number(row.seq) });
    byStore.set(row.store_id, list);
  }
  let sent = 0;
  for (const [storeId, checkpoints] of byStore) {
    checkpoints.sort((left, right) => (left.day < right.day ? -1 : 1));
    const first = checkpoints[0]!;
    const [previous] = await db
      .select({ seq: recordChainCheckpoints.seq })
      .from(recordChainCheckpoints)
      .where(
        and(
          eq(recordChainCheckpoints.store_id, storeId),
          sql`${recordChainCheckpoints.day} < ${first.day}::date`,
          sql`${recordChainCheckpoints.published_at} is not null`,
        ),
      )
      .orderBy(desc(recordChainCheckpoints.day))
      .limit(1);
    let lastSeq = previous?.seq ?? -1;
    const moved = checkpoints.filter((checkpoint) => {
      const isMoved = checkpoint.seq !== lastSeq;
      lastSeq = checkpoint.seq;
      return isMoved;
    });
    if (moved.length === 0) continue;
    const recipients = await rows<{
      email: string;
      language: string | null;
      store_name: string;
      database_id: string | null;
    }>(
      db,
      sql`select u.email, u.language, s.name as store_name, s.database_id
        from store_owners so
        join users u on u.id = so.user_id and u.active
        join stores s on s.id = so.store_id
        where so.store_id = ${storeId}::uuid
        order by u.email`,
    );
    try {
      for (const recipient of recipients) {
        const language = (mailLanguages as readonly string[]).includes(recipient.language ?? '')
          ? (recipient.language as (typeof mailLanguages)[number])
          : 'en';
        const page = recipient.database_id ? 'storeDatabase' : 'store';
        const message = recordsCheckpointMail(language, {
          store: recipient.store_name,
          checkpoints: moved,
          link: `${deps.publicUrl.replace(/\/$/, '')}/${page}?id=${encodeURIComponent(storeId)}`,
        });
        await deps.mailer.send({ to: [recipient.email], ...message });
        sent += 1;
      }
    } catch (error) {
      log?.warn({ err: error, store: storeId }, 'records seal e-mail failed');
      await db.execute(
        sql`update record_chain_checkpoints set published_at = null
          where store_id = ${storeId}::uuid
            and day = any(${`{${checkpoints.map((checkpoint) => checkpoint.day).join(',')}}`}::date[])`,
      );
    }
  }
  return sent;
}

/** The store's latest checkpoint (null before its first). */
export async function latestCheckpoint(
  db: Database,
  storeId: string,
): Promise<RecordsCheckpoint | null> {
  const [row] = await db
    .select()
    .from(recordChainCheckpoints)
    .where(eq(recordChainCheckpoints.store_id, storeId))
    .orderBy(desc(recordChainCheckpoints.day))
    .limit(1);
  if (!row) return null;
  return {
    day: row.day,
    seq: row.seq,
    head_hash: row.head_hash,
    created_at: row.created_at.toISOString(),
    published_at: row.published_at?.toISOString() ?? null,
  };
}
