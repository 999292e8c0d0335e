import { ActionIcon, Card, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../shared/format/date';
import { useStoreRecordsCheckpoint } from '../api/get-store-records-checkpoint';

/** Characters of the seal shown (the whole of it is copied). */
const shortHashLength = 16;

/**
 * The store's latest records seal (issue 21): the day sealed, the entries it covers and the
 * chain's head hash, as e-mailed to the owners. Read-only; hidden while loading or on error.
 */
export function StoreRecordsSeal({ storeId }: { storeId: string }) {
  const { t } = useTranslation();
  const { data: checkpoint, isSuccess } = useStoreRecordsCheckpoint(storeId);
  if (!isSuccess) return null;
  return (
    <Card withBorder radius="md" data-testid="store-records-seal">
      <Stack gap={4}>
        <Group gap="xs">
          <IconShieldCheck size={18} aria-hidden />
          <Text fw={500}>{t('store.recordsSeal.title')}</Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('store.recordsSeal.description')}
        </Text>
        {checkpoint === null ? (
          <Text size="sm" data-testid="store-records-seal-none">
            {t('store.recordsSeal.none')}
          </Text>
        ) : (
          <>
            <Group gap="lg" wrap="wrap">
              <Text size="sm">
                {`${t('store.recordsSeal.day')}: `}
                <span data-testid="store-records-seal-day">{formatDate(checkpoint.day)}</span>
              </Text>
              <Text size="sm">
                {`${t('store.recordsSeal.entries')}: `}
                <span data-testid="store-records-seal-entries">{checkpoint.seq}</span>
              </Text>
              <Group gap={4} wrap="nowrap">
                <Text size="sm">{`${t('store.recordsSeal.hash')}:`}</Text>
                <Code data-testid="store-records-seal-hash" title={checkpoint.head_hash}>
                  {`${checkpoint.head_hash.slice(0, shortHashLength)}…`}
                </Code>
                <CopyButton value={checkpoint.head_hash}>
                  {({ copied, copy }) => (
                    <Tooltip
                      label={copied ? t('store.recordsSeal.copied') : t('store.recordsSeal.copy')}
                    >
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        color={copied ? 'teal' : 'gray'}
                        onClick={copy}
                        aria-label={t('store.recordsSeal.copy')}
                        data-testid="store-records-seal-copy"
                      >
                        {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
            </Group>
            <Text size="xs" c="dimmed" data-testid="store-records-seal-published">
              {checkpoint.published_at
                ? t('store.recordsSeal.published', {
                    date: formatDateTime(checkpoint.published_at),
                  })
                : t('store.recordsSeal.notPublished')}
            </Text>
          </>
        )}
      </Stack>
    </Card>
  );
}
