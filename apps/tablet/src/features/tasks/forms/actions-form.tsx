import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionAttachments, actionAttachmentsOf } from './action-attachments';
import {
  type ActionsResult,
  type ResultPicture,
  resultEntries,
  type TaskFormProps,
} from './form-types';
import { PictureField } from './picture-field';
import { SubmitBar } from './submit-bar';
import './forms.css';

type Entry = ActionsResult['entries'][number];
type Draft = { done: boolean | null; picture: ResultPicture | null };

/**
 * Actions (spec 002 §3): the task's checklist, each sub-task answered done or not done (an
 * explicit "not done" is a record too, so every line needs an answer). A sub-task that
 * requires a picture needs one when it is done (the server's rule); not done, none is asked.
 * Each sub-task shows its reference documents (spec 001 §3.6), read with the device token.
 */
export function ActionsForm({
  task,
  initialResult,
  isReadOnly,
  footer,
  isFooterComplete = true,
  onSubmit,
}: TaskFormProps<ActionsResult>) {
  const { t } = useTranslation();
  const initialEntries = resultEntries<Entry>(initialResult) ?? [];
  const [drafts, setDrafts] = useState<Draft[]>(() =>
    task.actions.map((_, index) => {
      const entry = initialEntries.find((item) => item.index === index);
      return { done: entry?.done ?? null, picture: entry?.picture ?? null };
    }),
  );
  const update = (index: number, change: Partial<Draft>) =>
    setDrafts((current) =>
      current.map((draft, at) => (at === index ? { ...draft, ...change } : draft)),
    );

  const missing = task.actions.flatMap((action, index) => {
    const draft = drafts[index]!;
    if (draft.done === null) return [t('forms.actions.needsAnswer', { name: action.name })];
    if (draft.done && action.requires_picture && !draft.picture)
      return [t('forms.actions.needsPicture', { name: action.name })];
    return [];
  });
  if (!isFooterComplete) missing.push(t('forms.needsReason'));

  const handleSubmit = () =>
    onSubmit({
      entries: task.actions.map(
        (action, index): Entry => ({
          index,
          action: action.name,
          done: drafts[index]!.done === true,
          requires_picture: action.requires_picture,
          picture: drafts[index]!.picture,
        }),
      ),
    });

  return (
    <div className="task-form">
      {task.actions.map((action, index) => {
        const draft = drafts[index]!;
        return (
          <section
            // biome-ignore lint/suspicious/noArrayIndexKey: the position is the action's identity.
            key={index}
            className={`card entry${draft.done ? ' entry--done' : ''}`}
            aria-label={action.name}
          >
            <div className="entry__title">
              <h3>{action.name}</h3>
              {action.requires_picture ? (
                <span className="muted">{t('forms.actions.pictureHint')}</span>
              ) : null}
            </div>
            <ActionAttachments subject={action.name} attachments={actionAttachmentsOf(action)} />
            <fieldset className="choices fieldset-plain" aria-label={action.name}>
              <button
                type="button"
                className="choice choice--toggle button--large"
                aria-pressed={draft.done === true}
                disabled={isReadOnly}
                onClick={() => update(index, { done: true })}
              >
                ✓ {t('forms.actions.done')}
              </button>
              <button
                type="button"
                className="choice choice--no button--large"
                aria-pressed={draft.done === false}
                disabled={isReadOnly}
                onClick={() => update(index, { done: false })}
              >
                ✕ {t('forms.actions.notDone')}
              </button>
            </fieldset>
            {action.requires_picture ? (
              <PictureField
                subject={action.name}
                pictures={draft.picture ? [draft.picture] : []}
                onChange={(pictures) => update(index, { picture: pictures[0] ?? null })}
                isRequired={draft.done === true}
                max={1}
                isReadOnly={isReadOnly}
              />
            ) : null}
          </section>
        );
      })}
      {isReadOnly ? null : (
        <>
          {footer}
          <SubmitBar missing={missing} onSubmit={handleSubmit} />
        </>
      )}
    </div>
  );
}
