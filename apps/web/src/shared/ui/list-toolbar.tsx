import { Group, Loader, Switch, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

type ListToolbarProps = {
  search: string;
  onSearchChange: (value: string) => void;
  /** Shown when given: the "show inactive" toggle of the spec's lists. */
  isInactiveIncluded?: boolean;
  onInactiveChange?: (isIncluded: boolean) => void;
  /** A small spinner while a new page or search result loads. */
  isFetching?: boolean;
  /** Test ids: `<prefix>-search`, `<prefix>-inactive`. */
  testIdPrefix: string;
};

/** The search box and inactive toggle above every list screen. */
export function ListToolbar({
  search,
  onSearchChange,
  isInactiveIncluded,
  onInactiveChange,
  isFetching = false,
  testIdPrefix,
}: ListToolbarProps) {
  const { t } = useTranslation();
  return (
    <Group mb="md" align="center" wrap="wrap">
      <TextInput
        placeholder={t('common.search')}
        aria-label={t('common.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => onSearchChange(event.currentTarget.value)}
        style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
        data-testid={`${testIdPrefix}-search`}
      />
      {onInactiveChange ? (
        <Switch
          label={t('common.showInactive')}
          checked={isInactiveIncluded ?? false}
          onChange={(event) => onInactiveChange(event.currentTarget.checked)}
          data-testid={`${testIdPrefix}-inactive`}
        />
      ) : null}
      {isFetching ? <Loader size="xs" /> : null}
    </Group>
  );
}
