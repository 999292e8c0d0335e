import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enqueue } from '../../shared/outbox/outbox';
import type { EmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { showToast } from '../../shared/ui/toast';
import { alertProbe, alertReading, alertSince, alertSubject, alertSummary } from './alert-text';
import { type AlertEpisode, acknowledgePath } from './device-alerts';

/**
 * The contract's limit (packages/shared probes/alerts `correctiveActionMaxLength`, checked equal by
 * the tests): imported as a value, that module would bring zod's 90 kB into the tablet.
 */
export const correctiveActionMaxLength = 2000;

/** The corrective actions offered as a start; the text stays the employee's to complete. */
export const correctivePresets = ['moved', 'discarded', 'repair', 'doorClosed'] as const;
type Preset = (typeof correctivePresets)[number];

type AcknowledgeDialogProps = {
  episode: AlertEpisode;
  session: EmployeeSession;
  onClose: () => void;
};

/**
 * Acknowledging an episode: what was done (required free text, prefilled by a preset), sent
 * through the outbox with the employee's token, so a network cut loses nothing.
 */
export function AcknowledgeDialog({ episode, session, onClose }: AcknowledgeDialogProps) {
  const { t } = useTranslation();
  const fieldId = useId();
  const [text, setText] = useState('');
  const [preset, setPreset] = useState<Preset | null>(null);
  const [isMissing, setIsMissing] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const presetTexts = correctivePresets.map((name) => t(`alerts.presets.${name}`));
  const name = `${session.employee.name} ${session.employee.surname}`.trim();

  const handlePreset = (chosen: Preset) => {
    const chosenText = t(`alerts.presets.${chosen}`);
    const current = text.trim();
    // A preset replaces another preset's words; the employee's own words are kept before it.
    setText(
      current === '' || presetTexts.includes(current) ? chosenText : `${current}\n${chosenText}`,
    );
    setPreset(chosen);
    setIsMissing(false);
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const correctiveAction = text.trim();
    if (!correctiveAction) {
      setIsMissing(true);
      return;
    }
    setIsSaving(true);
    await enqueue({
      kind: 'alert-acknowledge',
      path: acknowledgePath(episode.id),
      body: { correctiveAction },
      employee_token: session.token,
      employee_name: name,
      label: t('alerts.outboxLabel', { summary: alertSummary(t, episode) }),
      task_id: null,
    });
    showToast(t('alerts.saved'));
    onClose();
  };

  const probe = alertProbe(t, episode);
  const reading = alertReading(t, episode);
  return (
    <Dialog
      title={t('alerts.acknowledgeTitle', { subject: alertSubject(episode) })}
      onClose={onClose}
    >
      <form className="stack" onSubmit={(event) => void handleSubmit(event)} noValidate>
        <p className="muted">
          {[t(`alerts.kinds.${episode.kind}`), probe, alertSince(t, episode, new Date()), reading]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <fieldset className="alert-presets">
          <legend className="field__label">{t('alerts.presetsTitle')}</legend>
          {correctivePresets.map((name) => (
            <button
              key={name}
              type="button"
              className="choice"
              aria-pressed={preset === name}
              onClick={() => handlePreset(name)}
            >
              {t(`alerts.presets.${name}`)}
            </button>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={fieldId}>
            {t('alerts.correctiveAction')}
          </label>
          <textarea
            id={fieldId}
            className={isMissing ? 'textarea input--invalid' : 'textarea'}
            value={text}
            required
            aria-invalid={isMissing}
            aria-describedby={isMissing ? `${fieldId}-error` : undefined}
            maxLength={correctiveActionMaxLength}
            onChange={(event) => {
              setText(event.target.value);
              if (event.target.value.trim()) setIsMissing(false);
            }}
          />
          {isMissing && (
            <p id={`${fieldId}-error`} className="error-text" role="alert">
              {t('alerts.needsAction')}
            </p>
          )}
        </div>
        <p className="muted">{t('alerts.by', { name })}</p>
        <div className="row alert-dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <span className="spacer" />
          <button type="submit" className="button button--primary" disabled={isSaving}>
            {t('alerts.acknowledgeSend')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
