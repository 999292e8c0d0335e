import { Anchor, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { useUserStores } from '../api/get-user-stores';

type AccountStoresProps = {
  userId: string;
};

/** Stores of the account, for admin viewers (spec 000 §2). */
export function AccountStores({ userId }: AccountStoresProps) {
  const { t } = useTranslation();
  const stores = useUserStores(userId, true);

  return (
    <Card withBorder radius="md" data-testid="account-stores">
      <Title order={4} mb="sm">
        {t('account.stores')}
      </Title>
      {stores.isPending ? (
        <Loader size="sm" />
      ) : stores.isError ? (
        <Text c="red" size="sm">
          {errorMessage(t, stores.error)}
        </Text>
      ) : stores.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('account.noStores')}
        </Text>
      ) : (
        <Stack gap={4}>
          {stores.data.map((store) => (
            <Anchor
              key={store.id}
              component={Link}
              to={`/store?id=${encodeURIComponent(store.id)}`}
              size="sm"
            >
              {store.city ? `${store.name} (${store.city})` : store.name}
            </Anchor>
          ))}
        </Stack>
      )}
    </Card>
  );
}
