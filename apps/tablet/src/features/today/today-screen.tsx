import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import type { DeviceTask } from '../../shared/api/types';
import { useDeviceState } from '../../shared/device/device-state';
import { cachedQueryOptions, cachedQuerySavedAt } from '../../shared/offline/cached-query';
import { useIsOnline } from '../../shared/outbox/network-indicator';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { canOpen, type FeatureKey } from '../../shared/session/permissions';
import { Dialog } from '../../shared/ui/dialog';
import { formatTime } from '../../shared/ui/format';
import { showToast } from '../../shared/ui/toast';
import { useNow } from '../../shared/ui/use-now';
import { savePostponement } from '../tasks/submit';
import { type DisplayStatus, displayStatus, groupTasks, isActionable } from './task-display';
import './today.css';

type DayTasks = { day: string; items: DeviceTask[] };

/** Minutes a task can be postponed by, offered as large buttons (the server checks the day). */
const postponeSteps = [15, 30, 60, 120] as const;

function PostponeDialog({ task, onClose }: { task: DeviceTask; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const now = useNow();
  const handlePostpone = async (minutes: number) => {
    if (!session) return;
    await savePostponement(task, new Date(now.getTime() + minutes * 60_000), session);
    showToast(t('today.postponed'));
    onClose();
  };
  return (
    <Dialog title={t('today.postponeTitle', { name: task.name })} onClose={onClose}>
      <p>{t('today.postponeTo')}</p>
      <div className="row">
        {postponeSteps.map((minutes) => (
          <button
            key={minutes}
            type="button"
            className="button button--large"
            onClick={() => void handlePostpone(minutes)}
          >
            {formatTime(now.getTime() + minutes * 60_000)}
          </button>
        ))}
      </div>
      <button type="button" className="button button--ghost" onClick={onClose}>
        {t('common.cancel')}
      </button>
    </Dialog>
  );
}

function TaskCard({ task, status }: { task: DeviceTask; status: DisplayStatus }) {
  const { t } = useTranslation();
  const end = Date.parse(task.start) + task.duration * 60_000;
  const isDone = status === 'done' || status === 'done-late';
  const className = ['task', status === 'late' ? 'task--late' : '', isDone ? 'task--done' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type="button"
      className={className}
      style={{ '--task-color': `var(--module-${task.module})` } as CSSProperties}
      data-testid="today-task"
      data-status={status}
      onClick={() => navigate({ name: 'task', taskId: task.id })}
    >
      <span className="task__name">{task.name}</span>
      <span className="row today__meta">
        <span
          className="badge module-chip"
          style={{ '--chip-color': `var(--module-${task.module})` } as CSSProperties}
        >
          {t(`modules.module.${task.module}`)}
        </span>
        <span>{t('today.window', { start: formatTime(task.start), end: formatTime(end) })}</span>
        <span className={`badge status--${status}`}>{t(`today.statuses.${status}`)}</span>
      </span>
      {status === 'not-open' && (
        <span className="muted">{t('today.opensAt', { time: formatTime(task.opens_at) })}</span>
      )}
      {isDone && task.employee && task.completed_timestamp && (
        <span className="muted">
          {t('today.doneBy', {
            name: `${task.employee.name} ${task.employee.surname}`,
            time: formatTime(task.completed_timestamp),
          })}
        </span>
      )}
    </button>
  );
}

/**
 * Today: the day's tasks grouped as the device's calendar order says, each with its window,
 * module colour and live status; late ones stand out. Works from the kept copy offline.
 */
export function TodayScreen() {
  const { t } = useTranslation();
  const tasks = useQuery({
    ...cachedQueryOptions<DayTasks>('tasks'),
    refetchInterval: 60_000,
  });
  const { device, context } = useDeviceState();
  const session = useEmployeeSession();
  const outbox = useOutbox();
  const now = useNow();
  const [postponing, setPostponing] = useState<DeviceTask | null>(null);
  const isOffline = !useIsOnline() || outbox.offlineSince !== null;
  const savedAt = cachedQuerySavedAt('tasks');
  const visible = (tasks.data?.items ?? []).filter((task) =>
    canOpen(task.module as FeatureKey, context, session),
  );
  const groups = groupTasks(visible, device?.calendar_types_order ?? []);

  return (
    <section aria-labelledby="today-title">
      <div className="screen-header">
        <h1 id="today-title">{t('today.title')}</h1>
        {isOffline && savedAt !== null && (
          <span className="muted">{t('today.offlineCopy', { time: formatTime(savedAt) })}</span>
        )}
      </div>
      {tasks.isPending && <p className="muted">{t('common.loading')}</p>}
      {tasks.isSuccess && visible.length === 0 && <p className="muted">{t('today.empty')}</p>}
      <div className="day-groups">
        {groups.map((group) => (
          <section key={group.type ?? ''} aria-label={group.type ?? t('today.untyped')}>
            <h2 className="today__group">{group.type ?? t('today.untyped')}</h2>
            <ul className="task-list">
              {group.tasks.map((task) => {
                const status = displayStatus(task, now, outbox);
                return (
                  <li key={task.id} className="today__item">
                    <TaskCard task={task} status={status} />
                    {isActionable(status) && status !== 'refused' && !task.original_task && (
                      <button
                        type="button"
                        className="button button--ghost today__postpone"
                        onClick={() => setPostponing(task)}
                      >
                        {t('today.postpone')}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
      {postponing && <PostponeDialog task={postponing} onClose={() => setPostponing(null)} />}
    </section>
  );
}
