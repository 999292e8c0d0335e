import { Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconDatabase } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Selection } from '../../../shared/selection/use-selection';

type SelectionCardProps = {
  selection: Selection;
  onSelect: () => void;
};

/** The chosen store or database (spec 000 §2) and the button opening the selection popup. */
export function SelectionCard({ selection, onSelect }: SelectionCardProps) {
  const { t } = useTranslation();
  const SelectionIcon = selection?.kind === 'database' ? IconDatabase : IconBuildingStore;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-selection">
      <ThemeIcon variant="light" size="lg" mb="sm">
        <SelectionIcon size={20} />
      </ThemeIcon>
      <Title order={2} size="h4">
        {t('home.selectorTitle')}
      </Title>
      <Text size="sm" c={selection ? undefined : 'dimmed'} mt={4} data-testid="home-selected">
        {selection
          ? t(selection.kind === 'store' ? 'home.selectedStore' : 'home.selectedDatabase', {
              name: selection.name,
            })
          : t('home.nothingSelected')}
      </Text>
      <Group mt="md">
        {/* A long label (French, Polish on a phone) wraps inside the button instead of being cut. */}
        <Button
          onClick={onSelect}
          h="auto"
          py={8}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
          data-testid="home-select"
        >
          {t('home.select')}
        </Button>
      </Group>
    </Card>
  );
}
