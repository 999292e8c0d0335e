import { TextInput } from '@mantine/core';
import { documentNameMax } from '@mise/shared/documents/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';

type NameDialogProps = {
  title: string;
  primaryLabel: string;
  initialName: string;
  /** Saves the name; a rejection shows its message in the dialog, which stays open. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
  testId: string;
};

/** A new folder's or a renamed item's name (1 to 200 characters, trimmed). Mounted when open. */
export function NameDialog({
  title,
  primaryLabel,
  initialName,
  onSubmit,
  onClose,
  testId,
}: NameDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const trimmed = name.trim();

  const handleSubmit = async () => {
    if (!trimmed) return;
    setIsSaving(true);
    setError(null);
    try {
      await onSubmit(trimmed);
      onClose();
    } catch (failure) {
      setError(
        isApiError(failure, 'documents.file-exists')
          ? t('documents.fileExists')
          : errorMessage(t, failure),
      );
      setIsSaving(false);
    }
  };

  return (
    <FormDialog
      opened
      onClose={onClose}
      title={title}
      primaryLabel={primaryLabel}
      onPrimary={() => void handleSubmit()}
      isPrimaryDisabled={!trimmed || trimmed === initialName}
      isPrimaryLoading={isSaving}
      primaryTestId={`${testId}-submit`}
      testId={testId}
      footer={error ? <ErrorText testId={`${testId}-error`}>{error}</ErrorText> : null}
    >
      <TextInput
        label={t('documents.name')}
        value={name}
        maxLength={documentNameMax}
        onChange={(event) => setName(event.currentTarget.value)}
        data-autofocus
        data-testid={`${testId}-name`}
      />
    </FormDialog>
  );
}
