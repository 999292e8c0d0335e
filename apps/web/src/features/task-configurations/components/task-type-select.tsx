import {
  ActionIcon,
  ColorInput,
  ColorSwatch,
  Group,
  Select,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import { defaultTaskTypeColor } from '@mise/shared/tasks/constants';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyApiError } from '../../../shared/ui/notify';
import { type TaskTypeInput, useSaveTaskType, useTaskTypes } from '../api/get-task-types';
import { FieldRow } from './field-state-control';
import { useTaskConfigurationForm } from './task-configuration-form-context';

type TaskTypeSelectProps = {
  /** The database or store whose types are offered. */
  ownerId: string;
  /** The current type as the configuration names it, when the list does not hold it. */
  currentType: { name: string | null; color: string | null };
};

/**
 * Task type (spec 001 §2.6, §3.7): a dropdown with colour swatches, "add type" and "edit type"
 * (name required, colour default #454eff). At store level only store-side types are editable.
 */
export function TaskTypeSelect({ ownerId, currentType }: TaskTypeSelectProps) {
  const { t } = useTranslation();
  const { level, draft, setValue, isFieldReadOnly, isReadOnly } = useTaskConfigurationForm();
  const types = useTaskTypes(level, ownerId);
  const saveType = useSaveTaskType(level, ownerId);
  const [dialog, setDialog] = useState<TaskTypeInput | null>(null);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const typeId = draft.values.type_id;
  const items = types.data ?? [];
  const colors = new Map(items.map((type) => [type.id, type.color]));
  const selected = items.find((type) => type.id === typeId) ?? null;
  const options = items.map((type) => ({ value: type.id, label: type.name }));
  if (typeId && !selected) {
    options.push({ value: typeId, label: currentType.name ?? '…' });
    if (currentType.color) colors.set(typeId, currentType.color);
  }
  const isTypeReadOnly = isFieldReadOnly('type_id');
  const canEditSelected =
    !isReadOnly && selected !== null && (level === 'database' || selected.store_side);
  const isNameMissing = (dialog?.name.trim() ?? '') === '';
  const selectedColor = typeId ? colors.get(typeId) : undefined;

  function openDialog(next: TaskTypeInput) {
    setIsSubmitted(false);
    setDialog(next);
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (!dialog || isNameMissing) return;
    saveType.mutate(
      { ...dialog, name: dialog.name.trim() },
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
            label={t('taskConfiguration.fields.type_id')}
            placeholder={t('taskType.placeholder')}
            data={options}
            value={typeId}
            onChange={(value) => setValue('type_id', value)}
            readOnly={isTypeReadOnly}
            clearable={level === 'database' && !isTypeReadOnly}
            searchable
            nothingFoundMessage={t('common.nothingFound')}
            leftSection={selectedColor ? <ColorSwatch color={selectedColor} size={14} /> : null}
            renderOption={({ option }) => (
              <Group gap="xs" wrap="nowrap">
                <ColorSwatch color={colors.get(option.value) ?? defaultTaskTypeColor} size={14} />
                <Text size="sm">{option.label}</Text>
              </Group>
            )}
            style={{ flex: 1 }}
            data-testid="field-type_id"
          />
          <Tooltip label={t('taskType.add')}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={t('taskType.add')}
              disabled={isReadOnly}
              onClick={() => openDialog({ id: null, name: '', color: defaultTaskTypeColor })}
              data-testid="task-type-add"
            >
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('taskType.edit')}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={t('taskType.edit')}
              disabled={!canEditSelected}
              onClick={() =>
                selected &&
                openDialog({ id: selected.id, name: selected.name, color: selected.color })
              }
              data-testid="task-type-edit"
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </FieldRow>
      <FormDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.id ? t('taskType.edit') : t('taskType.add')}
        primaryLabel={dialog?.id ? t('common.save') : t('common.create')}
        onPrimary={handleSubmit}
        isPrimaryLoading={saveType.isPending}
        primaryTestId="task-type-submit"
        testId="task-type-dialog"
      >
        <TextInput
          label={t('taskType.name')}
          value={dialog?.name ?? ''}
          onChange={(event) => {
            const name = event.currentTarget.value;
            setDialog((current) => (current ? { ...current, name } : current));
          }}
          error={isSubmitted && isNameMissing ? t('errors.task-type/invalid-name') : null}
          withAsterisk
          data-autofocus
          data-testid="task-type-name"
        />
        <ColorInput
          label={t('taskType.color')}
          format="hex"
          value={dialog?.color ?? defaultTaskTypeColor}
          onChange={(color) =>
            setDialog((current) =>
              current ? { ...current, color: color || defaultTaskTypeColor } : current,
            )
          }
          data-testid="task-type-color"
        />
      </FormDialog>
    </>
  );
}
