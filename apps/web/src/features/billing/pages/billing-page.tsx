import { Button, Card, Center, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import type { BillingSummaryBody } from '@mise/shared/billing/schemas';
import { IconReceiptOff } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatEuros } from '../../../shared/format/money';
import { errorMessage } from '../../../shared/i18n/error-message';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useBillingSummary } from '../api/get-billing-summary';
import { useDistributorOptions } from '../api/get-distributor-options';
import { BillingChart } from '../components/billing-chart';
import { BillingGroups } from '../components/billing-groups';

const allDistributors = 'all';

function currentMonth(): DateRange {
  return {
    start: dayjs().startOf('month').format('YYYY-MM-DD'),
    end: dayjs().endOf('month').format('YYYY-MM-DD'),
  };
}

const isCalendarDay = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).isValid();

/**
 * The applied filter lives in the address (`start`, `end`, `distributor`), so a reload or a
 * shared link shows the same billing; a missing or broken one is the current month, all
 * distributors.
 */
function filterFromSearch(searchParams: URLSearchParams): {
  range: DateRange;
  distributor: string;
} {
  const start = searchParams.get('start');
  const end = searchParams.get('end');
  const isRangeValid = isCalendarDay(start) && isCalendarDay(end) && start <= end;
  return {
    range: isRangeValid ? { start, end } : currentMonth(),
    distributor: searchParams.get('distributor') || allDistributors,
  };
}

function toBody(range: DateRange, distributor: string): BillingSummaryBody | null {
  if (!range.start || !range.end) return null;
  return {
    period: { start: range.start, end: range.end },
    distributorId: distributor === allDistributors ? null : distributor,
  };
}

/** Billing (spec 000 §2, admin only): a period and a distributor, then the billed stores. */
export function BillingPage() {
  const { t, i18n } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFromSearch(searchParams);
  const [range, setRange] = useState<DateRange>(filter.range);
  const [distributor, setDistributor] = useState<string>(filter.distributor);
  const applied = toBody(filter.range, filter.distributor);
  const distributors = useDistributorOptions(true);
  const summary = useBillingSummary(applied);
  const canApply = toBody(range, distributor) !== null;

  function handleApply() {
    if (!range.start || !range.end) return;
    const next = new URLSearchParams(searchParams);
    next.set('start', range.start);
    next.set('end', range.end);
    if (distributor === allDistributors) next.delete('distributor');
    else next.set('distributor', distributor);
    setSearchParams(next, { replace: true });
  }

  const distributorOptions = [
    { value: allDistributors, label: t('billing.allDistributors') },
    ...(distributors.data ?? []).map((item) => ({ value: item.id, label: item.name })),
  ];
  const storeCount = summary.data
    ? Object.values(summary.data.billedStores).reduce((sum, stores) => sum + stores.length, 0)
    : 0;

  return (
    <>
      <PageHeader title={t('areas.billing')} />
      <Group align="flex-end" mb="lg" wrap="wrap">
        <DateRangePicker value={range} onChange={setRange} testId="billing-period" />
        <Select
          label={t('fields.distributor')}
          data={distributorOptions}
          value={distributor}
          onChange={(value) => setDistributor(value ?? allDistributors)}
          allowDeselect={false}
          searchable
          data-testid="billing-distributor"
        />
        <Button
          onClick={handleApply}
          disabled={!canApply}
          loading={summary.isFetching}
          data-testid="billing-apply"
        >
          {t('billing.apply')}
        </Button>
      </Group>
      {summary.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : summary.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, summary.error)} />
      ) : (
        <Stack gap="lg">
          <Card withBorder radius="md">
            <Text c="dimmed" size="sm">
              {t('billing.total')}
            </Text>
            <Title order={2} data-testid="billing-total">
              {formatEuros(summary.data.total, i18n.language)}
            </Title>
            <Text size="sm" c="dimmed">
              {t('billing.storeCount', { count: storeCount })}
            </Text>
          </Card>
          {storeCount === 0 ? (
            <EmptyState
              title={t('billing.empty')}
              icon={<IconReceiptOff size={28} />}
              testId="billing-empty"
            />
          ) : (
            <>
              <Card withBorder radius="md">
                <Title order={4} mb="sm">
                  {t('billing.chart')}
                </Title>
                <BillingChart distributors={summary.data.distributors} />
              </Card>
              <BillingGroups billedStores={summary.data.billedStores} />
            </>
          )}
        </Stack>
      )}
    </>
  );
}
