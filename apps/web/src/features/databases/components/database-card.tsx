import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type DatabaseCardProps = { database: DatabaseSummary };

/** A database in the list: name, distributor and store count. */
export function DatabaseCard({ database }: DatabaseCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      component={Link}
      to={`/database?id=${encodeURIComponent(database.id)}`}
      withBorder
      radius="md"
      padding="md"
      data-testid="database-card"
      aria-label={database.name}
    >
      <Group wrap="nowrap" align="flex-start">
        <Avatar src={database.illustration_url} name={database.name} color="initials" radius="md" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} truncate>
              {database.name}
            </Text>
            {database.hidden ? (
              <Badge size="xs" color="gray" variant="light">
                {t('database.hiddenBadge')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" truncate>
            {database.distributor_name ?? t('database.noDistributor')}
          </Text>
          <Text size="sm" data-testid="database-card-store-count">
            {t('selection.storeCount', { count: database.store_count })}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
