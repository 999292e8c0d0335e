import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { Role } from '@mise/shared/auth/constants';
import { defaultCountry, defaultTimezoneName } from '@mise/shared/organisation/constants';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { europeanCountryOptions } from '../../../shared/format/country';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useCreateStore } from '../api/create-store';
import { useDatabaseOptions } from '../api/get-database-options';
import { useDistributorOptions } from '../api/get-distributor-options';
import { storePath } from './store-card';
import { timezoneOptions, zoneOfCountry } from './store-form';

type NewStoreDialogProps = { opened: boolean; onClose: () => void; viewerRole: Role };

type Values = {
  name: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  timezone_name: string;
  distributorId: string | null;
  databaseId: string | null;
};

const emptyValues: Values = {
  name: '',
  address: '',
  postal_code: '',
  city: '',
  country: defaultCountry,
  timezone_name: defaultTimezoneName,
  distributorId: null,
  databaseId: null,
};

type ValidationError = 'required' | 'distributor';

/**
 * New store (spec 000 §5): name, address, postal code, city and country are
 * required; an admin also picks the distributor. A duplicate store is refused
 * by the server with form.store.invalid.exists.
 */
export function NewStoreDialog({ opened, onClose, viewerRole }: NewStoreDialogProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(emptyValues);
  const [validationError, setValidationError] = useState<ValidationError | null>(null);
  const createMutation = useCreateStore();
  const isAdmin = viewerRole === 'admin';
  const distributors = useDistributorOptions(opened && isAdmin);
  const databases = useDatabaseOptions(opened);
  const zones = useMemo(() => timezoneOptions(defaultTimezoneName), []);

  function setValue<Key extends keyof Values>(key: Key, value: Values[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleCountry(country: string | null) {
    const zone = country ? zoneOfCountry(country) : undefined;
    setValues((current) => ({
      ...current,
      country: country ?? defaultCountry,
      timezone_name: zone ?? current.timezone_name,
    }));
  }

  function handleClose() {
    setValues(emptyValues);
    setValidationError(null);
    createMutation.reset();
    onClose();
  }

  function validate(): ValidationError | null {
    const required = [values.name, values.address, values.postal_code, values.city, values.country];
    if (required.some((value) => value.trim() === '')) return 'required';
    if (isAdmin && !values.distributorId) return 'distributor';
    return null;
  }

  function handleCreate() {
    if (createMutation.isPending) return;
    const error = validate();
    setValidationError(error);
    if (error) return;
    createMutation.mutate(
      {
        name: values.name.trim(),
        address: values.address.trim(),
        postal_code: values.postal_code.trim(),
        city: values.city.trim(),
        country: values.country,
        timezone_name: values.timezone_name,
        distributorId: isAdmin ? values.distributorId : null,
        databaseId: values.databaseId,
      },
      {
        onSuccess: (store) => {
          notifySuccess(t('stores.created'));
          handleClose();
          void navigate(storePath(store));
        },
      },
    );
  }

  const message =
    validationError === 'required'
      ? t('forms.fillRequired')
      : validationError === 'distributor'
        ? t('errors.store/distributor-required')
        : createMutation.isError
          ? isApiError(createMutation.error, 'form.store.invalid.exists')
            ? t('errors.form.store.invalid.exists')
            : errorMessage(t, createMutation.error)
          : null;

  const isMissing = (value: string) => validationError === 'required' && value.trim() === '';
  const requiredText = t('forms.required');
  const databaseData = (databases.data ?? [])
    .filter(
      (item) => !isAdmin || !values.distributorId || item.distributor === values.distributorId,
    )
    .map((item) => ({ value: item.id, label: item.name }));

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('stores.newTitle')}
      primaryLabel={t('common.create')}
      onPrimary={handleCreate}
      isPrimaryLoading={createMutation.isPending}
      primaryTestId="new-store-submit"
      footer={<ErrorText testId="new-store-error">{message}</ErrorText>}
      size="lg"
      testId="new-store-dialog"
    >
      <TextInput
        label={t('fields.name')}
        required
        value={values.name}
        onChange={(event) => setValue('name', event.currentTarget.value)}
        error={isMissing(values.name) ? requiredText : undefined}
        data-autofocus
        data-testid="store-name"
      />
      <TextInput
        label={t('fields.address')}
        required
        value={values.address}
        onChange={(event) => setValue('address', event.currentTarget.value)}
        error={isMissing(values.address) ? requiredText : undefined}
        data-testid="store-address"
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('fields.postalCode')}
          required
          value={values.postal_code}
          onChange={(event) => setValue('postal_code', event.currentTarget.value)}
          error={isMissing(values.postal_code) ? requiredText : undefined}
          data-testid="store-postal-code"
        />
        <TextInput
          label={t('fields.city')}
          required
          value={values.city}
          onChange={(event) => setValue('city', event.currentTarget.value)}
          error={isMissing(values.city) ? requiredText : undefined}
          data-testid="store-city"
        />
        <Select
          label={t('fields.country')}
          required
          data={europeanCountryOptions(i18n.language)}
          value={values.country}
          onChange={handleCountry}
          allowDeselect={false}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          data-testid="store-country"
        />
        <Select
          label={t('fields.timezone')}
          data={zones}
          value={values.timezone_name}
          onChange={(value) => setValue('timezone_name', value ?? defaultTimezoneName)}
          allowDeselect={false}
          searchable
          limit={100}
          nothingFoundMessage={t('common.nothingFound')}
          data-testid="store-timezone"
        />
      </SimpleGrid>
      {isAdmin ? (
        <Select
          label={t('fields.distributor')}
          required
          placeholder={t('accounts.distributorPlaceholder')}
          data={(distributors.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={values.distributorId}
          onChange={(value) =>
            setValues((current) => ({ ...current, distributorId: value, databaseId: null }))
          }
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          error={validationError === 'distributor' ? requiredText : undefined}
          data-testid="store-distributor"
        />
      ) : null}
      <Select
        label={t('fields.database')}
        placeholder={t('fields.databaseOptional')}
        data={databaseData}
        value={values.databaseId}
        onChange={(value) => setValue('databaseId', value)}
        searchable
        clearable
        nothingFoundMessage={t('common.nothingFound')}
        data-testid="store-database"
      />
    </FormDialog>
  );
}
