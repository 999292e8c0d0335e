import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { InspectorPack } from '@mise/shared/records/pack';
import { IconDownload, IconPackage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { notifyError } from '../../../shared/ui/notify';
import {
  downloadInspectionPack,
  useInspectionPack,
  useRequestInspectionPack,
} from '../api/inspection-pack';

type InspectionPackPanelProps = { token: string };

function sizeInMegabytes(bytes: number | null, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(
    (bytes ?? 0) / 1_000_000,
  );
}

/**
 * The inspector pack of the link's period (issue 21): prepared on request (a job with a
 * progress bar), then downloaded through the link. A pack the store already built for the same
 * period is offered at once.
 */
export function InspectionPackPanel({ token }: InspectionPackPanelProps) {
  const { t, i18n } = useTranslation();
  const pack = useInspectionPack(token, true);
  const request = useRequestInspectionPack(token);
  const [isDownloading, setIsDownloading] = useState(false);

  async function handleDownload(current: InspectorPack) {
    setIsDownloading(true);
    try {
      await downloadInspectionPack(token, current);
    } catch (error) {
      notifyError(errorMessage(t, error));
    } finally {
      setIsDownloading(false);
    }
  }

  function handleRequest() {
    request.mutate(undefined, {
      onError: (error) => notifyError(errorMessage(t, error)),
    });
  }

  const current = pack.data ?? null;
  const isBuilding = current?.status === 'queued' || current?.status === 'running';
  return (
    <Paper withBorder p="md" radius="md" data-testid="inspection-pack">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconPackage size={20} aria-hidden />
          <Title order={2} size="h4">
            {t('inspector.pack.title')}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('inspector.pack.description')}
        </Text>
        {pack.isError ? (
          <Text size="sm" c="red.9" role="alert">
            {errorMessage(t, pack.error)}
          </Text>
        ) : null}
        {current?.status === 'done' ? (
          <Group gap="sm" wrap="wrap">
            <Button
              leftSection={<IconDownload size={16} />}
              onClick={() => handleDownload(current)}
              loading={isDownloading}
              data-testid="inspection-pack-download"
            >
              {t('inspector.pack.download')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('inspector.pack.size', {
                size: sizeInMegabytes(current.file_size, i18n.language),
              })}
            </Text>
          </Group>
        ) : isBuilding ? (
          <Stack gap={4} data-testid="inspection-pack-progress">
            <Text size="sm">
              {current.status === 'queued'
                ? t('inspector.pack.queued')
                : t('inspector.pack.building', { progress: current.progress })}
            </Text>
            <Progress
              value={current.progress}
              animated
              aria-label={t('inspector.pack.progressLabel')}
            />
          </Stack>
        ) : (
          <Stack gap="xs" align="flex-start">
            {current?.status === 'failed' ? (
              <Alert color="red" variant="light" p="xs" data-testid="inspection-pack-failed">
                {t('inspector.pack.failed')}
              </Alert>
            ) : null}
            <Button
              variant="light"
              leftSection={<IconPackage size={16} />}
              onClick={handleRequest}
              loading={request.isPending}
              disabled={pack.isPending}
              data-testid="inspection-pack-build"
            >
              {t('inspector.pack.build')}
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
