import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { UserSummary } from '@mise/shared/users/schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type AccountCardProps = {
  account: UserSummary;
  isStoreCountShown: boolean;
};

/** An account in the list: name, e-mail and store count (spec 000 §2). */
export function AccountCard({ account, isStoreCountShown }: AccountCardProps) {
  const { t } = useTranslation();
  const fullName = `${account.name} ${account.surname}`.trim();
  return (
    <Card
      component={Link}
      to={`/account?id=${encodeURIComponent(account.id)}`}
      withBorder
      radius="md"
      padding="md"
      data-testid="account-card"
      aria-label={fullName}
    >
      <Group wrap="nowrap" align="flex-start">
        <Avatar src={account.illustration_url} name={fullName} color="initials" radius="xl" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} truncate data-testid="account-card-name">
              {fullName}
            </Text>
            {account.active ? null : (
              <Badge size="xs" color="gray" variant="light">
                {t('accounts.inactive')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" truncate data-testid="account-card-email">
            {account.email}
          </Text>
          {isStoreCountShown ? (
            <Text size="sm" data-testid="account-card-store-count">
              {t('accounts.storeCount', { count: account.store_count })}
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Card>
  );
}
