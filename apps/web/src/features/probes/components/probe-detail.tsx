import { Grid, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { alertDelayMinutesRange } from '@mise/shared/probes/alert-rules';
import { postingIntervalMinutesRange } from '@mise/shared/probes/constants';
import type { Probe } from '@mise/shared/probes/schemas';
import { IconBattery2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { PageHeader } from '../../../shared/ui/page-header';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useEditProbe } from '../api/edit-probe';
import { LastTemperature } from './last-temperature';
import { ProbeChartPanel } from './probe-chart-panel';
import {
  type ProbeFormValues,
  probeEditBody,
  probeFormProblem,
  probeFormValues,
} from './probe-form';
import { ProbeOwnerStore } from './probe-owner-store';
import { ProbeWorkingBadge } from './probe-working-badge';

type ProbeDetailProps = { probe: Probe; storeName: string | null; isWorking: boolean };

/**
 * Probe detail (spec 000 §2): name, active, save; upload frequency in minutes, push
 * notification, minimum and maximum; last temperature; owner store; the charts.
 */
export function ProbeDetail({ probe, storeName, isWorking }: ProbeDetailProps) {
  const { t } = useTranslation();
  const { values, setValues, isDirty, adopt } = useRecordDraft(probe, probeFormValues);
  useUnsavedChangesPrompt(isDirty);
  const editMutation = useEditProbe(probe.probeUID);
  const [problem, setProblem] = useState<string | null>(null);

  function setValue<Key extends keyof ProbeFormValues>(key: Key, value: ProbeFormValues[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  async function handleSave() {
    const found = probeFormProblem(values);
    setProblem(found);
    if (found) {
      notifyError(t(found), { autoClose: saveErrorDurationMs });
      return;
    }
    try {
      const saved = await editMutation.mutateAsync(probeEditBody(values));
      adopt(saved);
      notifySuccess(t('common.savedSuccessfully'));
    } catch (error) {
      notifyError(errorMessage(t, error), { autoClose: saveErrorDurationMs });
    }
  }

  return (
    <>
      <PageHeader
        title={probe.name}
        subtitle={probe.probeUID}
        actions={
          <LoadingButton onClick={handleSave} data-testid="save">
            {t('common.save')}
          </LoadingButton>
        }
      />
      <Stack gap="lg">
        <Grid>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <TextInput
                  label={t('probes.name')}
                  required
                  value={values.name}
                  onChange={(event) => setValue('name', event.currentTarget.value)}
                  error={problem === 'forms.fillRequired' ? t('forms.required') : undefined}
                  data-testid="probe-name"
                />
                <Switch
                  label={t('common.active')}
                  checked={values.active}
                  onChange={(event) => setValue('active', event.currentTarget.checked)}
                  data-testid="probe-active"
                />
                <NumericInput
                  label={t('probes.interval')}
                  description={t('probes.intervalHint')}
                  suffix={` ${t('probes.minutesUnit')}`}
                  min={postingIntervalMinutesRange.min}
                  max={postingIntervalMinutesRange.max}
                  allowDecimal={false}
                  value={values.intervalMinutes}
                  onChange={(value) => setValue('intervalMinutes', value)}
                  error={problem === 'probes.invalidInterval' ? t(problem) : undefined}
                  data-testid="probe-interval"
                />
                <NumericInput
                  label={t('probes.alertDelay')}
                  description={t('probes.alertDelayHint')}
                  suffix={` ${t('probes.minutesUnit')}`}
                  min={alertDelayMinutesRange.min}
                  max={alertDelayMinutesRange.max}
                  allowDecimal={false}
                  value={values.alertDelayMinutes}
                  onChange={(value) => setValue('alertDelayMinutes', value)}
                  error={problem === 'probes.invalidAlertDelay' ? t(problem) : undefined}
                  data-testid="probe-alert-delay"
                />
                <Switch
                  label={t('probes.pushNotification')}
                  checked={values.pushNotification}
                  onChange={(event) => setValue('pushNotification', event.currentTarget.checked)}
                  data-testid="probe-push"
                />
                <Grid>
                  <Grid.Col span={{ base: 12, xs: 6 }}>
                    <NumericInput
                      label={t('probes.minimumTemperature')}
                      suffix=" °C"
                      decimalScale={1}
                      value={values.minimumTemperature}
                      onChange={(value) => setValue('minimumTemperature', value)}
                      error={problem === 'errors.probe/invalid-range' ? t(problem) : undefined}
                      data-testid="probe-minimum"
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, xs: 6 }}>
                    <NumericInput
                      label={t('probes.maximumTemperature')}
                      suffix=" °C"
                      decimalScale={1}
                      value={values.maximumTemperature}
                      onChange={(value) => setValue('maximumTemperature', value)}
                      data-testid="probe-maximum"
                    />
                  </Grid.Col>
                </Grid>
              </Stack>
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <div>
                  <Text size="sm" c="dimmed">
                    {t('probes.lastTemperature')}
                  </Text>
                  <LastTemperature probe={probe} size="lg" />
                </div>
                <ProbeWorkingBadge isWorking={isWorking} />
                <div>
                  <Text size="sm" c="dimmed">
                    {t('probes.battery')}
                  </Text>
                  <Text size="sm" data-testid="probe-battery">
                    <IconBattery2 size={16} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
                    {probe.batteryLevel === null
                      ? t('probes.noData')
                      : t('probes.batteryValue', { value: Math.round(probe.batteryLevel) })}
                  </Text>
                </div>
                <div>
                  <Text size="sm" c="dimmed">
                    {t('probes.store')}
                  </Text>
                  <ProbeOwnerStore probe={probe} storeName={storeName} />
                </div>
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
        <Title order={2} size="h4">
          {t('probes.chart.title')}
        </Title>
        <ProbeChartPanel probe={probe} />
      </Stack>
    </>
  );
}
