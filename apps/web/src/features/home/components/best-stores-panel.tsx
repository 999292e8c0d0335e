import {
  Card,
  Group,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { bestStoresCount, scoreWindowDays } from '@mise/shared/history/constants';
import { IconTrophy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../../shared/ui/query-content';
import { useBestStores } from '../api/get-best-stores';
import { scoreColor } from './score-color';

type BestStoresPanelProps = {
  /** The selected database: its stores only; null for every store the user sees. */
  databaseId: string | null;
  /** Choosing a store shows its own panels. */
  onSelectStore: (store: { id: string; name: string }) => void;
};

/**
 * Best stores (spec 000 §2, §9): the top 5 stores by score out of 100, best first, as bars
 * to compare at a glance. Stores without a score are skipped by the server.
 */
export function BestStoresPanel({ databaseId, onSelectStore }: BestStoresPanelProps) {
  const { t } = useTranslation();
  const bestStores = useBestStores(databaseId);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-best-stores">
      <Group gap="xs" wrap="nowrap">
        <IconTrophy size={20} stroke={1.6} />
        <Title order={2} size="h4">
          {t('homeDashboard.bestStores.title')}
        </Title>
      </Group>
      <Text size="xs" c="dimmed" mt={4} mb="md">
        {t('homeDashboard.bestStores.subtitle', {
          count: bestStoresCount,
          days: scoreWindowDays,
        })}
      </Text>
      <QueryContent
        query={bestStores}
        isEmpty={(data) => data.items.length === 0}
        emptyTitle={t('homeDashboard.bestStores.empty')}
      >
        {(data) => (
          <Stack gap="sm" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
            {data.items.map((store, index) => (
              <li key={store.id} data-testid="home-best-store" data-store-id={store.id}>
                <UnstyledButton
                  w="100%"
                  onClick={() => onSelectStore({ id: store.id, name: store.name })}
                  aria-label={t('homeDashboard.bestStores.open', { name: store.name })}
                >
                  <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
                    <Group gap="xs" wrap="nowrap" miw={0}>
                      <ThemeIcon
                        size="sm"
                        radius="xl"
                        variant={index === 0 ? 'filled' : 'light'}
                        color={scoreColor(store.score)}
                      >
                        <Text size="xs" fw={700}>
                          {index + 1}
                        </Text>
                      </ThemeIcon>
                      <Text size="sm" fw={500} truncate data-testid="home-best-store-name">
                        {store.name}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {store.city}
                      </Text>
                    </Group>
                    <Text size="sm" fw={700} data-testid="home-best-store-score">
                      {t('homeDashboard.bestStores.score', { score: store.score })}
                    </Text>
                  </Group>
                  <Progress
                    value={store.score}
                    color={scoreColor(store.score)}
                    size="lg"
                    radius="sm"
                    aria-label={store.name}
                  />
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        )}
      </QueryContent>
    </Card>
  );
}
