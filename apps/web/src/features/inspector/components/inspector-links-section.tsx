import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { InspectorLink, InspectorLinkStatus } from '@mise/shared/records/links';
import { IconLink, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDay, formatStoreDateTime } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';
import { useInspectorLinks } from '../api/get-inspector-links';
import { useRevokeInspectorLink } from '../api/revoke-inspector-link';
import { CreateInspectorLinkDialog } from './create-inspector-link-dialog';

export type StoreInspectorLinksProps = {
  storeId: string;
  /** The store's zone: times are shown on its clock. */
  timeZone: string;
};

const statusColors: Record<InspectorLinkStatus, string> = {
  active: 'teal',
  expired: 'gray',
  revoked: 'red',
};

function LinkRow({
  link,
  timeZone,
  onRevoke,
}: {
  link: InspectorLink;
  timeZone: string;
  onRevoke: (link: InspectorLink) => void;
}) {
  const { t } = useTranslation();
  const time = (value: string) => formatStoreDateTime(value, timeZone);
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      data-testid="inspector-link"
      data-link-id={link.id}
      data-status={link.status}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm" data-testid="inspector-link-label-text">
              {link.label || t('inspector.links.noLabel')}
            </Text>
            <Badge
              variant="light"
              color={statusColors[link.status]}
              data-testid="inspector-link-status"
            >
              {t(`inspector.links.statuses.${link.status}`)}
            </Badge>
          </Group>
          <Text size="sm">
            {t('inspector.links.period', {
              start: formatCalendarDay(link.period_start),
              end: formatCalendarDay(link.period_end),
            })}
          </Text>
          <Text size="xs" c="dimmed">
            {link.status === 'revoked' && link.revoked_at
              ? t('inspector.links.revokedAt', {
                  time: time(link.revoked_at),
                  name: link.revoked_by?.name || link.revoked_by?.email || '—',
                })
              : t(
                  link.status === 'expired' ? 'inspector.links.expired' : 'inspector.links.expires',
                  {
                    time: time(link.expires_at),
                  },
                )}
          </Text>
          <Text size="xs" c="dimmed">
            {t('inspector.links.createdBy', {
              time: time(link.created_at),
              name: link.created_by?.name || link.created_by?.email || '—',
            })}
          </Text>
          <Text size="xs" c="dimmed" data-testid="inspector-link-uses">
            {link.last_used_at
              ? t('inspector.links.uses', { count: link.use_count, time: time(link.last_used_at) })
              : t('inspector.links.neverUsed')}
          </Text>
        </Stack>
        {link.status === 'active' ? (
          <Button
            variant="light"
            color="red"
            size="xs"
            onClick={() => onRevoke(link)}
            aria-label={t('inspector.links.revokeNamed', {
              label: link.label || t('inspector.links.noLabel'),
            })}
            data-testid="inspector-link-revoke"
          >
            {t('inspector.links.revoke')}
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}

/**
 * The store screen's inspector links (issue 21): the links of the store, a new one (its URL
 * shown once), and revocation with confirmation. Shown to whoever may read the store's history
 * (the server's rule); nothing is shown when the list is refused.
 */
export function StoreInspectorLinks({ storeId, timeZone }: StoreInspectorLinksProps) {
  const { t } = useTranslation();
  const links = useInspectorLinks(storeId);
  const revoke = useRevokeInspectorLink(storeId);
  const [isCreateOpen, setIsCreateOpen] = useState(false);

  if (!links.data) return null;

  function handleRevoke(link: InspectorLink) {
    openConfirmDialog({
      title: t('inspector.links.revokeTitle'),
      message: t('inspector.links.revokeMessage'),
      confirmLabel: t('inspector.links.revoke'),
      isDanger: true,
      onConfirm: () =>
        revoke.mutate(link.id, {
          onSuccess: () => notifySuccess(t('inspector.links.revokedNotice')),
          onError: (error) => notifyError(errorMessage(t, error)),
        }),
    });
  }

  return (
    <Paper withBorder p="md" radius="md" mt="md" data-testid="inspector-links">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconLink size={18} aria-hidden />
            <Title order={2} size="h5">
              {t('inspector.links.title')}
            </Title>
          </Group>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setIsCreateOpen(true)}
            data-testid="inspector-link-new"
          >
            {t('inspector.links.new')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('inspector.links.description')}
        </Text>
        {links.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="inspector-links-empty">
            {t('inspector.links.empty')}
          </Text>
        ) : (
          <Stack gap="xs">
            {links.data.map((link) => (
              <LinkRow key={link.id} link={link} timeZone={timeZone} onRevoke={handleRevoke} />
            ))}
          </Stack>
        )}
      </Stack>
      <CreateInspectorLinkDialog
        opened={isCreateOpen}
        onClose={() => setIsCreateOpen(false)}
        storeId={storeId}
        timeZone={timeZone}
      />
    </Paper>
  );
}
