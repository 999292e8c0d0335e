import { Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useAssignStoreDatabase } from '../api/assign-store-database';
import { useDatabaseOptions } from '../api/get-database-options';

type DatabasePickerDialogProps = { opened: boolean; onClose: () => void; storeId: string };

/** Attaches a database to a store without one (invalid-database: none, or no distributor). */
export function DatabasePickerDialog({ opened, onClose, storeId }: DatabasePickerDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [databaseId, setDatabaseId] = useState<string | null>(null);
  const [isInvalid, setIsInvalid] = useState(false);
  const databases = useDatabaseOptions(opened);
  const assignMutation = useAssignStoreDatabase(storeId);

  function handleClose() {
    setDatabaseId(null);
    setIsInvalid(false);
    assignMutation.reset();
    onClose();
  }

  function handleConfirm() {
    if (assignMutation.isPending) return;
    const chosen = databases.data?.find((item) => item.id === databaseId);
    const isChoiceInvalid = !chosen || chosen.distributor === null;
    setIsInvalid(isChoiceInvalid);
    if (isChoiceInvalid || !databaseId) return;
    assignMutation.mutate(databaseId, {
      onSuccess: () => {
        notifySuccess(t('common.savedSuccessfully'));
        handleClose();
        void navigate(`/storeDatabase?id=${encodeURIComponent(storeId)}`);
      },
    });
  }

  const message = isInvalid
    ? t('errors.invalid-database')
    : assignMutation.isError
      ? errorMessage(t, assignMutation.error)
      : null;

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('store.pickDatabase')}
      primaryLabel={t('common.confirm')}
      onPrimary={handleConfirm}
      isPrimaryLoading={assignMutation.isPending}
      primaryTestId="select-database-submit"
      footer={<ErrorText testId="select-database-error">{message}</ErrorText>}
      testId="database-picker-dialog"
    >
      <Select
        label={t('fields.database')}
        placeholder={t('accounts.databasePlaceholder')}
        data={(databases.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={databaseId}
        onChange={setDatabaseId}
        searchable
        nothingFoundMessage={t('common.nothingFound')}
        disabled={databases.isPending}
        data-testid="select-database-choice"
      />
    </FormDialog>
  );
}
