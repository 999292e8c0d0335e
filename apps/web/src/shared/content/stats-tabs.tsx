import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

const tabs = ['overview', 'table'] as const;
type StatsTab = (typeof tabs)[number];

type StatsTabsProps = { overview: ReactNode; table: ReactNode };

/**
 * The two tabs of a communication's or a training's statistics (spec 002 §2), overview and
 * table, kept in the address as `tab=overview|table`.
 */
export function StatsTabs({ overview, table }: StatsTabsProps) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab');
  const tab: StatsTab = tabs.includes(requestedTab as StatsTab)
    ? (requestedTab as StatsTab)
    : 'overview';
  return (
    <Tabs
      value={tab}
      onChange={(value) => {
        const next = new URLSearchParams(searchParams);
        next.set('tab', value ?? 'overview');
        setSearchParams(next, { replace: true });
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="overview" data-testid="stats-tab-overview">
          {t('content.stats.overview')}
        </Tabs.Tab>
        <Tabs.Tab value="table" data-testid="stats-tab-table">
          {t('content.stats.table')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="overview">{overview}</Tabs.Panel>
      <Tabs.Panel value="table">{table}</Tabs.Panel>
    </Tabs>
  );
}
