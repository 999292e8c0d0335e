import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { defaultCountry } from '@mise/shared/organisation/constants';
import { createDistributorBodySchema } from '@mise/shared/organisation/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { europeanCountryOptions } from '../../../shared/format/country';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useCreateDistributor } from '../api/create-distributor';

type NewDistributorDialogProps = { opened: boolean; onClose: () => void };

const emptyValues = { name: '', address: '', postal_code: '', city: '', country: defaultCountry };

/** New distributor (spec 000 §5): name, address, postal code, city and country, all required. */
export function NewDistributorDialog({ opened, onClose }: NewDistributorDialogProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState(emptyValues);
  const [isInvalid, setIsInvalid] = useState(false);
  const createMutation = useCreateDistributor();

  function setValue(key: keyof typeof emptyValues, value: string) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleClose() {
    setValues(emptyValues);
    setIsInvalid(false);
    createMutation.reset();
    onClose();
  }

  function handleCreate() {
    const parsed = createDistributorBodySchema.safeParse(values);
    setIsInvalid(!parsed.success);
    if (!parsed.success || createMutation.isPending) return;
    createMutation.mutate(parsed.data, {
      onSuccess: (distributor) => {
        notifySuccess(t('distributors.created'));
        handleClose();
        void navigate(`/distributor?id=${encodeURIComponent(distributor.id)}`);
      },
    });
  }

  const message = isInvalid
    ? t('forms.fillRequired')
    : createMutation.isError
      ? errorMessage(t, createMutation.error)
      : null;

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('distributors.newTitle')}
      primaryLabel={t('common.create')}
      onPrimary={handleCreate}
      isPrimaryLoading={createMutation.isPending}
      primaryTestId="new-distributor-submit"
      footer={<ErrorText testId="new-distributor-error">{message}</ErrorText>}
      testId="new-distributor-dialog"
    >
      <TextInput
        label={t('fields.name')}
        required
        value={values.name}
        onChange={(event) => setValue('name', event.currentTarget.value)}
        data-autofocus
        data-testid="distributor-name"
      />
      <TextInput
        label={t('fields.address')}
        required
        value={values.address}
        onChange={(event) => setValue('address', event.currentTarget.value)}
        data-testid="distributor-address"
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('fields.postalCode')}
          required
          value={values.postal_code}
          onChange={(event) => setValue('postal_code', event.currentTarget.value)}
          data-testid="distributor-postal-code"
        />
        <TextInput
          label={t('fields.city')}
          required
          value={values.city}
          onChange={(event) => setValue('city', event.currentTarget.value)}
          data-testid="distributor-city"
        />
      </SimpleGrid>
      <Select
        label={t('fields.country')}
        required
        data={europeanCountryOptions(i18n.language)}
        value={values.country}
        onChange={(value) => setValue('country', value ?? '')}
        allowDeselect={false}
        searchable
        nothingFoundMessage={t('common.nothingFound')}
        data-testid="distributor-country"
      />
    </FormDialog>
  );
}
