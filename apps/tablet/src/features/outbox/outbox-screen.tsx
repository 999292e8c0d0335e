import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/i18n/i18n';
import { discardRecord, retryRecord } from '../../shared/outbox/outbox';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { formatTime } from '../../shared/ui/format';

function RecordItem({ record }: { record: OutboxRecord }) {
  const { t } = useTranslation();
  return (
    <li className="card stack">
      <strong>{record.label}</strong>
      <span className="muted">
        {t('outbox.by', { name: record.employee_name, time: formatTime(record.created_at) })}
      </span>
      {record.refusal && (
        <>
          <p className="error-text" role="alert">
            {t('outbox.reason', {
              reason: errorText(record.refusal.code, record.refusal.message),
            })}
          </p>
          <div className="row">
            <button type="button" className="button" onClick={() => void retryRecord(record.seq!)}>
              {t('common.retry')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => void discardRecord(record.seq!)}
            >
              {t('common.discard')}
            </button>
          </div>
        </>
      )}
    </li>
  );
}

/** What the tablet has not handed to the server: waiting records and refusals with reasons. */
export function OutboxScreen() {
  const { t } = useTranslation();
  const { waiting, refused } = useOutbox();
  return (
    <section className="stack" aria-labelledby="outbox-title">
      <h1 id="outbox-title">{t('outbox.title')}</h1>
      {waiting.length === 0 && refused.length === 0 && <p className="muted">{t('outbox.empty')}</p>}
      {refused.length > 0 && (
        <>
          <h2>{t('outbox.refused')}</h2>
          <ul className="stack" style={{ padding: 0 }}>
            {refused.map((record) => (
              <RecordItem key={record.seq} record={record} />
            ))}
          </ul>
        </>
      )}
      {waiting.length > 0 && (
        <>
          <h2>{t('outbox.waiting')}</h2>
          <ul className="stack" style={{ padding: 0 }}>
            {waiting.map((record) => (
              <RecordItem key={record.seq} record={record} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
