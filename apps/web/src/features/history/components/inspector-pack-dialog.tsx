import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type InspectorPack,
  type InspectorPackStatus,
  previousMonth,
  validatePackPeriod,
} from '@mise/shared/records/pack';
import { IconDownload, IconPackage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatCalendarDay,
  formatStoreDateTime,
  todayInStoreZone,
} from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { notifyError } from '../../../shared/ui/notify';
import { formatBytes } from '../../../shared/upload/progress-figures';
import { useCreateInspectorPack } from '../api/create-inspector-pack';
import { useInspectorPack } from '../api/get-inspector-pack';
import { useInspectorPacks } from '../api/get-inspector-packs';

type InspectorPackDialogProps = {
  opened: boolean;
  onClose: () => void;
  store: { id: string; name: string; timezone_name: string };
  /** The history's period on screen, offered beside last month. */
  shownRange: { start: string; end: string } | null;
};

const statusColours: Record<InspectorPackStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
};

const periodText = (pack: Pick<InspectorPack, 'period_start' | 'period_end'>) =>
  `${formatCalendarDay(pack.period_start)} – ${formatCalendarDay(pack.period_end)}`;

/**
 * The inspector pack of the history screen (issue 21): choose a period (last calendar month by
 * default, or the period on screen; 31 days at most), build, follow the progress the server
 * writes, then download the ZIP. The store's previous packs are listed below.
 */
export function InspectorPackDialog({
  opened,
  onClose,
  store,
  shownRange,
}: InspectorPackDialogProps) {
  const { t, i18n } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 36em)');
  const lastMonth = previousMonth(todayInStoreZone(store.timezone_name));
  const [range, setRange] = useState<DateRange>(lastMonth);
  const [packId, setPackId] = useState<string | null>(null);
  const create = useCreateInspectorPack();
  const current = useInspectorPack(packId ? { storeId: store.id, packId } : null);
  const packs = useInspectorPacks(opened ? store.id : null);
  const language = i18n.resolvedLanguage ?? 'en';

  const rangeError =
    range.start && range.end
      ? validatePackPeriod(range.start, range.end)
      : ('validation/invalid-input' as const);
  const pack = current.data;
  const isBuilding = pack?.status === 'queued' || pack?.status === 'running';

  function handleBuild() {
    if (rangeError || !range.start || !range.end) return;
    create.mutate(
      { storeId: store.id, body: { period_start: range.start, period_end: range.end } },
      {
        onSuccess: (created) => setPackId(created.id),
        onError: (error) =>
          notifyError(`${t('inspectorPack.requestFailed')} ${errorMessage(t, error)}`),
      },
    );
  }

  function renderCurrent() {
    if (!packId) return null;
    if (!pack) {
      return (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{t('inspectorPack.queued')}</Text>
        </Group>
      );
    }
    if (pack.status === 'done' && pack.download_url) {
      return (
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" fw={500}>
            {t('inspectorPack.ready')}
          </Text>
          <Button
            component="a"
            href={pack.download_url}
            download
            leftSection={<IconDownload size={16} />}
            data-testid="inspector-pack-download"
          >
            {t('inspectorPack.download')}
          </Button>
        </Group>
      );
    }
    if (pack.status === 'failed') {
      return (
        <Alert color="red" data-testid="inspector-pack-failed">
          {t(
            pack.error === 'inspector-pack/interrupted'
              ? 'inspectorPack.interrupted'
              : 'inspectorPack.failed',
          )}
        </Alert>
      );
    }
    return (
      <Stack gap={4}>
        <Text size="sm">
          {pack.status === 'queued'
            ? t('inspectorPack.queued')
            : t('inspectorPack.building', { progress: pack.progress })}
        </Text>
        <Progress
          value={pack.progress}
          animated
          aria-label={t('inspectorPack.progressLabel')}
          data-testid="inspector-pack-progress"
        />
      </Stack>
    );
  }

  function renderPrevious() {
    if (packs.isPending) return <Loader size="sm" />;
    if (packs.isError) return <Text size="sm">{errorMessage(t, packs.error)}</Text>;
    if (packs.data.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          {t('inspectorPack.noPrevious')}
        </Text>
      );
    }
    return (
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {packs.data.map((item) => (
          <Group
            key={item.id}
            component="li"
            justify="space-between"
            gap="xs"
            wrap="wrap"
            data-testid="inspector-pack-item"
          >
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {periodText(item)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('inspectorPack.createdAt', {
                  time: formatStoreDateTime(item.created_at, store.timezone_name),
                })}
                {item.file_size !== null ? ` · ${formatBytes(item.file_size, language)}` : ''}
              </Text>
            </Stack>
            {item.status === 'done' && item.download_url ? (
              <Button
                component="a"
                href={item.download_url}
                download
                variant="light"
                size="xs"
                leftSection={<IconDownload size={14} />}
                aria-label={`${t('inspectorPack.download')} (${periodText(item)})`}
              >
                {t('inspectorPack.download')}
              </Button>
            ) : (
              <Badge color={statusColours[item.status]} variant="light">
                {t(`inspectorPack.statuses.${item.status}`)}
              </Badge>
            )}
          </Group>
        ))}
      </Stack>
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('inspectorPack.title')}
      size="lg"
      fullScreen={isPhone}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="inspector-pack-dialog"
    >
      <Stack gap="md">
        <Text size="sm">{t('inspectorPack.description')}</Text>
        <Stack gap={6}>
          <DateRangePicker
            label={t('inspectorPack.period')}
            value={range}
            onChange={setRange}
            testId="inspector-pack-range"
          />
          <Group gap="xs">
            <Button variant="subtle" size="compact-sm" onClick={() => setRange(lastMonth)}>
              {t('inspectorPack.lastMonth')}
            </Button>
            {shownRange ? (
              <Button variant="subtle" size="compact-sm" onClick={() => setRange(shownRange)}>
                {t('inspectorPack.shownPeriod')}
              </Button>
            ) : null}
          </Group>
          <Text size="xs" c={rangeError === 'date-range-too-long' ? 'red.8' : 'dimmed'}>
            {rangeError === 'date-range-too-long'
              ? t('errors.date-range-too-long')
              : t('inspectorPack.periodHint')}
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button
            leftSection={<IconPackage size={16} />}
            onClick={handleBuild}
            disabled={rangeError !== null || isBuilding}
            loading={create.isPending}
            data-testid="inspector-pack-build"
          >
            {t('inspectorPack.build')}
          </Button>
        </Group>
        <div aria-live="polite">{renderCurrent()}</div>
        <Divider />
        <Title order={3} size="h5">
          {t('inspectorPack.previous')}
        </Title>
        {renderPrevious()}
      </Stack>
    </Modal>
  );
}
