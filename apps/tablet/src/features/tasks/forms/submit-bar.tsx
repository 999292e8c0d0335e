import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './forms.css';

type SubmitBarProps = {
  /** What is still missing, one line each: the send button waits until the list is empty. */
  missing: string[];
  onSubmit: () => Promise<void>;
  label?: string;
};

/** The send button of a form, with what still blocks it listed above. */
export function SubmitBar({ missing, onSubmit, label }: SubmitBarProps) {
  const { t } = useTranslation();
  const [isSending, setIsSending] = useState(false);
  const handleClick = async () => {
    setIsSending(true);
    try {
      await onSubmit();
    } finally {
      setIsSending(false);
    }
  };
  return (
    <div className="submit-bar stack">
      {missing.length > 0 ? (
        <div className="submit-bar__missing" role="status">
          <p className="field__label">{t('forms.missing')}</p>
          <ul>
            {missing.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <button
        type="button"
        className="button button--primary button--large button--block"
        disabled={missing.length > 0 || isSending}
        onClick={() => void handleClick()}
      >
        {label ?? t('forms.send')}
      </button>
    </div>
  );
}
