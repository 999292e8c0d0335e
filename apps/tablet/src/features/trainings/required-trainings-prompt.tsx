import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useScreen } from '../../app/navigation';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { isRequiredToDo } from './training-results';
import { useTrainings } from './use-trainings';
import './trainings.css';

/**
 * The identifications (employee tokens) whose prompt is settled: shown and answered, or not
 * needed. Kept for the app's life, so the prompt comes once per identification.
 */
const settled = new Set<string>();

/**
 * Issue 18: each time an employee identifies with required trainings not done, they are shown
 * first: a prompt over the first screen lists them, "Start" opens the first one, "Later" closes
 * the prompt (nothing is recorded: a training is put off from its own screen). If the list
 * comes only after the employee has moved to another screen, no prompt interrupts them: the
 * menu's count and the list's order still put the required trainings first.
 */
export function RequiredTrainingsPrompt() {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const screen = useScreen();
  const { items } = useTrainings();
  const [, setVersion] = useState(0);
  const token = session?.token ?? null;
  const landing = useRef<{ token: string | null; screen: typeof screen } | null>(null);
  if (landing.current?.token !== token) landing.current = { token, screen };

  const settle = useCallback(() => {
    if (token) settled.add(token);
    setVersion((version) => version + 1);
  }, [token]);

  const isOnTrainings = screen.name === 'trainings' || screen.name === 'training';
  const hasMoved = landing.current.screen !== screen;
  const toDo = items?.filter(isRequiredToDo) ?? [];
  const isAnswerable = token !== null && !settled.has(token);
  const isKnown = items !== undefined;

  useEffect(() => {
    if (!isAnswerable) return;
    // Nothing to ask, or the employee went on without it: settled for this identification.
    if ((isKnown && toDo.length === 0) || isOnTrainings || hasMoved) settle();
  }, [isAnswerable, isKnown, toDo.length, isOnTrainings, hasMoved, settle]);

  if (!isAnswerable || !isKnown || toDo.length === 0 || isOnTrainings || hasMoved) return null;
  const first = toDo[0]!;
  return (
    <Dialog title={t('trainings.promptTitle', { count: toDo.length })} onClose={settle}>
      <p>{t('trainings.promptText', { count: toDo.length })}</p>
      <ul className="trainings-prompt__list">
        {toDo.map((training) => (
          <li key={training.id} lang={training.lang}>
            {training.name}
          </li>
        ))}
      </ul>
      <div className="trainings-prompt__actions">
        <button type="button" className="button button--large" onClick={settle}>
          {t('trainings.later')}
        </button>
        <button
          type="button"
          className="button button--primary button--large"
          onClick={() => {
            settle();
            navigate({ name: 'training', trainingId: first.id });
          }}
        >
          {t('trainings.start')}
        </button>
      </div>
    </Dialog>
  );
}
