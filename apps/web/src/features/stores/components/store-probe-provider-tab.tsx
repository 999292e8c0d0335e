import { Badge, Button, Card, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { IconDownload, IconPlugConnected } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { SensorCredentialsDialog } from '../../../shared/sensor/sensor-credentials-dialog';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError, notifySuccess } from '../../../shared/ui/notify';
import type { SensorSession } from '../api/get-sensor-session';
import { useSensorTags } from '../api/get-sensor-tags';
import { useImportSensorProbes } from '../api/import-sensor-probes';
import type { SetStoreValue, StoreFormValues, StorePermissions } from './store-form';

type StoreProbeProviderTabProps = {
  store: StoreDetail;
  session: { data?: SensorSession; isPending: boolean; isError: boolean; error: unknown };
  values: StoreFormValues;
  setValue: SetStoreValue;
  permissions: StorePermissions;
};

export type SensorConnection = 'distributor' | 'store' | 'none';

export function sensorConnection(session: SensorSession | undefined): SensorConnection {
  if (!session?.loggedIn) return 'none';
  return session.isDistributor ? 'distributor' : 'store';
}

/** Probe provider tab (spec 000 §2): connection state, credentials, the hub (sticker). */
export function StoreProbeProviderTab({
  store,
  session,
  values,
  setValue,
  permissions,
}: StoreProbeProviderTabProps) {
  const { t } = useTranslation();
  const [isCredentialsOpen, setIsCredentialsOpen] = useState(false);
  const connection = sensorConnection(session.data);
  const tags = useSensorTags(store.id, connection !== 'none');
  const importProbes = useImportSensorProbes(store.id);
  // The server's rule: whoever may set the store's credentials (staff for a distributor's).
  const canImport =
    connection !== 'none' &&
    !store.is_read_only &&
    (connection === 'store' || permissions.canManageLicence);

  async function handleImport() {
    try {
      const result = await importProbes.mutateAsync();
      notifySuccess(t('sensor.imported', { created: result.created, existing: result.existing }));
    } catch (error) {
      notifyApiError(error);
    }
  }
  const loadedStickers = session.isPending || session.isError ? null : session.data?.stickers;
  const storedStickerId = store.sensor_sticker_id;

  // A stored hub no longer listed is only logged (spec 000 §8); the on-screen
  // warning is for a previously selected probe. Never while the list loads.
  useEffect(() => {
    if (!loadedStickers || storedStickerId === null) return;
    if (!loadedStickers.some((sticker) => sticker.id === storedStickerId)) {
      console.warn(`Stored sensor hub ${storedStickerId} is not in the hub list.`);
    }
  }, [loadedStickers, storedStickerId]);

  if (session.isPending) {
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  }
  if (session.isError) {
    return <Text c="red">{errorMessage(t, session.error)}</Text>;
  }

  const stickers = session.data?.stickers ?? [];
  const isStickerMissing =
    store.sensor_sticker_id !== null &&
    !stickers.some((sticker) => sticker.id === store.sensor_sticker_id);
  const stickerData = stickers.map((sticker) => ({ value: sticker.id, label: sticker.name }));
  if (isStickerMissing && store.sensor_sticker_id) {
    stickerData.push({ value: store.sensor_sticker_id, label: store.sensor_sticker_id });
  }

  return (
    <Stack gap="lg">
      <Card withBorder radius="md">
        <Group justify="space-between">
          <Group gap="sm">
            <Text fw={500}>{t('sensor.state')}</Text>
            <Badge
              color={connection === 'none' ? 'gray' : 'teal'}
              variant="light"
              data-testid="sensor-state"
            >
              {t(`sensor.connection.${connection}`)}
            </Badge>
          </Group>
          <Button
            variant="light"
            leftSection={<IconPlugConnected size={16} />}
            onClick={() => setIsCredentialsOpen(true)}
            disabled={store.is_read_only}
            data-testid="store-sensor-credentials"
          >
            {t('sensor.credentialsButton')}
          </Button>
        </Group>
      </Card>
      {permissions.canManageLicence ? (
        <Card withBorder radius="md">
          <Stack gap="sm">
            <Select
              label={t('sensor.hub')}
              placeholder={t('sensor.hubPlaceholder')}
              data={stickerData}
              value={values.sensor_sticker_id}
              onChange={(value) => setValue('sensor_sticker_id', value)}
              disabled={store.sensor_sticker_id !== null || connection === 'none'}
              description={store.sensor_sticker_id !== null ? t('sensor.hubLocked') : undefined}
              data-testid="sensor-hub"
            />
          </Stack>
        </Card>
      ) : null}
      {connection !== 'none' && tags.data ? (
        <Card withBorder radius="md">
          <Group justify="space-between" mb="xs">
            <Text fw={500}>{t('sensor.probes')}</Text>
            {canImport ? (
              <LoadingButton
                variant="light"
                size="xs"
                leftSection={<IconDownload size={14} />}
                onClick={handleImport}
                data-testid="sensor-import-probes"
              >
                {t('sensor.importProbes')}
              </LoadingButton>
            ) : null}
          </Group>
          {tags.data.tags.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('sensor.noProbes')}
            </Text>
          ) : (
            tags.data.tags.map((tag) => (
              <Text key={tag.id} size="sm">
                {tag.name}
              </Text>
            ))
          )}
        </Card>
      ) : null}
      <SensorCredentialsDialog
        opened={isCredentialsOpen}
        onClose={() => setIsCredentialsOpen(false)}
        target={{ storeId: store.id }}
      />
    </Stack>
  );
}
