import { Badge, Center, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { shopOrdersPageSize } from '@mise/shared/shop/constants';
import type { ShopOrder, ShopOrderList } from '@mise/shared/shop/schemas';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../shared/format/money';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useShopOrders } from '../api/get-shop-orders';
import { useStoreShopOrders } from '../api/get-store-shop-orders';

/** A table wider than the screen scrolls: its viewport takes the keyboard focus (axe). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

const statusColors: Record<ShopOrder['status'], string> = {
  sent: 'teal',
  'no-email': 'gray',
  pending: 'orange',
};

/** Whose orders: all the stores' of a distributor, or one store's. */
export type ShopOrdersSource = { kind: 'distributor'; id: string } | { kind: 'store'; id: string };

/**
 * Orders from the distributor's shop, newest first, a page at a time (issue 19): the
 * distributor's (every store) or one store's (no store column).
 */
export function ShopOrdersList({ source }: { source: ShopOrdersSource }) {
  return source.kind === 'store' ? (
    <StoreOrders storeId={source.id} />
  ) : (
    <DistributorOrders distributorId={source.id} />
  );
}

function DistributorOrders({ distributorId }: { distributorId: string }) {
  const [page, setPage] = useState(1);
  const query = useShopOrders(distributorId, (page - 1) * shopOrdersPageSize, shopOrdersPageSize);
  return <OrdersTable query={query} page={page} onPage={setPage} isStoreShown />;
}

function StoreOrders({ storeId }: { storeId: string }) {
  const [page, setPage] = useState(1);
  const query = useStoreShopOrders(storeId, (page - 1) * shopOrdersPageSize, shopOrdersPageSize);
  return <OrdersTable query={query} page={page} onPage={setPage} isStoreShown={false} />;
}

type OrdersTableProps = {
  query: UseQueryResult<ShopOrderList>;
  page: number;
  onPage: (page: number) => void;
  /** The store column, for a distributor's orders of every store. */
  isStoreShown: boolean;
};

function OrdersTable({ query, page, onPage, isStoreShown }: OrdersTableProps) {
  const { t, i18n } = useTranslation();

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
        description={t(isStoreShown ? 'shop.orders.emptyHint' : 'shop.order.historyEmptyHint')}
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
      <Table.ScrollContainer minWidth={isStoreShown ? 760 : 560} scrollAreaProps={keyboardScroll}>
        <Table striped verticalSpacing="sm" data-testid="shop-orders-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('shop.orders.date')}</Table.Th>
              {isStoreShown ? <Table.Th>{t('shop.orders.store')}</Table.Th> : null}
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
                {isStoreShown ? (
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {order.store_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {order.database_name}
                    </Text>
                  </Table.Td>
                ) : null}
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
            onChange={onPage}
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
