import { Select, TextInput } from '@mantine/core';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import { type ReactNode, useState } from 'react';
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

/** A type save: the element type's or the task type's mutation. */
type TypeSave<Body> = {
  mutate(body: Body, options: { onSuccess: () => void; onError: (error: unknown) => void }): void;
  isPending: boolean;
};

/**
 * The type dialog of both grids (create a type, or edit one of the level's): which type, its
 * name (required), and the fields a kind of type adds (a task type's colour) through `extra`.
 */
export function TypeFormDialog<Extra extends object>({
  level,
  types,
  opened,
  onClose,
  title,
  nameLabel,
  nameError,
  save,
  extra,
}: Omit<TypeDialogProps, 'ownerId'> & {
  title: string;
  nameLabel: string;
  nameError: string;
  save: TypeSave<{ id: string | null; name: string } & Extra>;
  /** The kind's own fields: their values for the save, a type chosen (undefined: new), the inputs. */
  extra: { values: Extra; onChoose: (type: EditableType | undefined) => void; fields: ReactNode };
}) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState(newTypeValue);
  const [name, setName] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const isNameMissing = name.trim() === '';
  const choices = editableTypes(level, types);

  function choose(next: string) {
    const type = types.find((candidate) => candidate.id === next);
    setChoice(next);
    setName(type?.name ?? '');
    extra.onChoose(type);
  }

  function close() {
    choose(newTypeValue);
    setIsSubmitted(false);
    onClose();
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (isNameMissing) return;
    save.mutate(
      { id: choice === newTypeValue ? null : choice, name: name.trim(), ...extra.values },
      {
        onSuccess: close,
        onError: (error) => notifyApiError(error, { autoClose: saveErrorToastMs }),
      },
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title={title}
      primaryLabel={choice === newTypeValue ? t('common.create') : t('common.save')}
      onPrimary={handleSubmit}
      isPrimaryLoading={save.isPending}
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
        onChange={(value) => choose(value ?? newTypeValue)}
        allowDeselect={false}
        data-testid="bulk-type-choice"
      />
      <TextInput
        label={nameLabel}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={isSubmitted && isNameMissing ? nameError : null}
        withAsterisk
        data-autofocus
        data-testid="bulk-type-name"
      />
      {extra.fields}
    </FormDialog>
  );
}

const noExtra = { values: {}, onChoose: () => undefined, fields: null };

/** Create an element type, or rename one (name required). */
export function ElementTypeDialog({ ownerId, ...props }: TypeDialogProps) {
  const { t } = useTranslation();
  const saveType = useSaveElementType(props.level, ownerId);
  return (
    <TypeFormDialog
      {...props}
      title={t('bulk.types.elementTitle')}
      nameLabel={t('elementType.name')}
      nameError={t('errors.element-type/invalid-name')}
      save={saveType}
      extra={noExtra}
    />
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
