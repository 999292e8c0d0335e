import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type CreatedInspectorLink,
  inspectorLinkDefaultDays,
  inspectorLinkLabelMaxLength,
  inspectorLinkMaxDays,
  validateInspectorLinkPeriod,
} from '@mise/shared/records/links';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCalendarDays, currentWeek } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { useCreateInspectorLink } from '../api/create-inspector-link';

type CreateInspectorLinkDialogProps = {
  opened: boolean;
  onClose: () => void;
  storeId: string;
  /** The store's zone: the default period is its previous calendar week. */
  timeZone: string;
};

/** Monday to Sunday of the week before the store's current one. */
function previousWeek(timeZone: string): DateRange {
  const week = currentWeek(timeZone);
  return { start: addCalendarDays(week.start, -7), end: addCalendarDays(week.end, -7) };
}

const dayOptions = Array.from({ length: inspectorLinkMaxDays }, (_, index) => index + 1);

/**
 * A new inspector link (issue 21): label, period (up to 31 days or a whole month) and how many
 * days it stays valid (1 to 7). Once created, its URL is shown this one time, with a copy
 * button: the server keeps only the token's hash.
 */
export function CreateInspectorLinkDialog({
  opened,
  onClose,
  storeId,
  timeZone,
}: CreateInspectorLinkDialogProps) {
  const { t } = useTranslation();
  const [label, setLabel] = useState('');
  const [period, setPeriod] = useState<DateRange>(() => previousWeek(timeZone));
  const [days, setDays] = useState(String(inspectorLinkDefaultDays));
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInspectorLink | null>(null);
  const mutation = useCreateInspectorLink(storeId);

  function reset() {
    setLabel('');
    setPeriod(previousWeek(timeZone));
    setDays(String(inspectorLinkDefaultDays));
    setProblem(null);
    setCreated(null);
    mutation.reset();
  }

  function handleClose() {
    reset();
    onClose();
  }

  function handleCreate() {
    if (!period.start || !period.end) {
      setProblem(t('inspector.create.periodRequired'));
      return;
    }
    const invalid = validateInspectorLinkPeriod(period.start, period.end);
    if (invalid) {
      setProblem(t(`errors.${invalid}`));
      return;
    }
    setProblem(null);
    mutation.mutate(
      {
        label: label.trim(),
        period_start: period.start,
        period_end: period.end,
        expires_in_days: Number(days),
      },
      {
        onSuccess: setCreated,
        onError: (error) => setProblem(errorMessage(t, error)),
      },
    );
  }

  if (created) {
    return (
      <Modal
        opened={opened}
        onClose={handleClose}
        title={t('inspector.create.createdTitle')}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
        data-testid="inspector-link-created"
      >
        <Stack gap="sm">
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('inspector.create.onceWarning')}
          </Alert>
          <TextInput
            label={t('inspector.create.url')}
            value={created.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            data-testid="inspector-link-url"
          />
          <Group justify="flex-end">
            <CopyButton value={created.url}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                  data-testid="inspector-link-copy"
                >
                  {copied ? t('inspector.create.copied') : t('inspector.create.copy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={handleClose} data-testid="inspector-link-done">
              {t('inspector.create.done')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('inspector.create.title')}
      primaryLabel={t('inspector.create.submit')}
      onPrimary={handleCreate}
      isPrimaryLoading={mutation.isPending}
      primaryTestId="inspector-link-submit"
      testId="inspector-link-dialog"
      footer={<ErrorText testId="inspector-link-error">{problem}</ErrorText>}
    >
      <TextInput
        label={t('inspector.create.label')}
        placeholder={t('inspector.create.labelPlaceholder')}
        value={label}
        maxLength={inspectorLinkLabelMaxLength}
        onChange={(event) => setLabel(event.currentTarget.value)}
        data-testid="inspector-link-label"
      />
      <Stack gap={4}>
        <DateRangePicker
          label={t('inspector.create.period')}
          value={period}
          onChange={setPeriod}
          testId="inspector-link-period"
        />
        <Text size="xs" c="dimmed">
          {t('inspector.create.periodHint')}
        </Text>
      </Stack>
      <Select
        label={t('inspector.create.expiry')}
        data={dayOptions.map((count) => ({
          value: String(count),
          label: t('inspector.create.days', { count }),
        }))}
        value={days}
        onChange={(value) => value && setDays(value)}
        allowDeselect={false}
        data-testid="inspector-link-days"
        comboboxProps={{ withinPortal: true }}
      />
    </FormDialog>
  );
}
