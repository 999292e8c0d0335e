import { Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A download under way: a bar once the size is known, else a spinner. */
export function DownloadProgress({ percent }: { percent: number | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} miw={160} aria-live="polite" data-testid="history-download-progress">
      <Group gap="xs" wrap="nowrap">
        {percent === null ? <Loader size="xs" /> : null}
        <Text size="xs" c="dimmed">
          {percent === null
            ? t('history.downloading')
            : t('history.downloadingPercent', { percent })}
        </Text>
      </Group>
      {percent !== null ? <Progress value={percent} size="sm" animated /> : null}
    </Stack>
  );
}
