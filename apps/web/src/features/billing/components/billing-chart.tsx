import { Group, Progress, Stack, Text } from '@mantine/core';
import type { BillingSummary } from '@mise/shared/billing/schemas';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../shared/format/money';

type BillingChartProps = { distributors: BillingSummary['distributors'] };

/** Cost per distributor as horizontal bars (no chart dependency). */
export function BillingChart({ distributors }: BillingChartProps) {
  const { i18n } = useTranslation();
  const rows = [...distributors].filter((row) => row.cost > 0).sort((a, b) => b.cost - a.cost);
  const maximum = Math.max(...rows.map((row) => row.cost), 0);
  return (
    <Stack gap="xs" data-testid="billing-chart">
      {rows.map((row) => (
        <div key={row.id}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{row.name}</Text>
            <Text size="sm" fw={600}>
              {formatEuros(row.cost, i18n.language)}
            </Text>
          </Group>
          <Progress
            value={maximum > 0 ? (row.cost / maximum) * 100 : 0}
            size="lg"
            radius="sm"
            aria-label={row.name}
          />
        </div>
      ))}
    </Stack>
  );
}
