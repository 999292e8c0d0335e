import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelectionStores } from '../../../shared/selection/get-selection-stores';

const searchDebounceMs = 300;

export type PickedStore = { id: string; name: string };

type StorePickerProps = {
  value: PickedStore | null;
  onChange: (store: PickedStore | null) => void;
};

/** A store among those the admin sees (GET /api/stores), searched by the server. */
export function StorePicker({ value, onChange }: StorePickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(value?.name ?? '');
  const isSearching = search.trim() !== '' && search !== value?.name;
  const [debouncedSearch] = useDebouncedValue(isSearching ? search : '', searchDebounceMs);
  const stores = useSelectionStores(debouncedSearch, true);
  const options = useMemo(() => {
    const items = (stores.data ?? []).map((store) => ({ value: store.id, label: store.name }));
    if (value && !items.some((item) => item.value === value.id))
      items.unshift({ value: value.id, label: value.name });
    return items;
  }, [stores.data, value]);

  function handleChange(storeId: string | null) {
    const option = options.find((item) => item.value === storeId);
    const next = option ? { id: option.value, name: option.label } : null;
    setSearch(next?.name ?? '');
    onChange(next);
  }

  return (
    <Select
      label={t('technical.generation.store')}
      placeholder={t('technical.generation.storePlaceholder')}
      data={options}
      value={value?.id ?? null}
      onChange={handleChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searches; the list is not filtered a second time.
      filter={({ options: all }) => all}
      nothingFoundMessage={t('common.nothingFound')}
      miw={260}
      data-testid="technical-generation-store"
    />
  );
}
