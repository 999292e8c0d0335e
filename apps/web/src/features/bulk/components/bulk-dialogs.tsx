import { Select, TextInput } from '@mantine/core';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyApiError } from '../../../shared/ui/notify';
import { useSaveElementType } from '../../elements';

/* ---------- Type dialogs (spec 001 §2.9: create or edit an element type, a task type) ---------- */

export type EditableType = { id: string; name: string; color?: string; store_side: boolean };

export const newTypeValue = '__new__';

export type TypeDialogProps = {
  level: BulkLevel;
  ownerId: string;
  /** The types of the database or store (at store level only store-side ones are editable). */
  types: readonly EditableType[];
  opened: boolean;
  onClose: () => void;
};

/** Which types a level may edit: all at database level, the store's own at store level. */
export function editableTypes(level: BulkLevel, types: readonly EditableType[]) {
  return types.filter((type) => level === 'database' || type.store_side);
}

/** Create an element type, or rename one (name required). */
export function ElementTypeDialog({ level, ownerId, types, opened, onClose }: TypeDialogProps) {
  const { t } = useTranslation();
  const saveType = useSaveElementType(level, ownerId);
  const [choice, setChoice] = useState(newTypeValue);
  const [name, setName] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const isNameMissing = name.trim() === '';
  const choices = editableTypes(level, types);

  function reset() {
    setChoice(newTypeValue);
    setName('');
    setIsSubmitted(false);
  }

  function handleChoice(value: string | null) {
    const next = value ?? newTypeValue;
    setChoice(next);
    setName(types.find((type) => type.id === next)?.name ?? '');
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (isNameMissing) return;
    saveType.mutate(
      { id: choice === newTypeValue ? null : choice, name: name.trim() },
      {
        onSuccess: () => {
          reset();
          onClose();
        },
        onError: (error) => notifyApiError(error, { autoClose: saveErrorToastMs }),
      },
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title={t('bulk.types.elementTitle')}
      primaryLabel={choice === newTypeValue ? t('common.create') : t('common.save')}
      onPrimary={handleSubmit}
      isPrimaryLoading={saveType.isPending}
      primaryTestId="bulk-type-submit"
      testId="bulk-type-dialog"
    >
      <Select
        label={t('bulk.types.which')}
        data={[
          { value: newTypeValue, label: t('bulk.types.new') },
          ...choices.map((type) => ({ value: type.id, label: type.name })),
        ]}
        value={choice}
        onChange={handleChoice}
        allowDeselect={false}
        data-testid="bulk-type-choice"
      />
      <TextInput
        label={t('elementType.name')}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={isSubmitted && isNameMissing ? t('errors.element-type/invalid-name') : null}
        withAsterisk
        data-autofocus
        data-testid="bulk-type-name"
      />
    </FormDialog>
  );
}

/* ---------- New rows ---------- */

type NewElementDialogProps = {
  level: BulkLevel;
  typeOptions: readonly { value: string; label: string }[];
  opened: boolean;
  onClose: () => void;
  onCreate: (input: { name: string; type_id: string | null }) => void;
};

/**
 * A new element, added to the grid and saved on Save: a name (required) and a type (required
 * at store level), as the element screen checks them.
 */
export function NewElementDialog({
  level,
  typeOptions,
  opened,
  onClose,
  onCreate,
}: NewElementDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [typeId, setTypeId] = useState<string | null>(null);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const nameError = name.trim() === '' ? 'element/invalid-name' : null;
  const typeError = level === 'store' && !typeId ? 'element/select-type' : null;

  function close() {
    setName('');
    setTypeId(null);
    setIsSubmitted(false);
    onClose();
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (nameError || typeError) return;
    onCreate({ name: name.trim(), type_id: typeId });
    close();
  }

  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title={t('bulk.newElement')}
      primaryLabel={t('common.add')}
      onPrimary={handleSubmit}
      primaryTestId="bulk-new-submit"
      testId="bulk-new-dialog"
    >
      <TextInput
        label={t('element.fields.name')}
        value={name}
        maxLength={120}
        onChange={(event) => setName(event.currentTarget.value)}
        error={isSubmitted && nameError ? t(`errors.${nameError}`) : null}
        withAsterisk
        data-autofocus
        data-testid="bulk-new-name"
      />
      <Select
        label={t('element.fields.type_id')}
        placeholder={t('elementType.placeholder')}
        data={typeOptions.map((option) => ({ value: option.value, label: option.label }))}
        value={typeId}
        onChange={setTypeId}
        clearable={level === 'database'}
        searchable
        nothingFoundMessage={t('common.nothingFound')}
        withAsterisk={level === 'store'}
        error={isSubmitted && typeError ? t(`errors.${typeError}`) : null}
        data-testid="bulk-new-type"
      />
    </FormDialog>
  );
}
