import { labelHoursRange } from '@mise/shared/catalogue/constants';
import { printLabel } from '@mise/shared/catalogue/rules';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { goHome } from '../../app/navigation';
import type { DeviceElement, ElementLabel } from '../../shared/api/types';
import { serverNow, useDeviceState } from '../../shared/device/device-state';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { LabelSheet } from './label-sheet';
import { allergenLetters, editableDuration, searchText, toLabelValues } from './label-values';
import './labels.css';

/** The preview's dates follow the clock (a label printed later counts from later). */
function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => serverNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

type ElementPickerProps = { elements: DeviceElement[]; onPick: (element: DeviceElement) => void };

/** Large element cards with a search box (stores keep hundreds of products). */
function ElementPicker({ elements, onPick }: ElementPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const wanted = searchText(search);
    return wanted
      ? elements.filter((element) =>
          searchText(`${element.name} ${element.type_name ?? ''}`).includes(wanted),
        )
      : elements;
  }, [elements, search]);
  return (
    <div className="stack">
      <label className="field">
        <span className="field__label">{t('labels.search')}</span>
        <input
          className="input"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('labels.searchPlaceholder')}
        />
      </label>
      {shown.length === 0 ? (
        <p className="muted">{t(elements.length === 0 ? 'labels.noElement' : 'labels.noMatch')}</p>
      ) : (
        <ul className="labels__grid">
          {shown.map((element) => (
            <li key={element.id}>
              <button type="button" className="labels__tile" onClick={() => onPick(element)}>
                <span className="labels__tile-name">{element.name}</span>
                <span className="muted">
                  {element.type_name ? `${element.type_name} · ` : ''}
                  {t('labels.count', { count: element.labels.length })}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type LabelPanelProps = { element: DeviceElement; label: ElementLabel };

/** The chosen label: its dates now, the adjustable duration of editable types, and Print. */
function LabelPanel({ element, label }: LabelPanelProps) {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const store = useDeviceState().context?.store;
  const now = useNow();
  const base = toLabelValues(label);
  const editable = editableDuration(base.type);
  const [hours, setHours] = useState<number | null>(null);
  const values = editable && hours !== null ? { ...base, [editable]: hours } : base;
  const printed = printLabel(values, element.name, now);
  const sheet = {
    printed,
    typeName: t(`label.types.${values.type}`),
    allergenLetters: allergenLetters(element.allergens),
    employeeName: session ? `${session.employee.name} ${session.employee.surname}`.trim() : '',
    storeName: store?.name ?? '',
    timeZone: store?.timezone_name,
  };
  const current = editable ? values[editable] : 0;
  const adjust = (delta: number) =>
    setHours(Math.min(labelHoursRange.max, Math.max(labelHoursRange.min, current + delta)));

  return (
    <div className="stack">
      <figure className="label-preview" aria-label={t('labels.preview')}>
        <LabelSheet {...sheet} />
      </figure>
      {editable ? (
        <div className="card stack">
          <p className="field__label">
            {t(editable === 'expiration_duration' ? 'label.expiration' : 'label.defrosting')}
          </p>
          <div className="row labels__duration">
            <button type="button" className="button" onClick={() => adjust(-24)}>
              {t('labels.minusDay')}
            </button>
            <button type="button" className="button" onClick={() => adjust(-1)}>
              {t('labels.minusHour')}
            </button>
            <output className="labels__duration-value" aria-live="polite">
              {t('label.duration', { days: Math.floor(current / 24), hours: current % 24 })}
            </output>
            <button type="button" className="button" onClick={() => adjust(1)}>
              {t('labels.plusHour')}
            </button>
            <button type="button" className="button" onClick={() => adjust(24)}>
              {t('labels.plusDay')}
            </button>
          </div>
        </div>
      ) : null}
      <button
        type="button"
        className="button button--primary button--large"
        onClick={() => window.print()}
      >
        {t('label.print')}
      </button>
      {createPortal(
        <div className="label-sheet" aria-hidden="true">
          <LabelSheet {...sheet} />
        </div>,
        document.body,
      )}
    </div>
  );
}

/**
 * Labels (spec 001 §3.2, §3.4): pick an element, one of its active labels, see the label with
 * its dates computed now (the back-office preview's rule, printLabel), adjust the duration of
 * an editable label, print it on the browser's print dialog sized for a 62 mm label printer.
 */
export function LabelsScreen() {
  const { t } = useTranslation();
  const elements = useQuery(cachedQueryOptions<{ items: DeviceElement[] }>('elements'));
  const [elementId, setElementId] = useState<string | null>(null);
  const [labelId, setLabelId] = useState<string | null>(null);
  const labelled = useMemo(
    () =>
      (elements.data?.items ?? [])
        .filter((element) => element.modules.labels)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [elements.data],
  );
  const element = labelled.find((item) => item.id === elementId) ?? null;
  const labels = [...(element?.labels ?? [])].sort((a, b) => a.index - b.index);
  const label = labels.find((item) => item.id === labelId) ?? null;

  const handleBack = () => {
    if (element) {
      setElementId(null);
      setLabelId(null);
    } else goHome();
  };

  return (
    <section className="stack labels" aria-labelledby="labels-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={handleBack}>
          {t('common.back')}
        </button>
        <h1 id="labels-title">{element ? element.name : t('labels.title')}</h1>
      </div>
      {!elements.data ? (
        <p className={elements.isError ? 'error-text' : 'muted'}>
          {t(elements.isError ? 'errors.network' : 'common.loading')}
        </p>
      ) : !element ? (
        <ElementPicker
          elements={labelled}
          onPick={(picked) => {
            setElementId(picked.id);
            setLabelId(picked.labels.length === 1 ? (picked.labels[0]?.id ?? null) : null);
          }}
        />
      ) : labels.length === 0 ? (
        <p className="muted">{t('labels.noLabel')}</p>
      ) : (
        <div className="labels__layout">
          <fieldset className="stack labels__choices">
            <legend className="visually-hidden">{t('labels.chooseLabel')}</legend>
            {labels.map((item) => (
              <button
                key={item.id}
                type="button"
                aria-pressed={item.id === labelId}
                className="choice labels__choice"
                onClick={() => setLabelId(item.id)}
              >
                <span>{item.name}</span>
                <span className="badge">{t(`label.types.${item.type}`)}</span>
              </button>
            ))}
          </fieldset>
          {label ? (
            <LabelPanel key={label.id} element={element} label={label} />
          ) : (
            <p className="muted">{t('labels.chooseLabel')}</p>
          )}
        </div>
      )}
    </section>
  );
}
