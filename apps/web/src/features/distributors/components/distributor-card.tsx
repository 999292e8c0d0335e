import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { DistributorSummary } from '@mise/shared/organisation/schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { countryName } from '../../../shared/format/country';

type DistributorCardProps = { distributor: DistributorSummary };

/** A distributor in the list: city, countries, store count and licensed-store count. */
export function DistributorCard({ distributor }: DistributorCardProps) {
  const { t, i18n } = useTranslation();
  const countries = distributor.countries
    .map((code) => countryName(code, i18n.language))
    .join(', ');
  return (
    <Card
      component={Link}
      to={`/distributor?id=${encodeURIComponent(distributor.id)}`}
      withBorder
      radius="md"
      padding="md"
      data-testid="distributor-card"
      aria-label={distributor.name}
    >
      <Group wrap="nowrap" align="flex-start">
        <Avatar src={distributor.logo} name={distributor.name} color="initials" radius="md" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} truncate>
              {distributor.name}
            </Text>
            {distributor.active ? null : (
              <Badge size="xs" color="gray" variant="light">
                {t('common.inactive')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" truncate>
            {[distributor.city, countries].filter(Boolean).join(' · ')}
          </Text>
          <Text size="sm" data-testid="distributor-card-counts">
            {t('distributors.storeCount', { count: distributor.store_count })} ·{' '}
            {t('distributors.licensedCount', { count: distributor.licensed_store_count })}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
