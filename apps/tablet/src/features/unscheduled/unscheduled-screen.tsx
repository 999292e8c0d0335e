import { useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome } from '../../app/navigation';
import type { DeviceElement } from '../../shared/api/types';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { TemperatureControl } from './temperature-control';
import { TraceabilityForm } from './traceability-form';
import '../tasks/forms/forms.css';

type ElementsAnswer = { items: DeviceElement[] };
export type UnscheduledModule = 'traceability' | 'temperature_control';

/**
 * The spec's unscheduled tasks, made by the employee when the work happens: traceability
 * (photos of a product's labels) and temperature control (start now, end later). Only the
 * store's elements whose module is on are offered.
 */
export function UnscheduledScreen({ module }: { module: UnscheduledModule }) {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const elementsQuery = useQuery(cachedQueryOptions<ElementsAnswer>('elements'));
  const elements = (elementsQuery.data?.items ?? []).filter((element) => element.modules[module]);

  return (
    <div className="task-screen">
      <header className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          ← {t('common.back')}
        </button>
        <h1>{t(`modules.module.${module}`)}</h1>
        <span
          className="badge module-chip"
          style={{ '--chip-color': `var(--module-${module})` } as CSSProperties}
        >
          {t('unscheduled.badge')}
        </span>
      </header>
      {!session ? (
        <div className="card task-screen__notice" role="status">
          <p>{t('forms.noSession')}</p>
          <button type="button" className="button button--primary button--large" onClick={goHome}>
            {t('common.back')}
          </button>
        </div>
      ) : elementsQuery.isPending ? (
        <p className="muted">{t('common.loading')}</p>
      ) : module === 'traceability' ? (
        <TraceabilityForm elements={elements} session={session} />
      ) : (
        <TemperatureControl elements={elements} session={session} />
      )}
    </div>
  );
}
