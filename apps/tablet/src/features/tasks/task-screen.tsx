import { useQuery } from '@tanstack/react-query';
import {
  type CSSProperties,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { goHome, navigate } from '../../app/navigation';
import type { DeviceElement, DeviceTask } from '../../shared/api/types';
import { serverNow, useDeviceState } from '../../shared/device/device-state';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { outboxSnapshot, refreshOutbox, subscribeOutbox } from '../../shared/outbox/outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { showToast } from '../../shared/ui/toast';
import { ActionsForm } from './forms/actions-form';
import type { TaskFormProps } from './forms/form-types';
import { OilsForm } from './forms/oils-form';
import { TemperaturesForm } from './forms/temperatures-form';
import { saveTaskResult } from './submit';
import './forms/forms.css';
import { formatTime } from '../../shared/ui/format';

type TasksAnswer = { day: string; items: DeviceTask[] };
type ElementsAnswer = { items: DeviceElement[] };
type WindowState = DeviceTask['window'];

/** Where the server's now stands in the task's window (the list's `window` ages as time passes). */
export function taskWindowNow(
  task: Pick<DeviceTask, 'opens_at' | 'closes_at'>,
  now: Date,
): WindowState {
  if (now.getTime() < Date.parse(task.opens_at)) return 'not_open_yet';
  if (now.getTime() >= Date.parse(task.closes_at)) return 'closed';
  return 'open';
}

/** The server's clock, read again every `everyMs`. */
function useServerNow(everyMs = 15_000): Date {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function useTimeFormat() {
  const timeZone = useDeviceState().context?.store.timezone_name;
  return useCallback((date: Date) => formatTime(date, timeZone), [timeZone]);
}

/**
 * One task of the day, filled in with the form of its module (temperatures, actions, oils).
 * Refused politely outside its window or without an identified employee. A completed task
 * (or one waiting to send) opens read-only; "Correct" reopens it and asks for a reason (a new
 * revision on the server).
 */
export function TaskScreen({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const tasks = useQuery(cachedQueryOptions<TasksAnswer>('tasks'));
  const elementsQuery = useQuery(cachedQueryOptions<ElementsAnswer>('elements'));
  const session = useEmployeeSession();
  const outbox = useSyncExternalStore(subscribeOutbox, outboxSnapshot, outboxSnapshot);
  const now = useServerNow();
  const formatTime = useTimeFormat();
  const [isCorrecting, setIsCorrecting] = useState(false);
  const [reason, setReason] = useState('');

  useEffect(() => {
    void refreshOutbox();
  }, []);

  const elements = useMemo(
    () => new Map((elementsQuery.data?.items ?? []).map((element) => [element.id, element])),
    [elementsQuery.data],
  );
  const task = tasks.data?.items.find((item) => item.id === taskId);

  if (!task) {
    return (
      <Notice
        text={tasks.isPending ? t('common.loading') : t('forms.notFound')}
        showBack={!tasks.isPending}
      />
    );
  }

  const start = new Date(task.start);
  const end = new Date(start.getTime() + task.duration * 60_000);
  const header = (
    <header className="screen-header">
      <button type="button" className="button button--ghost" onClick={goHome}>
        ← {t('common.back')}
      </button>
      <h1>{task.name}</h1>
      <span
        className="badge module-chip"
        style={{ '--chip-color': `var(--module-${task.module})` } as CSSProperties}
      >
        {t(`modules.module.${task.module}`)}
      </span>
      <span className="muted">
        {t('today.window', { start: formatTime(start), end: formatTime(end) })}
      </span>
    </header>
  );

  if (!session) return <Notice header={header} text={t('forms.noSession')} showBack />;

  if (task.module === 'traceability' || task.module === 'temperature_control') {
    const module = task.module;
    return (
      <div className="task-screen">
        {header}
        <div className="card task-screen__notice">
          <p>{t('forms.unscheduledHint')}</p>
          <button
            type="button"
            className="button button--primary button--large"
            onClick={() => navigate({ name: 'create', module })}
          >
            {t(`modules.module.${module}`)}
          </button>
        </div>
      </div>
    );
  }

  const windowState = taskWindowNow(task, now);
  const waiting = outbox.waiting.find(
    (record) => record.task_id === task.id && record.kind === 'task-result',
  );
  const isCompleted = task.completed_timestamp !== null;

  if (!isCompleted && !waiting && windowState !== 'open') {
    const text =
      windowState === 'not_open_yet'
        ? t('forms.notOpenYet', { time: formatTime(new Date(task.opens_at)) })
        : t('forms.closed');
    return <Notice header={header} text={text} showBack />;
  }

  const isReadOnly = (isCompleted || Boolean(waiting)) && !isCorrecting;
  const recorded = waiting?.body.result ?? task.result;
  const canCorrect = isCompleted && !waiting && windowState === 'open' && !isCorrecting;

  const handleSubmit = async (result: unknown) => {
    await saveTaskResult(task, result, session, isCorrecting ? reason.trim() : undefined);
    showToast(t('outbox.saved'));
    goHome();
  };

  const footer = isCorrecting ? (
    <label className="field">
      <span className="field__label">{t('forms.reason')}</span>
      <textarea
        className="textarea"
        maxLength={500}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
    </label>
  ) : null;

  const formProps: TaskFormProps<unknown> = {
    task,
    elements,
    initialResult: isCompleted || waiting ? recorded : null,
    isReadOnly,
    footer,
    isFooterComplete: !isCorrecting || reason.trim() !== '',
    onSubmit: handleSubmit,
  };

  return (
    <div className="task-screen">
      {header}
      {waiting ? <p className="read-only-note">{t('forms.waiting')}</p> : null}
      {isCompleted && !waiting && !isCorrecting ? (
        <div className="read-only-note row">
          <span>
            {task.employee
              ? t('today.doneBy', {
                  name: `${task.employee.name} ${task.employee.surname}`.trim(),
                  time: formatTime(new Date(task.completed_timestamp!)),
                })
              : t('forms.completed')}
          </span>
          <span className="spacer" />
          {canCorrect ? (
            <button type="button" className="button" onClick={() => setIsCorrecting(true)}>
              {t('forms.correct')}
            </button>
          ) : null}
        </div>
      ) : null}
      {isCorrecting ? (
        <div className="read-only-note row">
          <span>{t('forms.correcting')}</span>
          <span className="spacer" />
          <button
            type="button"
            className="button"
            onClick={() => {
              setIsCorrecting(false);
              setReason('');
            }}
          >
            {t('forms.cancelCorrection')}
          </button>
        </div>
      ) : null}
      {/* A new key remounts the form: a cancelled correction starts again from the record. */}
      <ModuleForm
        key={isCorrecting ? 'correcting' : 'viewing'}
        module={task.module}
        props={formProps}
      />
    </div>
  );
}

function ModuleForm({
  module,
  props,
}: {
  module: DeviceTask['module'];
  props: TaskFormProps<unknown>;
}) {
  switch (module) {
    case 'temperatures':
      return <TemperaturesForm {...props} />;
    case 'actions':
      return <ActionsForm {...props} />;
    case 'oils':
      return <OilsForm {...props} />;
    default:
      return null;
  }
}

function Notice({
  header,
  text,
  showBack,
}: {
  header?: ReactNode;
  text: string;
  showBack: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="task-screen">
      {header}
      <div className="card task-screen__notice" role="status">
        <p>{text}</p>
        {showBack ? (
          <button type="button" className="button button--primary button--large" onClick={goHome}>
            {t('common.back')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
