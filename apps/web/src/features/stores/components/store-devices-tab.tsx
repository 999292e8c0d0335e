import {
  ActionIcon,
  Button,
  Card,
  Center,
  Code,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { maximumDevicesRange } from '@mise/shared/organisation/constants';
import type { Device, StoreDetail } from '@mise/shared/organisation/schemas';
import { IconDeviceTablet, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { EmptyState } from '../../../shared/ui/empty-state';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useDeleteDevice } from '../api/delete-device';
import { useStoreDevices } from '../api/get-store-devices';
import { useRegeneratePairingKey } from '../api/regenerate-pairing-key';
import { DeviceDialog } from './device-dialog';
import { PairingKeyQrCode } from './pairing-key-qr-code';
import type { SetStoreValue, StoreFormValues, StorePermissions } from './store-form';

type StoreDevicesTabProps = {
  store: StoreDetail;
  values: StoreFormValues;
  setValue: SetStoreValue;
  permissions: StorePermissions;
};

/** Devices tab (spec 000 §2, §5): maximum devices, pairing key, the store's tablets. */
export function StoreDevicesTab({ store, values, setValue, permissions }: StoreDevicesTabProps) {
  const { t } = useTranslation();
  const devices = useStoreDevices(store.id);
  const deleteMutation = useDeleteDevice(store.id);
  const pairingMutation = useRegeneratePairingKey(store.id);
  const notifyApiError = useApiErrorNotification();
  const [openDevice, setOpenDevice] = useState<Device | null>(null);
  /**
   * What the picker shows instead of the form's value: an emptied field while it is edited, or a
   * value above 1 while the billing warning waits for its answer. Otherwise (undefined) the
   * picker shows the form's value, the one a save sends.
   */
  const [pickerValue, setPickerValue] = useState<number | null | undefined>(undefined);

  function handleMaximumDevices(value: number | null) {
    if (value === null) {
      setPickerValue(null);
      return;
    }
    const clamped = Math.min(maximumDevicesRange.max, Math.max(maximumDevicesRange.min, value));
    setPickerValue(undefined);
    if (clamped === values.maximum_devices) return;
    if (clamped === 1) {
      setValue('maximum_devices', 1);
      return;
    }
    setPickerValue(clamped);
    openConfirmDialog({
      title: t('devices.maximum'),
      message: t('devices.maximumWarning'),
      onConfirm: () => {
        setValue('maximum_devices', clamped);
        setPickerValue(undefined);
      },
      // The cancel button, Escape or the close button: the stored value stays, on screen too.
      onCancel: () => setPickerValue(undefined),
    });
  }

  function handleRegenerate() {
    openConfirmDialog({
      title: t('devices.regenerate'),
      message: t('devices.regenerateConfirm'),
      onConfirm: () => pairingMutation.mutate(undefined, { onError: notifyApiError }),
    });
  }

  function handleDelete(device: Device) {
    openConfirmDialog({
      title: t('devices.delete'),
      message: t('devices.deleteConfirm', { name: device.name || device.device_model }),
      isDanger: true,
      onConfirm: () => deleteMutation.mutate(device.id, { onError: notifyApiError }),
    });
  }

  return (
    <Stack gap="lg">
      <Card withBorder radius="md">
        <Group align="flex-end" gap="xl" wrap="wrap">
          <NumericInput
            label={t('devices.maximum')}
            value={pickerValue === undefined ? values.maximum_devices : pickerValue}
            onChange={handleMaximumDevices}
            onBlur={() => {
              if (pickerValue === null) setPickerValue(undefined);
            }}
            min={maximumDevicesRange.min}
            max={maximumDevicesRange.max}
            clampBehavior="strict"
            allowDecimal={false}
            disabled={!permissions.canManageLicence || store.is_read_only}
            w={200}
            data-testid="maximum-devices"
          />
          {store.pairing_key !== null ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('devices.pairingKey')}
              </Text>
              <Group gap="xs" align="center">
                <PairingKeyQrCode pairingKey={store.pairing_key} />
                <Code fz="lg" data-testid="pairing-key">
                  {store.pairing_key}
                </Code>
                {permissions.canRegeneratePairingKey ? (
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconRefresh size={14} />}
                    onClick={handleRegenerate}
                    loading={pairingMutation.isPending}
                    disabled={store.is_read_only}
                    data-testid="pairing-key-regenerate"
                  >
                    {t('devices.regenerate')}
                  </Button>
                ) : null}
              </Group>
            </Stack>
          ) : null}
        </Group>
      </Card>
      <Title order={4}>{t('devices.title')}</Title>
      {devices.isPending ? (
        <Center py="lg">
          <Loader />
        </Center>
      ) : devices.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, devices.error)} />
      ) : devices.data.length === 0 ? (
        <EmptyState title={t('devices.empty')} icon={<IconDeviceTablet size={28} />} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {devices.data.map((device) => (
            <Card key={device.id} withBorder radius="md" padding="md" data-testid="device-card">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack
                  gap={2}
                  style={{ cursor: 'pointer', minWidth: 0, flex: 1 }}
                  onClick={() => setOpenDevice(device)}
                  data-testid="device-open"
                >
                  <Text fw={600} truncate>
                    {device.name || t('devices.unnamed')}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {device.device_model}
                  </Text>
                  <Text size="sm" data-testid="device-last-connection">
                    {t('devices.lastConnection', {
                      date: device.last_connexion
                        ? formatDateTime(device.last_connexion)
                        : t('devices.never'),
                    })}
                  </Text>
                  <Text size="sm">{t('devices.appVersion', { version: device.app_version })}</Text>
                </Stack>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => handleDelete(device)}
                  disabled={store.is_read_only}
                  aria-label={t('devices.delete')}
                  data-testid="device-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {openDevice ? (
        <DeviceDialog
          key={openDevice.id}
          device={openDevice}
          owners={store.owners}
          onClose={() => setOpenDevice(null)}
          isDisabled={store.is_read_only}
        />
      ) : null}
    </Stack>
  );
}
