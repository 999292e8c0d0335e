import type { AlertKind, AlertPushPayload } from '@mise/shared/probes/alerts';
import { defaultEscalationMinutes } from '@mise/shared/probes/alerts';
import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Database } from '../../db/client';
import { fillTemplate, localeTexts, type TextLanguage } from '../../platform/locale-texts';
import type { Mailer } from '../../platform/mail';
import type { PushSender } from '../../platform/push';
import { boundElementSql } from '../probes/bound-element';

/*
 * Sends the queued alert notifications (alert_notifications rows 'pending'). A batch is
 * claimed with FOR UPDATE SKIP LOCKED and marked 'sending' first, so two instances never send
 * the same row; a row left 'sending' by a crash is taken again after 5 minutes. E-mails go
 * through the mail module (the outbox without SMTP), pushes through Web Push; each in the
 * recipient's language (users.language, a tablet's subscription language; English otherwise).
 */

export type NotifyDeps = {
  db: Database;
  mailer: Mailer;
  push: PushSender | null;
  publicUrl: string;
  log?: { warn(object: object, message: string): void };
};

type Claimed = {
  id: string;
  level: number;
  recipient: string;
  channel: 'email' | 'push' | 'tablet';
  kind: AlertKind;
  episode_id: string;
  store_id: string;
  started_at: string;
  resolved_at: string | null;
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  worst_value: number | null;
  last_value: number | null;
  probe_name: string;
  element_name: string | null;
  store_name: string;
  timezone_name: string;
  escalation_minutes: number;
  email: string | null;
  language: string | null;
};

const languages: readonly string[] = ['fr', 'en', 'de', 'pl'];
const languageOf = (value: string | null): TextLanguage =>
  value && languages.includes(value) ? (value as TextLanguage) : 'en';

const number = (value: number | null) =>
  value === null ? '—' : String(Math.round(Number(value) * 10) / 10);

/** Subject and text of one notification in one language. */
export function alertMessage(row: Claimed, language: TextLanguage) {
  const texts = localeTexts('mails', language).alert;
  const zone = row.timezone_name || 'Europe/Paris';
  const when = (iso: string) =>
    DateTime.fromISO(new Date(iso).toISOString()).setZone(zone).toFormat('dd/MM/yyyy HH:mm');
  const probe = row.element_name ? `${row.element_name} (${row.probe_name})` : row.probe_name;
  const range =
    row.minimum_temperature !== null && row.maximum_temperature !== null
      ? fillTemplate(texts.range, {
          min: number(row.minimum_temperature),
          max: number(row.maximum_temperature),
        })
      : row.maximum_temperature !== null
        ? fillTemplate(texts.rangeMax, { max: number(row.maximum_temperature) })
        : fillTemplate(texts.rangeMin, { min: number(row.minimum_temperature) });
  const values = {
    probe,
    store: row.store_name,
    since: when(row.started_at),
    temperature: number(row.kind === 'out_of_range' ? row.worst_value : row.last_value),
    battery: number(row.last_value),
    range,
    minutes: row.level * row.escalation_minutes,
  };
  if (row.level < 0) {
    return {
      subject: fillTemplate(texts.subjectResolved, values),
      body: fillTemplate(texts.resolved, {
        ...values,
        since: when(row.resolved_at ?? row.started_at),
      }),
    };
  }
  const subject = {
    out_of_range: texts.subjectOutOfRange,
    offline: texts.subjectOffline,
    low_battery: texts.subjectLowBattery,
  }[row.kind];
  const body = {
    out_of_range: texts.outOfRange,
    offline: texts.offline,
    low_battery: texts.lowBattery,
  }[row.kind];
  const escalated = row.level > 0;
  return {
    subject: `${escalated ? fillTemplate(texts.subjectEscalated, values) : ''}${fillTemplate(subject, values)}`,
    body: [fillTemplate(body, values), escalated ? fillTemplate(texts.escalated, values) : '']
      .filter(Boolean)
      .join('\n\n'),
    acknowledge: texts.acknowledge,
  };
}

export async function deliverNotifications(deps: NotifyDeps, now: Date): Promise<number> {
  const { db } = deps;
  const at = now.toISOString();
  const claimed = (
    (await db.execute(sql`with claimed as (
        update alert_notifications n set status = 'sending', sent_at = ${at}::timestamptz
        where n.id in (select id from alert_notifications
          where status = 'pending'
            or (status = 'sending' and sent_at < ${at}::timestamptz - interval '5 minutes')
          order by created_at limit 200 for update skip locked)
        returning n.*)
      select c.id, c.level, c.recipient, c.channel, e.kind, e.id as episode_id, e.store_id,
        e.started_at::text as started_at, e.resolved_at::text as resolved_at,
        e.minimum_temperature, e.maximum_temperature, e.worst_value, e.last_value,
        p.name as probe_name, s.name as store_name, s.timezone_name,
        coalesce(d.alert_escalation_minutes, ${defaultEscalationMinutes}) as escalation_minutes,
        (select bound.name from ${boundElementSql(sql`e.store_id`, sql`p.probe_uid`)} bound)
          as element_name,
        u.email, u.language
      from claimed c
      join alert_episodes e on e.id = c.episode_id
      join probes p on p.id = e.probe_id
      join stores s on s.id = e.store_id
      left join databases d on d.id = s.database_id
      left join users u on c.channel <> 'tablet' and u.id::text = c.recipient`)) as unknown as {
      rows: Claimed[];
    }
  ).rows;
  if (claimed.length === 0) return 0;

  const subscriptions = (
    (await db.execute(sql`select id, user_id::text as user_id, device_id::text as device_id,
        endpoint, p256dh, auth, language
      from push_subscriptions
      where user_id::text = any(${`{${claimed.map((row) => row.recipient).join(',')}}`}::text[])
        or device_id::text = any(${`{${claimed.map((row) => row.recipient).join(',')}}`}::text[])`)) as unknown as {
      rows: {
        id: string;
        user_id: string | null;
        device_id: string | null;
        endpoint: string;
        p256dh: string;
        auth: string;
        language: string | null;
      }[];
    }
  ).rows;

  for (const row of claimed) {
    let ok = true;
    try {
      if (row.channel === 'email' && row.email) {
        const message = alertMessage(row, languageOf(row.language));
        const link = `${deps.publicUrl}/home?storeId=${encodeURIComponent(row.store_id)}`;
        await deps.mailer.send({
          to: [row.email],
          subject: message.subject,
          text: [message.body, '', message.acknowledge ?? '', link, '', 'Mise'].join('\n'),
        });
      } else if (row.channel !== 'email' && deps.push) {
        const targets = subscriptions.filter((subscription) =>
          row.channel === 'tablet'
            ? subscription.device_id === row.recipient
            : subscription.user_id === row.recipient,
        );
        for (const target of targets) {
          const message = alertMessage(row, languageOf(target.language ?? row.language));
          const payload: AlertPushPayload = {
            title: message.subject,
            body: message.body,
            url:
              row.channel === 'tablet'
                ? '/tablet/'
                : `/home?storeId=${encodeURIComponent(row.store_id)}`,
            alertId: row.episode_id,
            storeId: row.store_id,
            kind: row.kind,
          };
          const outcome = await deps.push.send(target, payload);
          if (outcome === 'gone')
            await db.execute(sql`delete from push_subscriptions where id = ${target.id}`);
          if (outcome === 'failed') ok = false;
        }
      }
    } catch (error) {
      ok = false;
      deps.log?.warn({ err: error, notification: row.id }, 'alert notification failed');
    }
    await db.execute(sql`update alert_notifications
      set status = ${ok ? 'sent' : 'failed'}, sent_at = ${new Date().toISOString()}::timestamptz
      where id = ${row.id}`);
  }
  return claimed.length;
}
