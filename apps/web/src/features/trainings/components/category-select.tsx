import { type ComboboxItem, Select, TextInput } from '@mantine/core';
import { trainingLimits } from '@mise/shared/trainings/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyApiError } from '../../../shared/ui/notify';
import { useCreateTrainingCategory } from '../api/create-training-category';
import { useTrainingCategories } from '../api/get-training-categories';
import type { TrainingListSource } from './training-paths';

/** The option that opens the "new category" dialog instead of choosing a category. */
const addOption = '__add-category__';

type CategorySelectProps = {
  /** The selection the categories are read and made from. */
  source: TrainingListSource;
  value: string | null;
  /** The training's category as read (shown even when the list no longer offers it). */
  current: { id: string; name: string } | null;
  onChange: (categoryId: string | null) => void;
};

/**
 * The category dropdown (spec 002 §2) with its last option "Add a category…": a name, then the
 * category is made on demand (spec 002 §7; the same name answers the existing one) and chosen.
 */
export function CategorySelect({ source, value, current, onChange }: CategorySelectProps) {
  const { t } = useTranslation();
  const categories = useTrainingCategories(source);
  const createCategory = useCreateTrainingCategory();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [name, setName] = useState('');

  const items = categories.data ?? [];
  const options: ComboboxItem[] = items.map((category) => ({
    value: category.id,
    label: category.name,
  }));
  if (current && !items.some((category) => category.id === current.id)) {
    options.unshift({ value: current.id, label: current.name });
  }
  const addLabel = t('trainings.editor.addCategory');

  async function handleCreate() {
    if (!name.trim()) return;
    try {
      const category = await createCategory.mutateAsync({ source, name });
      onChange(category.id);
      setIsDialogOpen(false);
    } catch (error) {
      notifyApiError(error);
    }
  }

  return (
    <>
      <Select
        label={t('trainings.editor.category')}
        placeholder={t('trainings.editor.noCategory')}
        data={[...options, { value: addOption, label: addLabel }]}
        value={value}
        onChange={(next) => {
          if (next === addOption) {
            setName('');
            setIsDialogOpen(true);
            return;
          }
          onChange(next);
        }}
        filter={({ options: all, search }) => {
          const needle = search.trim().toLowerCase();
          return (all as ComboboxItem[]).filter(
            (option) =>
              option.value === addOption || !needle || option.label.toLowerCase().includes(needle),
          );
        }}
        searchable
        clearable
        nothingFoundMessage={t('common.nothingFound')}
        data-testid="training-category"
      />
      <FormDialog
        opened={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
        title={t('trainings.editor.newCategory')}
        primaryLabel={t('common.create')}
        onPrimary={() => void handleCreate()}
        isPrimaryDisabled={!name.trim()}
        isPrimaryLoading={createCategory.isPending}
        primaryTestId="training-category-create"
        testId="training-category-dialog"
      >
        <TextInput
          label={t('trainings.editor.categoryName')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={trainingLimits.categoryNameMax}
          data-autofocus
          withAsterisk
          data-testid="training-category-name"
        />
      </FormDialog>
    </>
  );
}
