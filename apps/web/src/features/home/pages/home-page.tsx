import { Card, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { PageHeader } from '../../../shared/ui/page-header';

/**
 * Home (spec 000 §2). A distributor sees a welcome message only; the other
 * roles get the store / database selector and dashboard panels with their
 * issues, announced here meanwhile.
 */
export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const welcome = t('home.welcome', { name: user.name });

  if (user.role === 'distributor') {
    return <PageHeader title={welcome} subtitle={t('home.distributorMessage')} />;
  }

  return (
    <>
      <PageHeader title={welcome} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" data-testid="home-placeholder">
        <Card withBorder radius="md" padding="lg">
          <ThemeIcon variant="light" size="lg" mb="sm">
            <IconBuildingStore size={20} />
          </ThemeIcon>
          <Title order={4}>{t('home.selectorTitle')}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('home.selectorComing')}
          </Text>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <ThemeIcon variant="light" size="lg" mb="sm">
            <IconChartBar size={20} />
          </ThemeIcon>
          <Title order={4}>{t('home.panelsTitle')}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('home.panelsComing')}
          </Text>
        </Card>
      </SimpleGrid>
    </>
  );
}
