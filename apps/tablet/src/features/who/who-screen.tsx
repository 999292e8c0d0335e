import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiRequest, NetworkError } from '../../shared/api/client';
import { useImageSource } from '../../shared/api/protected-file';
import type { DeviceEmployee, EmployeeAuthentication } from '../../shared/api/types';
import { errorText } from '../../shared/i18n/i18n';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { openSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { PatternGrid } from './pattern-grid';
import { PinPad } from './pin-pad';

/** Minutes and seconds left of a lockout, as people read it ("4 min 05 s"). */
export function formatWait(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

function Avatar({ employee }: { employee: DeviceEmployee }) {
  const source = useImageSource(employee.illustration_url);
  if (source) return <img className="avatar" src={source} alt="" />;
  return (
    <span className="avatar" aria-hidden="true">
      {(employee.name[0] ?? '').toUpperCase()}
      {(employee.surname[0] ?? '').toUpperCase()}
    </span>
  );
}

type IdentifyDialogProps = { employee: DeviceEmployee; onClose: () => void };

/** The PIN pad or the pattern, checked by the server only (the tablet never holds a secret). */
function IdentifyDialog({ employee, onClose }: IdentifyDialogProps) {
  const { t } = useTranslation();
  const [isBusy, setIsBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const name = `${employee.name} ${employee.surname}`.trim();

  const handleSecret = async (secret: { pin: string } | { pattern: number[] }) => {
    setIsBusy(true);
    setMessage(null);
    try {
      const answer = await apiRequest<EmployeeAuthentication>(
        `/device/employees/${employee.id}/authenticate`,
        { method: 'POST', body: secret, timeoutMs: 10_000 },
      );
      await openSession({
        employee: answer.employee,
        token: answer.employee_token,
        expires_at: answer.expires_at,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'employee/locked-out')
        setMessage(t('who.lockedOut', { time: formatWait(error.retryAfterSeconds ?? 0) }));
      else if (error instanceof ApiError) setMessage(errorText(error.code, error.message));
      else if (error instanceof NetworkError) setMessage(t('who.needsNetwork'));
      else throw error;
      setIsBusy(false);
    }
  };

  return (
    <Dialog
      title={t(employee.using_password ? 'who.pinTitle' : 'who.patternTitle', { name })}
      onClose={onClose}
    >
      {employee.using_password ? (
        <PinPad isBusy={isBusy} onComplete={(pin) => void handleSecret({ pin })} />
      ) : (
        <PatternGrid
          isBusy={isBusy}
          onSubmit={(pattern) => {
            // The spec's check before any call: at least 3 points.
            if (pattern.length < 3) setMessage(errorText('pattern-too-short'));
            else void handleSecret({ pattern });
          }}
        />
      )}
      {isBusy && <p className="muted">{t('who.checking')}</p>}
      {message && (
        <p className="error-text" role="alert">
          {message}
        </p>
      )}
      <button type="button" className="button button--ghost" onClick={onClose}>
        {t('common.cancel')}
      </button>
    </Dialog>
  );
}

/** "Who is working?": the store's active employees as large cards; a tap asks for the secret. */
export function WhoScreen() {
  const { t } = useTranslation();
  const employees = useQuery(cachedQueryOptions<{ items: DeviceEmployee[] }>('employees'));
  const [chosen, setChosen] = useState<DeviceEmployee | null>(null);
  const items = employees.data?.items ?? [];

  return (
    <section className="stack" aria-labelledby="who-title">
      <h1 id="who-title">{t('who.title')}</h1>
      {employees.isPending && <p className="muted">{t('common.loading')}</p>}
      {employees.isError && !employees.data && (
        <p className="error-text">
          {employees.error instanceof ApiError
            ? errorText(employees.error.code, employees.error.message)
            : t('errors.network')}
        </p>
      )}
      {employees.isSuccess && items.length === 0 && <p className="muted">{t('who.empty')}</p>}
      <div className="people">
        {items.map((employee) => (
          <button
            key={employee.id}
            type="button"
            className="person"
            onClick={() => setChosen(employee)}
            disabled={!employee.has_secret}
            title={employee.has_secret ? undefined : t('who.noSecret')}
          >
            <Avatar employee={employee} />
            <span>
              {employee.name} {employee.surname}
            </span>
            {!employee.has_secret && <span className="muted">{t('who.noSecret')}</span>}
          </button>
        ))}
      </div>
      {chosen && <IdentifyDialog employee={chosen} onClose={() => setChosen(null)} />}
    </section>
  );
}
