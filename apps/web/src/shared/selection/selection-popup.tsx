import {
  Center,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Role } from '@mise/shared/auth/constants';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';
import { useSelectionDatabases } from './get-selection-databases';
import { useSelectionStores } from './get-selection-stores';
import { useSelection } from './use-selection';

type SelectionPopupProps = {
  opened: boolean;
  onClose: () => void;
  viewerRole: Role;
};

type TabKey = 'stores' | 'databases';

const searchDebounceMs = 300;

/**
 * Database or store selection popup (spec 000 §2): a search bar, tabs Stores
 * and Database (customers only get stores, without tabs). Choosing one clears
 * the other; the choice is kept by useSelection.
 */
export function SelectionPopup({ opened, onClose, viewerRole }: SelectionPopupProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [tab, setTab] = useState<TabKey>('stores');
  const { storeId, databaseId, selectStore, selectDatabase } = useSelection();
  const areTabsShown = viewerRole !== 'customer';
  const activeTab: TabKey = areTabsShown ? tab : 'stores';
  const stores = useSelectionStores(debouncedSearch, opened && activeTab === 'stores');
  const databases = useSelectionDatabases(debouncedSearch, opened && activeTab === 'databases');

  function handleStore(store: { id: string; name: string }) {
    selectStore(store);
    onClose();
  }

  function handleDatabase(database: { id: string; name: string }) {
    selectDatabase(database);
    onClose();
  }

  const query = activeTab === 'stores' ? stores : databases;
  let list: ReactNode;
  if (query.isPending) {
    list = (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  } else if (query.isError) {
    list = <Text c="red">{errorMessage(t, query.error)}</Text>;
  } else if (activeTab === 'stores') {
    const items = stores.data ?? [];
    list =
      items.length === 0 ? (
        <Text c="dimmed">{t('selection.noStore')}</Text>
      ) : (
        items.map((store) => (
          <SelectionRow
            key={store.id}
            title={store.name}
            detail={[store.address, store.postal_code, store.city].filter(Boolean).join(', ')}
            isSelected={store.id === storeId}
            onClick={() => handleStore(store)}
            testId="selection-store"
          />
        ))
      );
  } else {
    const items = databases.data ?? [];
    list =
      items.length === 0 ? (
        <Text c="dimmed">{t('selection.noDatabase')}</Text>
      ) : (
        items.map((database) => (
          <SelectionRow
            key={database.id}
            title={database.name}
            detail={t('selection.storeCount', { count: database.store_count })}
            isSelected={database.id === databaseId}
            onClick={() => handleDatabase(database)}
            testId="selection-database"
          />
        ))
      );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('selection.title')}
      size="lg"
      centered
      closeOnEscape
      data-testid="selection-popup"
    >
      <Stack gap="sm">
        <TextInput
          placeholder={t('common.search')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-autofocus
          data-testid="selection-search"
        />
        {areTabsShown ? (
          <Tabs value={activeTab} onChange={(value) => setTab((value as TabKey) ?? 'stores')}>
            <Tabs.List>
              <Tabs.Tab value="stores" data-testid="selection-tab-stores">
                {t('selection.stores')}
              </Tabs.Tab>
              <Tabs.Tab value="databases" data-testid="selection-tab-databases">
                {t('selection.databases')}
              </Tabs.Tab>
            </Tabs.List>
          </Tabs>
        ) : null}
        <ScrollArea.Autosize mah="60vh">
          <Stack gap={4}>{list}</Stack>
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}

type SelectionRowProps = {
  title: string;
  detail: string;
  isSelected: boolean;
  onClick: () => void;
  testId: string;
};

function SelectionRow({ title, detail, isSelected, onClick, testId }: SelectionRowProps) {
  return (
    <UnstyledButton
      onClick={onClick}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        background: isSelected ? 'var(--mantine-color-blue-light)' : undefined,
      }}
      data-testid={testId}
      aria-current={isSelected ? 'true' : undefined}
    >
      <Text fw={600} size="sm">
        {isSelected ? <IconCheck size={14} style={{ marginRight: 4 }} /> : null}
        {title}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </UnstyledButton>
  );
}
