import { Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useCreateDatabase } from '../api/create-database';
import { useDistributorOptions } from '../api/get-distributor-options';

type NewDatabaseDialogProps = { opened: boolean; onClose: () => void; isAdmin: boolean };

/** New database: a name; an admin may pick its distributor (a distributor's is its own). */
export function NewDatabaseDialog({ opened, onClose, isAdmin }: NewDatabaseDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [distributorId, setDistributorId] = useState<string | null>(null);
  const [isInvalid, setIsInvalid] = useState(false);
  const createMutation = useCreateDatabase();
  const distributors = useDistributorOptions(opened && isAdmin);

  function handleClose() {
    setName('');
    setDistributorId(null);
    setIsInvalid(false);
    createMutation.reset();
    onClose();
  }

  function handleCreate() {
    if (createMutation.isPending) return;
    const isNameMissing = name.trim() === '';
    setIsInvalid(isNameMissing);
    if (isNameMissing) return;
    createMutation.mutate(
      { name: name.trim(), ...(isAdmin && distributorId ? { distributorId } : {}) },
      {
        onSuccess: (database) => {
          notifySuccess(t('databases.created'));
          handleClose();
          void navigate(`/database?id=${encodeURIComponent(database.id)}`);
        },
      },
    );
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
      title={t('databases.newTitle')}
      primaryLabel={t('common.create')}
      onPrimary={handleCreate}
      isPrimaryLoading={createMutation.isPending}
      primaryTestId="new-database-submit"
      footer={<ErrorText testId="new-database-error">{message}</ErrorText>}
      testId="new-database-dialog"
    >
      <TextInput
        label={t('fields.name')}
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        data-autofocus
        data-testid="database-name"
      />
      {isAdmin ? (
        <Select
          label={t('fields.distributor')}
          placeholder={t('fields.distributorOptional')}
          data={(distributors.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={distributorId}
          onChange={setDistributorId}
          searchable
          clearable
          nothingFoundMessage={t('common.nothingFound')}
          data-testid="database-distributor"
        />
      ) : null}
    </FormDialog>
  );
}
