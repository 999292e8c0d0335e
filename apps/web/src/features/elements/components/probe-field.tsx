import { Alert, Loader, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { Probe } from '@mise/shared/probes/schemas';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { errorMessage } from '../../../shared/i18n/error-message';
import { useStoreProbeOptions } from '../api/get-store-probes';
import { useElementForm } from './element-form-context';

/** The select's value for "no probe" (a probeUID never contains a space). */
const noProbe = '';

/** "4.2", one decimal at most. */
function formatDegrees(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** "4.2 °C". */
function formatTemperature(value: number): string {
  return `${formatDegrees(value)} °C`;
}

/**
 * Whether the saved binding is missing: a probeUID that is not among the store's probes once
 * they are loaded (spec 000/001: 'La sonde précédemment selectionnée est introuvable').
 */
export function isSavedProbeMissing(
  savedProbeId: string | null,
  probes: readonly Pick<Probe, 'probeUID'>[] | undefined,
): boolean {
  if (savedProbeId === null || probes === undefined) return false;
  return !probes.some((probe) => probe.probeUID === savedProbeId);
}

/**
 * Store level, temperatures module: the store probe the element is bound to (spec 001
 * probe_id). A native select (keyboard and screen readers as the platform gives them, at
 * any width) of the store's probes with their last temperature, "no probe" to unbind, and
 * the spec's warning while the saved probe is no longer one of the store's.
 */
export function ProbeField() {
  const { t } = useTranslation();
  const { level, ownerId, draft, isReadOnly, savedProbeId, update } = useElementForm();
  const isStore = level === 'store';
  const probes = useStoreProbeOptions(ownerId, isStore);
  if (!isStore) return null;

  const items = probes.data;
  const isMissing = isSavedProbeMissing(savedProbeId, items);
  const selected = items?.find((probe) => probe.probeUID === draft.probeId) ?? null;
  const options = [
    { value: noProbe, label: t('element.probe.none') },
    ...(items ?? []).map((probe) => ({
      value: probe.probeUID,
      label:
        probe.lastTemperature === null
          ? t('element.probe.optionNoData', { name: probe.name })
          : t('element.probe.option', {
              name: probe.name,
              temperature: formatTemperature(probe.lastTemperature),
            }),
    })),
  ];
  // The missing probe stays selectable as it is until it is changed, so the select shows it.
  if (draft.probeId !== null && items && !items.some((probe) => probe.probeUID === draft.probeId)) {
    options.push({
      value: draft.probeId,
      label: t('element.probe.missingOption', { probe: draft.probeId }),
    });
  }

  return (
    <Stack gap="xs" data-testid="element-probe">
      <Title order={5}>{t('element.probe.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('element.probe.description')}
      </Text>
      {probes.isPending ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : probes.isError ? (
        <Text c="red" size="sm" role="alert">
          {errorMessage(t, probes.error)}
        </Text>
      ) : (
        <>
          {isMissing ? (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              data-testid="element-probe-missing"
              role="alert"
            >
              {t('element.probe.missing')}
            </Alert>
          ) : null}
          <NativeSelect
            label={t('element.probe.label')}
            data={options}
            value={draft.probeId ?? noProbe}
            disabled={isReadOnly}
            error={isMissing && draft.probeId === savedProbeId}
            onChange={(event) => {
              const value = event.currentTarget.value;
              update((current) => ({ ...current, probeId: value === noProbe ? null : value }));
            }}
            style={{ maxWidth: 420 }}
            data-testid="field-probe_id"
          />
          {items && items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('element.probe.noProbes')}
            </Text>
          ) : null}
          {selected ? (
            <Text size="sm" data-testid="element-probe-reading">
              {selected.lastTemperature === null || selected.lastTemperatureTimestamp === null
                ? t('element.probe.noReading')
                : t('element.probe.lastReading', {
                    temperature: formatDegrees(selected.lastTemperature),
                    time: formatDateTime(selected.lastTemperatureTimestamp),
                  })}
            </Text>
          ) : null}
        </>
      )}
    </Stack>
  );
}
