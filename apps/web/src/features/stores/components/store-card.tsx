import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type StoreCardProps = { store: StoreSummary };

/** The detail route: /storeDatabase once the store has a database, /store before. */
export function storePath(store: { id: string; database: string | null }): string {
  return `${store.database ? '/storeDatabase' : '/store'}?id=${encodeURIComponent(store.id)}`;
}

/** A store in the list: name, address and distributor ("Unknown distributor." when none). */
export function StoreCard({ store }: StoreCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      component={Link}
      to={storePath(store)}
      withBorder
      radius="md"
      padding="md"
      data-testid="store-card"
      aria-label={store.name}
    >
      <Group wrap="nowrap" align="flex-start">
        <Avatar src={store.illustration_url} name={store.name} color="initials" radius="md" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} truncate data-testid="store-card-name">
              {store.name}
            </Text>
            {store.active ? null : (
              <Badge size="xs" color="gray" variant="light">
                {t('common.inactive')}
              </Badge>
            )}
            {store.mise_licence ? (
              <Badge size="xs" color="teal" variant="light">
                {t('licence.badge')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" truncate>
            {[store.address, store.postal_code, store.city].filter(Boolean).join(', ')}
          </Text>
          <Text size="sm" data-testid="store-card-distributor">
            {store.distributor_name ?? t('stores.unknownDistributor')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
