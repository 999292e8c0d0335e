import { Button, Card, Group, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconChartBar, IconDatabase } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { SelectionPopup } from '../../../shared/selection/selection-popup';
import { useSelection } from '../../../shared/selection/use-selection';
import { PageHeader } from '../../../shared/ui/page-header';

/**
 * Home (spec 000 §2). A distributor sees a welcome message only; admins,
 * managers and customers choose a store or a database in the selection
 * popup. The dashboard panels come with their own issues.
 */
export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const welcome = t('home.welcome', { name: user.name });
  const { selection } = useSelection();
  const [isSelectionOpen, setIsSelectionOpen] = useState(false);

  if (user.role === 'distributor') {
    return <PageHeader title={welcome} subtitle={t('home.distributorMessage')} />;
  }

  const SelectionIcon = selection?.kind === 'database' ? IconDatabase : IconBuildingStore;

  return (
    <>
      <PageHeader title={welcome} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" padding="lg" data-testid="home-selection">
          <ThemeIcon variant="light" size="lg" mb="sm">
            <SelectionIcon size={20} />
          </ThemeIcon>
          <Title order={4}>{t('home.selectorTitle')}</Title>
          <Text size="sm" c={selection ? undefined : 'dimmed'} mt={4} data-testid="home-selected">
            {selection
              ? t(selection.kind === 'store' ? 'home.selectedStore' : 'home.selectedDatabase', {
                  name: selection.name,
                })
              : t('home.nothingSelected')}
          </Text>
          <Group mt="md">
            <Button onClick={() => setIsSelectionOpen(true)} data-testid="home-select">
              {t('home.select')}
            </Button>
          </Group>
        </Card>
        <Card withBorder radius="md" padding="lg" data-testid="home-placeholder">
          <ThemeIcon variant="light" size="lg" mb="sm">
            <IconChartBar size={20} />
          </ThemeIcon>
          <Title order={4}>{t('home.panelsTitle')}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('home.panelsComing')}
          </Text>
        </Card>
      </SimpleGrid>
      <SelectionPopup
        opened={isSelectionOpen}
        onClose={() => setIsSelectionOpen(false)}
        viewerRole={user.role}
      />
    </>
  );
}
