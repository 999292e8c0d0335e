import { Select, Stack, Switch } from '@mantine/core';
import type { Device, StoreOwner } from '@mise/shared/organisation/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useUpdateDevice } from '../api/update-device';

const toggles = [
  'dark_mode',
  'slow_internet_mode',
  'audio_task_reminders',
  'rotation_lock',
  'prevent_screen_lock',
] as const;
type Toggle = (typeof toggles)[number];

type DeviceDialogProps = {
  device: Device;
  /** The store's owners: the accounts the tablet may open the back-office with. */
  owners: StoreOwner[];
  onClose: () => void;
  isDisabled: boolean;
};

/**
 * A tablet's settings (spec 000 §2): dark mode, slow internet, audio reminders, locks, and the
 * linked account (one of the store's owners) its back-office pages open with.
 */
export function DeviceDialog({ device, owners, onClose, isDisabled }: DeviceDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<Toggle, boolean>>({
    dark_mode: device.dark_mode,
    slow_internet_mode: device.slow_internet_mode,
    audio_task_reminders: device.audio_task_reminders,
    rotation_lock: device.rotation_lock,
    prevent_screen_lock: device.prevent_screen_lock,
  });
  const [linkedUser, setLinkedUser] = useState<string | null>(device.linked_user);
  const updateMutation = useUpdateDevice(device.store_id);
  const ownerOptions = owners.map((owner) => ({
    value: owner.id,
    label: `${owner.name} ${owner.surname} (${owner.email})`.trim(),
  }));
  const notifyApiError = useApiErrorNotification();

  function handleSave() {
    updateMutation.mutate(
      {
        id: device.id,
        body: {
          version: device.version,
          ...values,
          ...(linkedUser !== device.linked_user ? { linked_user: linkedUser } : {}),
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('common.savedSuccessfully'));
          onClose();
        },
        onError: notifyApiError,
      },
    );
  }

  return (
    <FormDialog
      opened
      onClose={onClose}
      title={device.name || device.device_model}
      primaryLabel={t('common.save')}
      onPrimary={handleSave}
      isPrimaryDisabled={isDisabled}
      isPrimaryLoading={updateMutation.isPending}
      primaryTestId="device-save"
      testId="device-dialog"
    >
      <Stack gap="sm">
        {toggles.map((toggle) => (
          <Switch
            key={toggle}
            label={t(`devices.toggles.${toggle}`)}
            checked={values[toggle]}
            onChange={(event) => {
              const isChecked = event.currentTarget.checked;
              setValues((current) => ({ ...current, [toggle]: isChecked }));
            }}
            disabled={isDisabled}
            data-testid={`device-${toggle}`}
          />
        ))}
        <Select
          label={t('devices.linkedUser')}
          description={t('devices.linkedUserHelp')}
          placeholder={t('devices.linkedUserNone')}
          data={ownerOptions}
          value={linkedUser}
          onChange={setLinkedUser}
          clearable
          disabled={isDisabled}
          data-testid="device-linked-user"
        />
      </Stack>
    </FormDialog>
  );
}
