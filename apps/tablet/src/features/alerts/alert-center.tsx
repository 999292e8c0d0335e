import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cachedQuerySavedAt } from '../../shared/offline/cached-query';
import { type AlreadyDoneAnswer, onRecordSent } from '../../shared/outbox/outbox';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { formatTime } from '../../shared/ui/format';
import { showToast } from '../../shared/ui/toast';
import { useAlarmSound, useSilence } from './alarm-sound';
import { useAlertPush } from './alert-push';
import {
  alertProbe,
  alertRange,
  alertReading,
  alertSince,
  alertSubject,
  alertSummary,
} from './alert-text';
import {
  type AlertEpisode,
  acknowledgedAlertId,
  alertPollMs,
  type DeviceAlerts,
  groupAlerts,
  replaceEpisode,
  useDeviceAlerts,
} from './device-alerts';
import './alerts.css';

// Opened rarely: its own chunk (precached by the service worker, so it opens offline too).
const AcknowledgeDialog = lazy(() =>
  import('./acknowledge-dialog').then((module) => ({ default: module.AcknowledgeDialog })),
);

type AlertCenterProps = {
  /** The device's audio setting (back-office): the alarm sounds only where it is on. */
  isAudioOn: boolean;
  /** The screen saver is showing: the banner is drawn over it. */
  isIdle: boolean;
  /** Takes the screen saver away (the employee acts on the alarm). */
  onWake: () => void;
};

function EpisodeDetails({ episode }: { episode: AlertEpisode }) {
  const { t } = useTranslation();
  const now = new Date();
  const probe = alertProbe(t, episode);
  const reading = alertReading(t, episode);
  const range = alertRange(t, episode);
  return (
    <div className="alert-item__text">
      <strong className="alert-item__subject">{alertSubject(episode)}</strong>
      <span className="alert-item__kind">{t(`alerts.kinds.${episode.kind}`)}</span>
      <span>{[probe, alertSince(t, episode, now)].filter(Boolean).join(' · ')}</span>
      {(reading || range) && (
        <span className="alert-item__reading">
          {[reading, episode.kind === 'out_of_range' ? range : null].filter(Boolean).join(' · ')}
        </span>
      )}
    </div>
  );
}

/**
 * The store's probe alerts on every screen of the tablet (issue 15): a red banner while an
 * episode is neither acknowledged nor resolved, with a repeating alarm where the device's audio
 * setting is on (Silence mutes it 10 minutes); quieter lines for an acknowledgement waiting to
 * send, an episode resolved but still to acknowledge, and one acknowledged while it still holds.
 */
export function AlertCenter({ isAudioOn, isIdle, onWake }: AlertCenterProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const alerts = useDeviceAlerts();
  const { waiting } = useOutbox();
  const session = useEmployeeSession();
  const { silence, silenceFor, isSilenced } = useSilence();
  const [acknowledgingId, setAcknowledgingId] = useState<string | null>(null);
  const [needsIdentification, setNeedsIdentification] = useState(false);
  const [doneElsewhere, setDoneElsewhere] = useState<ReadonlySet<string>>(() => new Set());
  useAlertPush();

  const sendingIds = useMemo(
    () =>
      new Set(
        waiting.map(acknowledgedAlertId).filter((id): id is string => typeof id === 'string'),
      ),
    [waiting],
  );
  const items = alerts.data?.items ?? [];
  const groups = groupAlerts(items, sendingIds);
  const ringingKey = groups.ringing.map((episode) => episode.id).join(',');
  const isRinging = isAudioOn && groups.ringing.some((episode) => !isSilenced(episode.id));
  useAlarmSound(isRinging);

  // Announced once per episode (role="alert"), never again at each poll.
  const announced = useRef(new Set<string>());
  const [announcement, setAnnouncement] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ringing ids decide, not the copies.
  useEffect(() => {
    const fresh = groups.ringing.filter((episode) => !announced.current.has(episode.id));
    if (fresh.length === 0) return;
    for (const episode of fresh) announced.current.add(episode.id);
    setAnnouncement(
      `${t('alerts.announce')} ${fresh.map((episode) => alertSummary(t, episode)).join('. ')}`,
    );
  }, [ringingKey, t]);

  // The server's answer to an acknowledgement replaces the kept copy at once.
  useEffect(() => {
    const stopListening = onRecordSent((record, answer) => {
      const alertId = acknowledgedAlertId(record);
      if (!alertId) return;
      const alreadyDone = (answer as AlreadyDoneAnswer | null)?.already_done;
      const sent = (answer as { alert?: AlertEpisode } | null)?.alert;
      if (sent) {
        queryClient.setQueryData<DeviceAlerts>(['alerts'], (old) => replaceEpisode(old, sent));
        showToast(t('alerts.acknowledged'));
      } else if (alreadyDone) {
        setDoneElsewhere((old) => new Set(old).add(alertId));
        showToast(t('alerts.alreadyAcknowledged'));
      }
      void queryClient.invalidateQueries({ queryKey: ['alerts'] });
    });
    return () => {
      stopListening();
    };
  }, [queryClient, t]);

  // Asked to acknowledge before anyone was identified: the form opens once someone is.
  useEffect(() => {
    if (session && needsIdentification) setNeedsIdentification(false);
  }, [session, needsIdentification]);

  const handleAcknowledge = (episode: AlertEpisode) => {
    onWake();
    setAcknowledgingId(episode.id);
    if (!session) {
      setNeedsIdentification(true);
      // The who-is-working screen is what shows without a session: bring it into view.
      document.getElementById('who-title')?.scrollIntoView?.({ block: 'start' });
    }
  };

  const savedAt = cachedQuerySavedAt('alerts');
  const isOldCopy = savedAt !== null && Date.now() - savedAt > 2 * alertPollMs;
  const acknowledging = items.find((episode) => episode.id === acknowledgingId);
  const hasNotes =
    groups.sending.length + groups.toAcknowledge.length + groups.acknowledged.length > 0;
  const acknowledgeLabel = session ? t('alerts.acknowledge') : t('alerts.identifyToAcknowledge');

  return (
    <>
      <div className="visually-hidden" role="alert">
        {announcement}
      </div>
      {groups.ringing.length > 0 && (
        <section
          className={isIdle ? 'alert-banner alert-banner--over' : 'alert-banner'}
          aria-labelledby="alert-banner-title"
          data-testid="alert-banner"
        >
          <div className="alert-banner__head">
            <span className="alert-banner__icon" aria-hidden="true">
              !
            </span>
            <h2 id="alert-banner-title">
              {t('alerts.bannerTitle', { count: groups.ringing.length })}
            </h2>
            <span className="spacer" />
            {isAudioOn &&
              (silence && groups.ringing.every((episode) => isSilenced(episode.id)) ? (
                <span className="alert-banner__silenced">
                  {t('alerts.silencedUntil', { time: formatTime(silence.until) })}
                </span>
              ) : (
                <button
                  type="button"
                  className="button alert-banner__silence"
                  onClick={() => silenceFor(groups.ringing.map((episode) => episode.id))}
                >
                  {t('alerts.silence')}
                </button>
              ))}
          </div>
          {isOldCopy && savedAt !== null && (
            <p className="alert-banner__note">
              {t('alerts.offlineCopy', { time: formatTime(savedAt) })}
            </p>
          )}
          {needsIdentification && !session && (
            <p className="alert-banner__note">{t('alerts.identifyFirst')}</p>
          )}
          <ul className="alert-banner__list">
            {groups.ringing.map((episode) => (
              <li key={episode.id} className="alert-item">
                <EpisodeDetails episode={episode} />
                <button
                  type="button"
                  className="button alert-item__action"
                  onClick={() => handleAcknowledge(episode)}
                >
                  {acknowledgeLabel}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {hasNotes && (
        <section className="alert-notes" aria-label={t('alerts.notesTitle')}>
          <ul className="alert-notes__list">
            {groups.sending.map((episode) => (
              <li key={episode.id} className="alert-note alert-note--sending">
                <EpisodeDetails episode={episode} />
                <span className="alert-note__state">{t('alerts.sending')}</span>
              </li>
            ))}
            {groups.toAcknowledge.map((episode) => (
              <li key={episode.id} className="alert-note">
                <EpisodeDetails episode={episode} />
                <span className="alert-note__state">
                  {t('alerts.resolvedAt', { time: formatTime(episode.resolvedAt ?? '') })}
                </span>
                <button
                  type="button"
                  className="button alert-item__action"
                  onClick={() => handleAcknowledge(episode)}
                >
                  {acknowledgeLabel}
                </button>
              </li>
            ))}
            {groups.acknowledged.map((episode) => (
              <li key={episode.id} className="alert-note alert-note--acknowledged">
                <EpisodeDetails episode={episode} />
                <span className="alert-note__state">
                  {t(doneElsewhere.has(episode.id) ? 'alerts.doneElsewhere' : 'alerts.doneBy', {
                    name: episode.acknowledgedByName ?? '',
                    time: formatTime(episode.acknowledgedAt ?? ''),
                  })}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {needsIdentification && !session && !groups.ringing.length && (
        <p className="alert-banner__note" role="status">
          {t('alerts.identifyFirst')}
        </p>
      )}
      {acknowledging &&
        session &&
        !acknowledging.acknowledgedAt &&
        !sendingIds.has(acknowledging.id) && (
          <Suspense fallback={null}>
            <AcknowledgeDialog
              episode={acknowledging}
              session={session}
              onClose={() => setAcknowledgingId(null)}
            />
          </Suspense>
        )}
    </>
  );
}
