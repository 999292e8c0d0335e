import { Select } from '@mantine/core';
import type { Role } from '@mise/shared/auth/constants';
import { useTranslation } from 'react-i18next';
import type { useListSource } from './use-list-source';

type TrainingSourcePickerProps = { role: Role; list: ReturnType<typeof useListSource> };

/**
 * The list's source picker (spec 002 §2): a database for managers, an optional one for
 * distributors (none: their distributor's trainings), a store for customers; nothing for admins.
 */
export function TrainingSourcePicker({ role, list }: TrainingSourcePickerProps) {
  const { t } = useTranslation();
  if (role === 'admin') return null;
  const isStore = role === 'customer';
  const items = (isStore ? list.stores.data : list.databases.data) ?? [];
  const isOptional = role === 'distributor';
  return (
    <Select
      label={isStore ? t('trainings.source.store') : t('trainings.source.database')}
      placeholder={
        isOptional
          ? t('trainings.source.distributorTrainings')
          : isStore
            ? t('trainings.source.chooseStore')
            : t('trainings.source.chooseDatabase')
      }
      data={items.map((item) => ({ value: item.id, label: item.name }))}
      value={(isStore ? list.source.storeId : list.source.databaseId) ?? null}
      onChange={(value) => {
        if (value || isOptional) list.choose(value);
      }}
      searchable
      clearable={isOptional}
      allowDeselect={isOptional}
      nothingFoundMessage={t('common.nothingFound')}
      style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
      data-testid="training-source"
    />
  );
}
