import { Button, Group, Text } from '@mantine/core';
import type { Probe } from '@mise/shared/probes/schemas';
import { IconUnlink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { notifyApiError, notifySuccess } from '../../../shared/ui/notify';
import { useRemoveProbeOwnership } from '../api/remove-probe-ownership';

type ProbeOwnerStoreProps = { probe: Probe; storeName: string | null };

/** The probe's owner store with a remove button (spec 000 §2): the probe no longer belongs to it. */
export function ProbeOwnerStore({ probe, storeName }: ProbeOwnerStoreProps) {
  const { t } = useTranslation();
  const removeMutation = useRemoveProbeOwnership(probe.probeUID);

  function handleRemove() {
    openConfirmDialog({
      title: t('probes.removeOwnershipTitle'),
      message: t('probes.removeOwnershipMessage', {
        probe: probe.name,
        store: storeName ?? '',
      }),
      confirmLabel: t('common.remove'),
      isDanger: true,
      onConfirm: () =>
        removeMutation.mutate(undefined, {
          onSuccess: () => notifySuccess(t('probes.ownershipRemoved')),
          onError: (error) => notifyApiError(error),
        }),
    });
  }

  if (probe.storeId === null) {
    return (
      <Text size="sm" c="dimmed" data-testid="probe-owner-store">
        {t('probes.noStore')}
      </Text>
    );
  }
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text
        size="sm"
        component={Link}
        to={`/store?id=${encodeURIComponent(probe.storeId)}`}
        c="blue"
        data-testid="probe-owner-store"
      >
        {storeName ?? t('probes.unknownStore')}
      </Text>
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconUnlink size={14} />}
        loading={removeMutation.isPending}
        onClick={handleRemove}
        data-testid="probe-remove-ownership"
      >
        {t('common.remove')}
      </Button>
    </Group>
  );
}
