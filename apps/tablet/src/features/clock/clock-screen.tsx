import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome } from '../../app/navigation';
import { CameraCapture } from '../../shared/camera/camera-capture';
import { serverNow, useDeviceState } from '../../shared/device/device-state';
import { enqueue, storePicture } from '../../shared/outbox/outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { showToast } from '../../shared/ui/toast';
import { fetchLastPunch, nextIsIn, rememberPunch } from './last-punch';
import './clock.css';
import { formatDate, formatTime } from '../../shared/ui/format';

/** Seconds the confirmation stays before the day list comes back by itself. */
const confirmationSeconds = 4;

function useTimeFormat() {
  const zone = useDeviceState().context?.store.timezone_name;
  return (at: number, withDay = false) =>
    withDay ? formatDate(at, { withTime: true, withWeekday: true, zone }) : formatTime(at, zone);
}

/** The time now, on the server's clock, refreshed every few seconds. */
function useNow(intervalMs = 5000): number {
  const [now, setNow] = useState(() => serverNow().getTime());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow().getTime()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * Clocking in or out (spec 000 §2 Punch cards, §4): the identified employee takes a selfie with
 * the front camera and the entry alternates with the previous one (in after an exit or none,
 * else out). The punch goes through the outbox (selfie uploaded first), so it works offline;
 * the last entry known on this tablet keeps the alternation right meanwhile.
 */
export function ClockScreen() {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const queryClient = useQueryClient();
  const formatTime = useTimeFormat();
  const now = useNow();
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const [done, setDone] = useState<{ isIn: boolean; at: number } | null>(null);
  // A double tap on "use this picture" records one punch.
  const isRecording = useRef(false);
  const employeeId = session?.employee.id ?? '';
  const last = useQuery({
    queryKey: ['punch-last', employeeId],
    queryFn: () => fetchLastPunch(employeeId, session?.token ?? ''),
    enabled: Boolean(session),
    gcTime: 0,
    staleTime: 0,
  });

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(goHome, confirmationSeconds * 1000);
    return () => clearTimeout(timer);
  }, [done]);

  if (!session) {
    return (
      <section className="stack clock">
        <p>{t('clock.identifyFirst')}</p>
        <button type="button" className="button" onClick={goHome}>
          {t('common.back')}
        </button>
      </section>
    );
  }

  const name = `${session.employee.name} ${session.employee.surname}`.trim();
  const isIn = nextIsIn(last.data ?? null, now);

  const handleCapture = async (selfie: Blob) => {
    if (isRecording.current) return;
    isRecording.current = true;
    setIsCameraOpen(false);
    setIsSaving(true);
    try {
      const at = serverNow().getTime();
      const selfiePath = await storePicture(selfie, at);
      await enqueue({
        kind: 'punch',
        path: '/device/punches',
        // The tablet's own clock (not serverNow): the server removes its offset with the
        // request's x-sent-at, so a punch sent after a network cut keeps its time.
        body: { is_in: isIn, selfie_path: selfiePath, clocked_timestamp: new Date().toISOString() },
        employee_token: session.token,
        employee_name: name,
        label: t(isIn ? 'clock.in' : 'clock.out'),
        task_id: null,
      });
      await rememberPunch(employeeId, { is_in: isIn, at });
      queryClient.setQueryData(['punch-last', employeeId], { is_in: isIn, at });
      setDone({ isIn, at });
    } catch {
      // The tablet could not keep the record (storage full or broken): nothing was saved.
      isRecording.current = false;
      showToast(t('errors.unknown'));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <section className="stack clock" aria-labelledby="clock-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id="clock-title">{t('clock.title')}</h1>
      </div>
      <div className="card stack clock__panel">
        <p className="clock__name">{name}</p>
        <p className="clock__now" aria-live="off">
          {formatTime(now, true)}
        </p>
        {last.isPending ? (
          <p className="muted">{t('common.loading')}</p>
        ) : (
          <>
            <p className="muted" data-testid="clock-last">
              {last.data
                ? t(last.data.is_in ? 'clock.lastIn' : 'clock.lastOut', {
                    time: formatTime(last.data.at, true),
                  })
                : t('clock.noEntry')}
            </p>
            <button
              type="button"
              className={`button button--primary button--large clock__action clock__action--${isIn ? 'in' : 'out'}`}
              disabled={isSaving}
              onClick={() => setIsCameraOpen(true)}
            >
              {t(isIn ? 'clock.in' : 'clock.out')}
            </button>
            <p className="muted">{t('clock.selfieHint')}</p>
          </>
        )}
      </div>
      {isCameraOpen ? (
        <CameraCapture
          facing="user"
          title={t('clock.selfieTitle')}
          onCapture={(selfie) => void handleCapture(selfie)}
          onCancel={() => setIsCameraOpen(false)}
        />
      ) : null}
      {done ? (
        <Dialog title={t(done.isIn ? 'clock.doneIn' : 'clock.doneOut')} onClose={goHome}>
          <p className="clock__confirmation" data-testid="clock-confirmation">
            {t(done.isIn ? 'clock.confirmIn' : 'clock.confirmOut', {
              name,
              time: formatTime(done.at),
            })}
          </p>
          <p className="muted">{t('outbox.saved')}</p>
          <button type="button" className="button button--primary button--large" onClick={goHome}>
            {t('common.close')}
          </button>
        </Dialog>
      ) : null}
    </section>
  );
}
