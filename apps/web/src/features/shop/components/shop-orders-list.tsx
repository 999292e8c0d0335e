import { Badge, Center, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { shopOrdersPageSize } from '@mise/shared/shop/constants';
import type { ShopOrder } from '@mise/shared/shop/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../shared/format/money';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useShopOrders } from '../api/get-shop-orders';

/** A table wider than the screen scrolls: its viewport takes the keyboard focus (axe). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

const statusColors: Record<ShopOrder['status'], string> = {
  sent: 'teal',
  'no-email': 'gray',
  pending: 'orange',
};

/** The stores' orders from the distributor's shop, newest first, a page at a time (issue 19). */
export function ShopOrdersList({ distributorId }: { distributorId: string }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useShopOrders(distributorId, (page - 1) * shopOrdersPageSize, shopOrdersPageSize);

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (query.isError || !query.data) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, query.error)} />;
  }
  const { items, total } = query.data;
  if (total === 0) {
    return (
      <EmptyState
        title={t('shop.orders.empty')}
        description={t('shop.orders.emptyHint')}
        testId="shop-orders-empty"
      />
    );
  }
  const dateFormat = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  const pages = Math.max(1, Math.ceil(total / shopOrdersPageSize));
  return (
    <Stack gap="md">
      <Table.ScrollContainer minWidth={760} scrollAreaProps={keyboardScroll}>
        <Table striped verticalSpacing="sm" data-testid="shop-orders-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('shop.orders.date')}</Table.Th>
              <Table.Th>{t('shop.orders.store')}</Table.Th>
              <Table.Th>{t('shop.orders.items')}</Table.Th>
              <Table.Th ta="right">{t('shop.orders.total')}</Table.Th>
              <Table.Th>{t('shop.orders.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((order) => (
              <Table.Tr key={order.id} data-testid="shop-order-row">
                <Table.Td>
                  <Text size="sm">{dateFormat.format(new Date(order.created_at))}</Text>
                  {order.ordered_by ? (
                    <Text size="xs" c="dimmed">
                      {t('shop.orders.orderedBy', {
                        name: `${order.ordered_by.name} ${order.ordered_by.surname}`.trim(),
                      })}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {order.store_name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {order.database_name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {order.lines.map((line) => (
                      <Text size="sm" key={line.item_id}>
                        {t('shop.orders.line', {
                          quantity: line.quantity,
                          name: line.name,
                          price: formatEuros(line.price, i18n.language),
                        })}
                      </Text>
                    ))}
                    {order.note ? (
                      <Text size="xs" c="dimmed" fs="italic">
                        {order.note}
                      </Text>
                    ) : null}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={600}>
                    {formatEuros(order.total, i18n.language)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={statusColors[order.status]}>
                    {t(`shop.orders.statuses.${order.status}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Group justify="center">
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({
              'aria-label': t(`shop.orders.pagination.${control}`),
            })}
            data-testid="shop-orders-pagination"
          />
        </Group>
      ) : null}
    </Stack>
  );
}
