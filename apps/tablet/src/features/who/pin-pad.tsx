import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type PinPadProps = {
  /** Called with the 4 digits as soon as the fourth is typed (auto-advance). */
  onComplete: (pin: string) => void;
  isBusy?: boolean;
};

export const pinLength = 4;

/** A 4-digit PIN pad with large keys: each digit moves on, the fourth submits (spec 001 §2.11). */
export function PinPad({ onComplete, isBusy = false }: PinPadProps) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');

  const handleDigit = (digit: string) => {
    if (isBusy || pin.length >= pinLength) return;
    const next = pin + digit;
    setPin(next);
    if (next.length === pinLength) {
      onComplete(next);
      setPin('');
    }
  };

  // A physical keyboard works too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: handleDigit reads the current pin
  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if (/^\d$/.test(event.key)) handleDigit(event.key);
      else if (event.key === 'Backspace') setPin((current) => current.slice(0, -1));
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, [pin, isBusy]);

  return (
    <div className="stack">
      <p>{t('who.enterPin')}</p>
      <div className="pin-dots" role="status" aria-label={`${pin.length} / ${pinLength}`}>
        {Array.from({ length: pinLength }, (_, index) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed positions
            key={index}
            className={index < pin.length ? 'pin-dot pin-dot--filled' : 'pin-dot'}
          />
        ))}
      </div>
      <div className="keypad">
        {['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => (
          <button
            key={digit}
            type="button"
            className="button"
            aria-label={t('who.digit', { digit })}
            disabled={isBusy}
            onClick={() => handleDigit(digit)}
          >
            {digit}
          </button>
        ))}
        <span />
        <button
          type="button"
          className="button"
          aria-label={t('who.digit', { digit: '0' })}
          disabled={isBusy}
          onClick={() => handleDigit('0')}
        >
          0
        </button>
        <button
          type="button"
          className="button"
          aria-label={t('who.erase')}
          disabled={isBusy || pin.length === 0}
          onClick={() => setPin((current) => current.slice(0, -1))}
        >
          ⌫
        </button>
      </div>
    </div>
  );
}
