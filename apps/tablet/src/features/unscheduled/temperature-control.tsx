import { temperatureControlValid } from '@mise/shared/tasks/checks';
import type { temperatureControlInputSchema } from '@mise/shared/tasks/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DeviceElement } from '../../shared/api/types';
import { serverNow, useDeviceState } from '../../shared/device/device-state';
import type { EmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { formatTime } from '../../shared/ui/format';
import { NumericKeypad, parseKeypadValue } from '../../shared/ui/numeric-keypad';
import { showToast } from '../../shared/ui/toast';
import { isPossibleTemperature, nowSeconds } from '../tasks/forms/form-types';
import { SubmitBar } from '../tasks/forms/submit-bar';
import { saveTaskResult, saveUnscheduledTask } from '../tasks/submit';
import { ElementPicker } from './element-picker';
import {
  addOpenControl,
  controlDueAt,
  defaultControlDurationMinutes,
  type OpenControl,
  openControlsQueryKey,
  playReminderBeep,
  readOpenControls,
  removeOpenControl,
} from './open-controls';

type ControlInput = z.infer<typeof temperatureControlInputSchema>;
type ControlEntry = ControlInput['entries'][number];
type Mode = OpenControl['mode'];

function targetOf(element: DeviceElement, mode: Mode): number | null {
  return mode === 'cooling' ? element.cooling_temperature : element.reheating_temperature;
}

function durationOf(element: DeviceElement, mode: Mode): number {
  const minutes = mode === 'cooling' ? element.cooling_duration : element.reheating_duration;
  return minutes && minutes > 0 ? minutes : defaultControlDurationMinutes;
}

/** The entry as the start recorded it: the end step sends it unchanged, plus its end. */
function startEntry(control: OpenControl): ControlEntry {
  return {
    element: control.element,
    mode: control.mode,
    target_temperature: control.target_temperature,
    start_temperature: control.start_temperature,
    start_timestamp: control.start_timestamp,
    end_temperature: null,
    end_timestamp: null,
    comment: control.comment,
  };
}

function targetRule(t: TFunction, mode: Mode, target: number | null): string {
  if (target === null) return t('unscheduled.control.noTarget');
  return mode === 'cooling'
    ? t('unscheduled.control.targetCooling', { value: target })
    : t('unscheduled.control.targetReheating', { value: target });
}

/** "1:05:09" / "4:09": what is left until a control is due. */
function formatLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

function useTicking(everyMs: number): number {
  const [now, setNow] = useState(() => serverNow().getTime());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow().getTime()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * Temperature control (spec 002 §3, §4), an unscheduled task in two steps: the start (element,
 * cooling or reheating, the temperature now) creates the task; the tablet keeps the control
 * and reminds the employee when the element's duration has passed (banner, and a beep when the
 * device's audio reminders are on); the end temperature completes the same task. The target
 * and the spec's invalid rule (cooling ending above it, reheating below it) show at once.
 */
export function TemperatureControl({
  elements,
  session,
}: {
  elements: DeviceElement[];
  session: EmployeeSession;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const controls = useQuery({ queryKey: openControlsQueryKey, queryFn: readOpenControls });
  const device = useDeviceState();
  const isAudioOn = device.device?.audio_task_reminders ?? false;
  const now = useTicking(1000);
  const beeped = useRef(new Set<string>());
  const timeZone = device.context?.store.timezone_name;
  const formatSeconds = useCallback(
    (seconds: number) => formatTime(seconds * 1000, timeZone),
    [timeZone],
  );

  const open = controls.data ?? [];
  const due = open.filter((control) => controlDueAt(control) <= now);

  useEffect(() => {
    for (const control of due) {
      if (beeped.current.has(control.id)) continue;
      beeped.current.add(control.id);
      if (isAudioOn) playReminderBeep();
    }
  }, [due, isAudioOn]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: openControlsQueryKey });

  return (
    <div className="task-form">
      {due.length > 0 ? (
        <div className="reminder-banner" role="alert">
          {t('unscheduled.control.dueBanner', { count: due.length })}
        </div>
      ) : null}
      <section className="stack" aria-labelledby="open-controls-title">
        <h2 id="open-controls-title">{t('unscheduled.control.openTitle')}</h2>
        {open.length === 0 ? <p className="muted">{t('unscheduled.control.none')}</p> : null}
        {open.map((control) => (
          <OpenControlCard
            key={control.id}
            control={control}
            now={now}
            startedAt={formatSeconds(control.start_timestamp)}
            session={session}
            onEnded={refresh}
          />
        ))}
      </section>
      <StartControl elements={elements} session={session} onStarted={refresh} />
    </div>
  );
}

function StartControl({
  elements,
  session,
  onStarted,
}: {
  elements: DeviceElement[];
  session: EmployeeSession;
  onStarted: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [elementId, setElementId] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode | null>(null);
  const [start, setStart] = useState('');
  const element = elements.find((item) => item.id === elementId);
  const startTemperature = parseKeypadValue(start);
  const isPossible = isPossibleTemperature(startTemperature);

  const missing = [
    ...(element ? [] : [t('unscheduled.needsElement')]),
    ...(mode ? [] : [t('unscheduled.control.needsMode')]),
    ...(startTemperature === null ? [t('unscheduled.control.needsStart')] : []),
    ...(isPossible ? [] : [t('forms.temperatures.impossible')]),
  ];

  const handleStart = async () => {
    if (!element || !mode || startTemperature === null) return;
    const control: OpenControl = {
      id: crypto.randomUUID(),
      label: `${t('modules.module.temperature_control')} – ${element.name}`,
      element: element.id,
      element_name: element.name,
      mode,
      target_temperature: targetOf(element, mode),
      start_temperature: startTemperature,
      start_timestamp: nowSeconds(),
      duration_minutes: durationOf(element, mode),
      comment: '',
    };
    const result: ControlInput = { entries: [startEntry(control)] };
    await saveUnscheduledTask(
      {
        id: control.id,
        module: 'temperature_control',
        element: element.id,
        label: control.label,
        result,
      },
      session,
    );
    await addOpenControl(control);
    await onStarted();
    setElementId(null);
    setMode(null);
    setStart('');
    showToast(t('unscheduled.control.started'));
  };

  return (
    <section className="card stack" aria-labelledby="start-control-title">
      <h2 id="start-control-title">{t('unscheduled.control.newTitle')}</h2>
      <ElementPicker
        elements={elements}
        selected={elementId}
        onSelect={setElementId}
        label={t('unscheduled.element')}
      />
      {element ? (
        <fieldset className="choices fieldset-plain" aria-label={t('unscheduled.control.mode')}>
          {(['cooling', 'reheating'] as const).map((item) => (
            <button
              key={item}
              type="button"
              className="choice button--large"
              aria-pressed={mode === item}
              onClick={() => setMode(item)}
            >
              {t(`unscheduled.control.${item}`)}
            </button>
          ))}
        </fieldset>
      ) : null}
      {element && mode ? (
        <>
          <p className="field__label">{targetRule(t, mode, targetOf(element, mode))}</p>
          <p className="muted">
            {t('unscheduled.control.duration', { minutes: durationOf(element, mode) })}
          </p>
          <NumericKeypad
            label={t('unscheduled.control.start')}
            value={start}
            onChange={setStart}
            unit="°C"
            isInvalid={!isPossible}
          />
          <SubmitBar
            missing={missing}
            onSubmit={handleStart}
            label={t('unscheduled.control.startAction')}
          />
        </>
      ) : null}
    </section>
  );
}

function OpenControlCard({
  control,
  now,
  startedAt,
  session,
  onEnded,
}: {
  control: OpenControl;
  now: number;
  startedAt: string;
  session: EmployeeSession;
  onEnded: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [isEnding, setIsEnding] = useState(false);
  const [isForgetting, setIsForgetting] = useState(false);
  const [end, setEnd] = useState('');
  const left = controlDueAt(control) - now;
  const isDue = left <= 0;
  const endTemperature = parseKeypadValue(end);
  const isValid = temperatureControlValid(control.mode, endTemperature, control.target_temperature);
  const isPossible = isPossibleTemperature(endTemperature);

  const missing = [
    ...(endTemperature === null ? [t('unscheduled.control.needsEnd')] : []),
    ...(isPossible ? [] : [t('forms.temperatures.impossible')]),
  ];

  const handleEnd = async () => {
    if (endTemperature === null) return;
    const result: ControlInput = {
      entries: [
        { ...startEntry(control), end_temperature: endTemperature, end_timestamp: nowSeconds() },
      ],
    };
    await saveTaskResult({ id: control.id, name: control.label }, result, session);
    await removeOpenControl(control.id);
    await onEnded();
    showToast(t('outbox.saved'));
  };

  const handleForget = async () => {
    await removeOpenControl(control.id);
    await onEnded();
  };

  return (
    <article
      className={`card entry${isDue ? ' control--due' : ''}${isEnding && !isValid ? ' entry--invalid' : ''}`}
      aria-label={control.element_name}
    >
      <div className="entry__title">
        <h3>{control.element_name}</h3>
        <span className="badge">{t(`unscheduled.control.${control.mode}`)}</span>
        <span className="spacer" />
        <span className="control__time">
          {isDue
            ? t('unscheduled.control.due')
            : t('unscheduled.control.timeLeft', { time: formatLeft(left) })}
        </span>
      </div>
      <p className="muted">
        {t('unscheduled.control.startedAt', {
          time: startedAt,
          temperature: control.start_temperature,
        })}
      </p>
      <p className="field__label">{targetRule(t, control.mode, control.target_temperature)}</p>
      {isEnding ? (
        <>
          <NumericKeypad
            label={t('unscheduled.control.endOf', { name: control.element_name })}
            value={end}
            onChange={setEnd}
            unit="°C"
            isInvalid={!isValid || !isPossible}
            autoFocus
          />
          {endTemperature !== null ? (
            isValid ? (
              <p className="field__label">{t('unscheduled.control.valid')}</p>
            ) : (
              <p className="error-text" role="alert">
                {control.mode === 'cooling'
                  ? t('unscheduled.control.invalidCooling', { target: control.target_temperature })
                  : t('unscheduled.control.invalidReheating', {
                      target: control.target_temperature,
                    })}
              </p>
            )
          ) : null}
          <SubmitBar
            missing={missing}
            onSubmit={handleEnd}
            label={t('unscheduled.control.endAction')}
          />
        </>
      ) : (
        <div className="row">
          <button
            type="button"
            className={`button button--large${isDue ? ' button--primary' : ''}`}
            onClick={() => setIsEnding(true)}
          >
            {t('unscheduled.control.takeEnd', { name: control.element_name })}
          </button>
          {/* A start the server refused (shown in the outbox) would otherwise stay listed. */}
          <button
            type="button"
            className="button button--ghost"
            onClick={() => setIsForgetting(true)}
          >
            {t('unscheduled.control.forget')}
          </button>
        </div>
      )}
      {isForgetting ? (
        <Dialog title={t('unscheduled.control.forget')} onClose={() => setIsForgetting(false)}>
          <p>{control.label}</p>
          <div className="row">
            <button type="button" className="button" onClick={() => setIsForgetting(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => void handleForget()}
            >
              {t('common.confirm')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </article>
  );
}
