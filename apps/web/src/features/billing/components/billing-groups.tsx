import { Accordion, Badge, Group, Table, Text } from '@mantine/core';
import type { BillingSummary } from '@mise/shared/billing/schemas';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../shared/format/money';

type BillingGroupsProps = { billedStores: BillingSummary['billedStores'] };

/** One expandable group per distributor, with each billed store's cost, devices and months. */
export function BillingGroups({ billedStores }: BillingGroupsProps) {
  const { t, i18n } = useTranslation();
  const groups = Object.entries(billedStores).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Accordion multiple variant="separated" data-testid="billing-groups">
      {groups.map(([distributorName, stores]) => {
        const groupCost = stores.reduce((sum, store) => sum + store.cost, 0);
        return (
          <Accordion.Item key={distributorName} value={distributorName} data-testid="billing-group">
            <Accordion.Control data-testid="billing-group-toggle">
              <Group justify="space-between" pr="md">
                <Text fw={600}>{distributorName}</Text>
                <Group gap="xs">
                  <Badge variant="light">{t('billing.storeCount', { count: stores.length })}</Badge>
                  <Text fw={600} data-testid="billing-group-cost">
                    {formatEuros(groupCost, i18n.language)}
                  </Text>
                </Group>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('billing.store')}</Table.Th>
                    <Table.Th>{t('billing.devices')}</Table.Th>
                    <Table.Th>{t('billing.licencePrice')}</Table.Th>
                    <Table.Th>{t('billing.billedMonths')}</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>{t('billing.cost')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stores.map((store) => (
                    <Table.Tr key={store.id} data-testid="billing-store">
                      <Table.Td>{store.name}</Table.Td>
                      <Table.Td>{store.maximumDevices}</Table.Td>
                      <Table.Td>{formatEuros(store.licencePrice, i18n.language)}</Table.Td>
                      <Table.Td>{store.billedMonths}</Table.Td>
                      <Table.Td style={{ textAlign: 'right' }} data-testid="billing-store-cost">
                        {formatEuros(store.cost, i18n.language)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
