import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { useOutbox } from './use-outbox';

export function useIsOnline(): boolean {
  const [isOnline, setIsOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const handleOnline = () => setIsOnline(true);
    const handleOffline = () => setIsOnline(false);
    window.addEventListener('online', handleOnline);
    window.addEventListener('offline', handleOffline);
    return () => {
      window.removeEventListener('online', handleOnline);
      window.removeEventListener('offline', handleOffline);
    };
  }, []);
  return isOnline;
}

/**
 * Online or offline, and how many records wait or were refused; opens the list. A network
 * failure of the last send counts as offline even when the system says online.
 */
export function NetworkIndicator() {
  const { t } = useTranslation();
  const isOnline = useIsOnline();
  const { waiting, refused, offlineSince } = useOutbox();
  const isOffline = !isOnline || offlineSince !== null;
  const className =
    refused.length > 0 ? 'net net--refused' : isOffline ? 'net net--offline' : 'net';
  const parts = [isOffline ? t('app.offline') : t('app.online')];
  if (waiting.length > 0) parts.push(t('app.waiting', { count: waiting.length }));
  if (refused.length > 0) parts.push(t('app.refused', { count: refused.length }));
  return (
    <button
      type="button"
      className={className}
      onClick={() => navigate({ name: 'outbox' })}
      data-testid="network-indicator"
      aria-live="polite"
    >
      <span className="net__dot" aria-hidden="true" />
      {parts.join(' · ')}
    </button>
  );
}
