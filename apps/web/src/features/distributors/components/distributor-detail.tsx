import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { billingCycles, defaultLicencePrice } from '@mise/shared/organisation/constants';
import { billingCycleLabel } from '@mise/shared/organisation/rules';
import type { Distributor } from '@mise/shared/organisation/schemas';
import type { User } from '@mise/shared/users/schemas';
import { IconInfoCircle, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { europeanCountryOptions } from '../../../shared/format/country';
import { errorMessage } from '../../../shared/i18n/error-message';
import { SensorCredentialsDialog } from '../../../shared/sensor/sensor-credentials-dialog';
import { ImageUpload } from '../../../shared/ui/image-upload';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { PageHeader } from '../../../shared/ui/page-header';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useUpdateDistributor } from '../api/update-distributor';
import { useUploadDistributorLogo } from '../api/upload-distributor-logo';
import { ContactsEditor } from './contacts-editor';

type DistributorDetailProps = { distributor: Distributor; viewer: User };

function distributorValues(distributor: Distributor) {
  return {
    name: distributor.name,
    active: distributor.active,
    address: distributor.address,
    postal_code: distributor.postal_code,
    city: distributor.city,
    phone: distributor.phone,
    email: distributor.email,
    countries: distributor.countries,
    billing_cycle: distributor.billing_cycle,
    licence_price: distributor.licence_price,
    contacts: distributor.contacts,
  };
}

/** Distributor detail (spec 000 §2): fields locked unless admin; licence price admin only. */
export function DistributorDetail({ distributor, viewer }: DistributorDetailProps) {
  const { t, i18n } = useTranslation();
  const isAdmin = viewer.role === 'admin';
  // A new version (a save, a logo upload) keeps what the user typed (issue 13).
  const { values, setValues, isDirty, adopt } = useRecordDraft(distributor, distributorValues);
  useUnsavedChangesPrompt(isDirty);
  const [isDetailsOpen, setIsDetailsOpen] = useState(false);
  const [isCredentialsOpen, setIsCredentialsOpen] = useState(false);
  const updateMutation = useUpdateDistributor(distributor.id);
  const uploadMutation = useUploadDistributorLogo(distributor.id);

  /** Once the distributor has connected its account, only distributors may change it. */
  const isCredentialsLocked = distributor.sensor_connected && viewer.role !== 'distributor';

  function setValue<Key extends keyof typeof values>(key: Key, value: (typeof values)[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleSave() {
    if (!isAdmin) {
      notifyError(t('errors.permission/denied'), { autoClose: saveErrorDurationMs });
      return;
    }
    if (values.name.trim() === '') {
      notifyError(t('forms.fillRequired'), { autoClose: saveErrorDurationMs });
      return;
    }
    updateMutation.mutate(
      {
        version: distributor.version,
        name: values.name.trim(),
        active: values.active,
        address: values.address.trim(),
        postal_code: values.postal_code.trim(),
        city: values.city.trim(),
        phone: values.phone.trim(),
        email: values.email.trim(),
        countries: values.countries,
        billing_cycle: values.billing_cycle === 60 ? 60 : 1,
        ...(values.licence_price === null ? {} : { licence_price: values.licence_price }),
        contacts: values.contacts
          .map((contact) => ({ ...contact, name: contact.name.trim() }))
          .filter((contact) => contact.name !== ''),
      },
      {
        onSuccess: (saved) => {
          adopt(saved);
          notifySuccess(t('common.savedSuccessfully'));
        },
        onError: (error) =>
          notifyError(
            isApiError(error, 'conflict/stale-version')
              ? t('errors.conflict/stale-version')
              : errorMessage(t, error),
            { autoClose: saveErrorDurationMs },
          ),
      },
    );
  }

  const cycleOptions = billingCycles.map((cycle) => {
    const label = billingCycleLabel(cycle);
    return {
      value: String(cycle),
      label: t(`distributor.cycle.${label.unit}`, { count: label.value }),
    };
  });

  return (
    <>
      <PageHeader
        title={distributor.name}
        subtitle={t('areas.distributor')}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconInfoCircle size={16} />}
              onClick={() => setIsDetailsOpen(true)}
              data-testid="distributor-details"
            >
              {t('distributor.details')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              onClick={() => setIsCredentialsOpen(true)}
              disabled={isCredentialsLocked}
              data-testid="distributor-sensor-credentials"
            >
              {t('sensor.credentialsButton')}
            </Button>
            {isAdmin ? (
              <LoadingButton
                onClick={handleSave}
                loading={updateMutation.isPending}
                data-testid="save"
              >
                {t('common.save')}
              </LoadingButton>
            ) : null}
          </>
        }
      />
      <Stack gap="lg">
        <Card withBorder radius="md">
          <Group align="flex-start" gap="xl" wrap="wrap">
            <ImageUpload
              imageUrl={distributor.logo}
              name={distributor.name}
              label={t('distributor.changeLogo')}
              onUpload={(file, onProgress) => uploadMutation.mutateAsync({ file, onProgress })}
              isDisabled={!isAdmin}
              isSquare
              testId="distributor-logo"
            />
            <Stack gap="sm" style={{ flex: 1, minWidth: 260 }}>
              <Group>
                <Switch
                  label={t('common.active')}
                  checked={values.active}
                  onChange={(event) => setValue('active', event.currentTarget.checked)}
                  disabled={!isAdmin}
                  data-testid="distributor-active"
                />
                {distributor.sensor_connected ? (
                  <Badge color="teal" variant="light">
                    {t('sensor.connectedBadge')}
                  </Badge>
                ) : null}
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('fields.name')}
                  value={values.name}
                  onChange={(event) => setValue('name', event.currentTarget.value)}
                  disabled={!isAdmin}
                  data-testid="distributor-name"
                />
                <TextInput
                  label={t('fields.address')}
                  value={values.address}
                  onChange={(event) => setValue('address', event.currentTarget.value)}
                  disabled={!isAdmin}
                />
                <TextInput
                  label={t('fields.postalCode')}
                  value={values.postal_code}
                  onChange={(event) => setValue('postal_code', event.currentTarget.value)}
                  disabled={!isAdmin}
                />
                <TextInput
                  label={t('fields.city')}
                  value={values.city}
                  onChange={(event) => setValue('city', event.currentTarget.value)}
                  disabled={!isAdmin}
                />
                <TextInput
                  label={t('fields.phone')}
                  value={values.phone}
                  onChange={(event) => setValue('phone', event.currentTarget.value)}
                  disabled={!isAdmin}
                />
                <TextInput
                  label={t('fields.email')}
                  type="email"
                  value={values.email}
                  onChange={(event) => setValue('email', event.currentTarget.value)}
                  disabled={!isAdmin}
                />
                <MultiSelect
                  label={t('fields.country')}
                  data={europeanCountryOptions(i18n.language)}
                  value={values.countries}
                  onChange={(countries) => setValue('countries', countries)}
                  searchable
                  disabled={!isAdmin}
                  data-testid="distributor-countries"
                />
                <Select
                  label={t('distributor.billingCycle')}
                  data={cycleOptions}
                  value={String(values.billing_cycle)}
                  onChange={(value) => setValue('billing_cycle', Number(value ?? 1))}
                  allowDeselect={false}
                  disabled={!isAdmin}
                  data-testid="distributor-billing-cycle"
                />
                {isAdmin ? (
                  <NumericInput
                    label={t('licence.price')}
                    value={values.licence_price ?? defaultLicencePrice}
                    onChange={(value) => setValue('licence_price', value)}
                    min={0}
                    decimalScale={2}
                    suffix=" €"
                    data-testid="distributor-licence-price"
                  />
                ) : null}
              </SimpleGrid>
            </Stack>
          </Group>
        </Card>
        <Card withBorder radius="md">
          <Title order={4} mb="sm">
            {t('distributor.contacts')}
          </Title>
          <ContactsEditor
            contacts={values.contacts}
            onChange={(contacts) => setValue('contacts', contacts)}
            isDisabled={!isAdmin}
          />
        </Card>
      </Stack>
      <Modal
        opened={isDetailsOpen}
        onClose={() => setIsDetailsOpen(false)}
        title={t('distributor.details')}
        centered
      >
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>{t('distributor.stores')}</Table.Td>
              <Table.Td>{distributor.store_count}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('distributor.licensedStores')}</Table.Td>
              <Table.Td>{distributor.licensed_store_count}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('distributor.databases')}</Table.Td>
              <Table.Td>{distributor.databases.length}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('distributor.shopEmail')}</Table.Td>
              <Table.Td>{distributor.shop_email ?? '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('distributor.sensor')}</Table.Td>
              <Table.Td>
                {distributor.sensor_connected
                  ? t('sensor.connectedBadge')
                  : t('sensor.notConnected')}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Modal>
      <SensorCredentialsDialog
        opened={isCredentialsOpen}
        onClose={() => setIsCredentialsOpen(false)}
        target={{ distributorId: distributor.id }}
      />
    </>
  );
}
