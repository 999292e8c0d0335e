import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../../shared/api/client';
import { pairDevice } from '../../shared/device/device-state';
import { errorText } from '../../shared/i18n/i18n';

const QrScanner = lazy(() =>
  import('./qr-scanner').then((module) => ({ default: module.QrScanner })),
);

/** Pairing keys are 10 characters (uppercase letters and digits). */
export const pairingKeyLength = 10;

/** Keeps the characters a pairing key can hold, uppercased (a QR code may carry spaces). */
export function normalizePairingKey(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 32);
}

/** First start: the store's pairing key (typed or scanned) and a name for the tablet. */
export function PairingScreen() {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [isScanning, setIsScanning] = useState(false);

  const handlePair = async (pairingKey: string) => {
    if (pairingKey.length !== pairingKeyLength) {
      setError(t('pairing.keyInvalid'));
      return;
    }
    setIsBusy(true);
    setError(null);
    try {
      await pairDevice(pairingKey, name);
    } catch (caught) {
      if (caught instanceof ApiError) setError(errorText(caught.code, caught.message));
      else if (caught instanceof NetworkError) setError(t('pairing.offline'));
      else throw caught;
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <main className="content pairing">
      <form
        className="card stack"
        style={{ maxWidth: 560, margin: '8vh auto 0' }}
        onSubmit={(event) => {
          event.preventDefault();
          void handlePair(key);
        }}
      >
        <h1>{t('pairing.title')}</h1>
        <p className="muted">{t('pairing.intro')}</p>
        <label className="field">
          <span className="field__label">{t('pairing.key')}</span>
          <input
            className="input"
            style={{ fontSize: '1.6rem', letterSpacing: '0.2em', textTransform: 'uppercase' }}
            value={key}
            onChange={(event) => setKey(normalizePairingKey(event.target.value))}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
          />
        </label>
        <label className="field">
          <span className="field__label">{t('pairing.name')}</span>
          <input
            className="input"
            value={name}
            maxLength={80}
            placeholder={t('pairing.namePlaceholder')}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="row">
          <button type="button" className="button" onClick={() => setIsScanning(true)}>
            {t('pairing.scan')}
          </button>
          <span className="spacer" />
          <button type="submit" className="button button--primary button--large" disabled={isBusy}>
            {t('pairing.submit')}
          </button>
        </div>
      </form>
      {isScanning && (
        <Suspense fallback={null}>
          <QrScanner
            onCancel={() => setIsScanning(false)}
            onResult={(text) => {
              setIsScanning(false);
              const scanned = normalizePairingKey(text);
              setKey(scanned);
              void handlePair(scanned);
            }}
          />
        </Suspense>
      )}
    </main>
  );
}
