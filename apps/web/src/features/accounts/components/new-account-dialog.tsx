import { PasswordInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { type CreatableRole, creatableRoles } from '@mise/shared/auth/constants';
import { type NewAccountError, normalizeEmail, validateNewAccount } from '@mise/shared/auth/rules';
import type { User } from '@mise/shared/users/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useDatabaseOptions } from '../api/get-database-options';
import { useDistributorOptions } from '../api/get-distributor-options';
import { useStoreOptions } from '../api/get-store-options';
import { useRegisterAccount } from '../api/register-account';

type NewAccountDialogProps = {
  opened: boolean;
  onClose: () => void;
  viewer: User;
};

type ValidationError = NewAccountError | 'account/fill-all-fields';

type Values = {
  email: string;
  role: CreatableRole | null;
  distributorId: string | null;
  databaseId: string | null;
  storeId: string | null;
  password: string;
  confirmation: string;
  name: string;
  surname: string;
  phone: string;
};

const emptyValues: Values = {
  email: '',
  role: null,
  distributorId: null,
  databaseId: null,
  storeId: null,
  password: '',
  confirmation: '',
  name: '',
  surname: '',
  phone: '',
};

/**
 * New-account dialog (spec 000 §2, §5): role first, then the one picker the
 * role needs (distributor, database or store), checked in the spec's order.
 */
export function NewAccountDialog({ opened, onClose, viewer }: NewAccountDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(emptyValues);
  const [validationError, setValidationError] = useState<ValidationError | null>(null);
  const registerAccountMutation = useRegisterAccount();

  const isAdmin = viewer.role === 'admin';
  const isDistributorPicked = values.role === 'distributor' && isAdmin;
  const distributors = useDistributorOptions(opened && isDistributorPicked);
  const databases = useDatabaseOptions(opened && values.role === 'manager');
  const stores = useStoreOptions(opened && values.role === 'customer');

  function setValue<Key extends keyof Values>(key: Key, value: Values[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleRoleChange(role: CreatableRole | null) {
    setValues((current) => ({
      ...current,
      role,
      distributorId: null,
      databaseId: null,
      storeId: null,
    }));
  }

  function handleClose() {
    setValues(emptyValues);
    setValidationError(null);
    registerAccountMutation.reset();
    onClose();
  }

  /** A distributor viewer's own distributor is implied for a distributor account. */
  const distributorId =
    values.role === 'distributor' ? (isAdmin ? values.distributorId : viewer.distributor) : null;

  function validate(): ValidationError | null {
    const ruleError = validateNewAccount({
      role: values.role,
      distributorId,
      databaseId: values.role === 'manager' ? values.databaseId : null,
      storeId: values.role === 'customer' ? values.storeId : null,
      password: values.password,
      confirmation: values.confirmation,
    });
    if (ruleError) return ruleError;
    const required = [values.email, values.password, values.name, values.surname];
    if (required.some((value) => value.trim() === '')) return 'account/fill-all-fields';
    return null;
  }

  function handleCreate() {
    if (registerAccountMutation.isPending) return;
    const error = validate();
    setValidationError(error);
    if (error || !values.role) return;
    registerAccountMutation.mutate(
      {
        email: normalizeEmail(values.email),
        role: values.role,
        distributorId,
        databaseId: values.role === 'manager' ? values.databaseId : null,
        storeId: values.role === 'customer' ? values.storeId : null,
        password: values.password,
        name: values.name.trim(),
        surname: values.surname.trim(),
        phone: values.phone.trim(),
      },
      {
        onSuccess: () => {
          notifySuccess(t('accounts.created'));
          handleClose();
        },
      },
    );
  }

  const message = validationError
    ? t(`errors.${validationError}`)
    : registerAccountMutation.isError
      ? errorMessage(t, registerAccountMutation.error)
      : null;

  const roleOptions = creatableRoles.map((role) => ({ value: role, label: t(`roles.${role}`) }));

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('accounts.newTitle')}
      primaryLabel={t('accounts.create')}
      onPrimary={handleCreate}
      isPrimaryLoading={registerAccountMutation.isPending}
      primaryTestId="new-account-submit"
      footer={<ErrorText testId="new-account-error">{message}</ErrorText>}
      size="lg"
      testId="new-account-dialog"
    >
      <TextInput
        label={t('accounts.email')}
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(event) => setValue('email', event.currentTarget.value)}
        data-testid="new-account-email"
        data-autofocus
      />
      <Select<CreatableRole>
        label={t('accounts.role')}
        placeholder={t('accounts.rolePlaceholder')}
        data={roleOptions}
        value={values.role}
        onChange={handleRoleChange}
        data-testid="new-account-role"
      />
      {isDistributorPicked ? (
        <Select
          label={t('accounts.distributor')}
          placeholder={t('accounts.distributorPlaceholder')}
          data={(distributors.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={values.distributorId}
          onChange={(value) => setValue('distributorId', value)}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          disabled={distributors.isPending}
          data-testid="new-account-distributor"
        />
      ) : null}
      {values.role === 'manager' ? (
        <Select
          label={t('accounts.database')}
          placeholder={t('accounts.databasePlaceholder')}
          data={(databases.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={values.databaseId}
          onChange={(value) => setValue('databaseId', value)}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          disabled={databases.isPending}
          data-testid="new-account-database"
        />
      ) : null}
      {values.role === 'customer' ? (
        <Select
          label={t('accounts.store')}
          placeholder={t('accounts.storePlaceholder')}
          data={(stores.data ?? []).map((item) => ({
            value: item.id,
            label: item.city ? `${item.name} (${item.city})` : item.name,
          }))}
          value={values.storeId}
          onChange={(value) => setValue('storeId', value)}
          searchable
          nothingFoundMessage={t('common.nothingFound')}
          disabled={stores.isPending}
          data-testid="new-account-store"
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <PasswordInput
          label={t('accounts.password')}
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => setValue('password', event.currentTarget.value)}
          data-testid="new-account-password"
        />
        <PasswordInput
          label={t('accounts.confirmation')}
          autoComplete="new-password"
          value={values.confirmation}
          onChange={(event) => setValue('confirmation', event.currentTarget.value)}
          data-testid="new-account-confirmation"
        />
        <TextInput
          label={t('accounts.name')}
          value={values.name}
          onChange={(event) => setValue('name', event.currentTarget.value)}
          data-testid="new-account-name"
        />
        <TextInput
          label={t('accounts.surname')}
          value={values.surname}
          onChange={(event) => setValue('surname', event.currentTarget.value)}
          data-testid="new-account-surname"
        />
      </SimpleGrid>
      <TextInput
        label={t('accounts.phone')}
        type="tel"
        value={values.phone}
        onChange={(event) => setValue('phone', event.currentTarget.value)}
        data-testid="new-account-phone"
      />
    </FormDialog>
  );
}
