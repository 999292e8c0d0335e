import { ActionIcon, Group, Select, TextInput, Tooltip } from '@mantine/core';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyApiError } from '../../../shared/ui/notify';
import { useElementTypes } from '../api/get-element-types';
import { useSaveElementType } from '../api/save-element-type';
import { useElementForm } from './element-form-context';
import { FieldRow } from './field-state-control';

type TypeDialog = { id: string | null; name: string } | null;

type ElementTypeSelectProps = {
  /** The database or store whose types are offered. */
  ownerId: string;
  /** Name of the current type when the list does not hold it (a database type seen from a store). */
  currentTypeName: string | null;
};

/**
 * Element type (spec 001 §2.5, §3.3): a dropdown with "add type" and "edit type". At store
 * level only the store's own (store_side) types can be edited.
 */
export function ElementTypeSelect({ ownerId, currentTypeName }: ElementTypeSelectProps) {
  const { t } = useTranslation();
  const { level, draft, setValue, isFieldReadOnly, isReadOnly } = useElementForm();
  const types = useElementTypes(level, ownerId);
  const saveType = useSaveElementType(level, ownerId);
  const [dialog, setDialog] = useState<TypeDialog>(null);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const typeId = draft.values.type_id;
  const items = types.data ?? [];
  const selected = items.find((type) => type.id === typeId) ?? null;
  const options = items.map((type) => ({ value: type.id, label: type.name }));
  if (typeId && !selected) options.push({ value: typeId, label: currentTypeName ?? '…' });
  const isTypeReadOnly = isFieldReadOnly('type_id');
  const canEditSelected =
    !isReadOnly && selected !== null && (level === 'database' || selected.store_side);
  const isNameMissing = (dialog?.name.trim() ?? '') === '';

  function openDialog(next: TypeDialog) {
    setIsSubmitted(false);
    setDialog(next);
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (!dialog || isNameMissing) return;
    saveType.mutate(
      { id: dialog.id, name: dialog.name.trim() },
      {
        onSuccess: (type) => {
          if (!dialog.id && !isTypeReadOnly) setValue('type_id', type.id);
          setDialog(null);
        },
        onError: (error) => notifyApiError(error, { autoClose: saveErrorToastMs }),
      },
    );
  }

  return (
    <>
      <FieldRow field="type_id">
        <Group gap={4} align="flex-end" wrap="nowrap">
          <Select
            label={t('element.fields.type_id')}
            placeholder={t('elementType.placeholder')}
            data={options}
            value={typeId}
            onChange={(value) => setValue('type_id', value)}
            readOnly={isTypeReadOnly}
            clearable={level === 'database' && !isTypeReadOnly}
            searchable
            nothingFoundMessage={t('common.nothingFound')}
            style={{ flex: 1 }}
            data-testid="field-type_id"
          />
          <Tooltip label={t('elementType.add')}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={t('elementType.add')}
              disabled={isReadOnly}
              onClick={() => openDialog({ id: null, name: '' })}
              data-testid="element-type-add"
            >
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('elementType.edit')}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={t('elementType.edit')}
              disabled={!canEditSelected}
              onClick={() => selected && openDialog({ id: selected.id, name: selected.name })}
              data-testid="element-type-edit"
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </FieldRow>
      <FormDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.id ? t('elementType.edit') : t('elementType.add')}
        primaryLabel={dialog?.id ? t('common.save') : t('common.create')}
        onPrimary={handleSubmit}
        isPrimaryLoading={saveType.isPending}
        primaryTestId="element-type-submit"
        testId="element-type-dialog"
      >
        <TextInput
          label={t('elementType.name')}
          value={dialog?.name ?? ''}
          onChange={(event) => {
            const name = event.currentTarget.value;
            setDialog((current) => (current ? { ...current, name } : current));
          }}
          error={isSubmitted && isNameMissing ? t('errors.element-type/invalid-name') : null}
          withAsterisk
          data-autofocus
          data-testid="element-type-name"
        />
      </FormDialog>
    </>
  );
}
