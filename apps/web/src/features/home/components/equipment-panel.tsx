import { Badge, Card, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { equipmentStateColors } from '@mise/shared/history/constants';
import type { EquipmentReading, OilState, StoreHome } from '@mise/shared/history/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { IconTemperature } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatStoreDate, formatStoreTime } from '../../../shared/format/store-clock';
import { EmptyState } from '../../../shared/ui/empty-state';

type Equipment = NonNullable<StoreHome['equipment']>;
const equipmentTabs = ['fridges', 'delivery', 'oils'] as const;
type EquipmentTab = (typeof equipmentTabs)[number];

/** The module whose hiding hides a tab: fridges and delivery are temperatures readings. */
const moduleOfTab: Record<EquipmentTab, ModuleKey> = {
  fridges: 'temperatures',
  delivery: 'temperatures',
  oils: 'oils',
};

/** Tabs the store shows: those whose module is not hidden on the store or its database. */
/** A table wider than the panel scrolls: its viewport takes the keyboard focus (axe). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

export function visibleEquipmentTabs(hiddenModules: readonly ModuleKey[]): EquipmentTab[] {
  return equipmentTabs.filter((tab) => !hiddenModules.includes(moduleOfTab[tab]));
}

type EquipmentPanelProps = {
  equipment: Equipment;
  hiddenModules: readonly ModuleKey[];
  timeZone: string;
};

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

type ProbeReading = NonNullable<EquipmentReading['probe']>;
const probeStateColors: Record<ProbeReading['state'], string> = {
  'in-range': 'green',
  'out-of-range': 'red',
  'not-working': 'orange',
};

/** The bound probe's last reading and state (issue 15), beside the day's manual state. */
function ProbeCell({ probe, timeZone }: { probe: ProbeReading; timeZone: string }) {
  const { t } = useTranslation();
  const stateLabel = t(`homeDashboard.equipment.probeStates.${probe.state}`);
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Badge
          variant="light"
          color={probeStateColors[probe.state]}
          data-testid="home-equipment-probe-state"
          data-state={probe.state}
        >
          {stateLabel}
        </Badge>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="home-equipment-probe-reading">
          {probe.last_temperature === null
            ? t('homeDashboard.equipment.probeNoReading')
            : t('homeDashboard.equipment.probeReading', {
                temperature: formatNumber(probe.last_temperature),
                time: formatStoreTime(probe.last_reading_at, timeZone),
              })}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {probe.name}
      </Text>
    </Stack>
  );
}

function ReadingsTable({
  items,
  timeZone,
  testId,
}: {
  items: EquipmentReading[];
  timeZone: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const hasProbes = items.some((item) => item.probe !== null);
  return (
    <Table.ScrollContainer minWidth={hasProbes ? 560 : 360} scrollAreaProps={keyboardScroll}>
      <Table verticalSpacing="xs" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('homeDashboard.equipment.columns.name')}</Table.Th>
            <Table.Th>{t('homeDashboard.equipment.columns.state')}</Table.Th>
            <Table.Th>{t('homeDashboard.equipment.columns.lastReading')}</Table.Th>
            {hasProbes ? <Table.Th>{t('homeDashboard.equipment.probe')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr
              key={item.id}
              data-testid="home-equipment-row"
              data-element-id={item.id}
              data-anomaly={item.has_anomaly}
            >
              <Table.Td>
                <Text size="sm" fw={500}>
                  {item.name}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Badge
                  variant="light"
                  color={equipmentStateColors[item.state]}
                  data-testid="home-equipment-state"
                  data-state={item.state}
                >
                  {t(`homeDashboard.equipment.states.${item.state}`)}
                </Badge>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" c="dimmed">
                  {item.last_temperature === null
                    ? ''
                    : t('homeDashboard.equipment.readingAt', {
                        temperature: formatNumber(item.last_temperature),
                        time: formatStoreTime(item.last_reading_at, timeZone),
                      })}
                </Text>
              </Table.Td>
              {hasProbes ? (
                <Table.Td>
                  {item.probe ? <ProbeCell probe={item.probe} timeZone={timeZone} /> : null}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OilsTable({ items, timeZone }: { items: OilState[]; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={480} scrollAreaProps={keyboardScroll}>
      <Table verticalSpacing="xs" data-testid="home-equipment-oils">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('homeDashboard.equipment.columns.name')}</Table.Th>
            <Table.Th>{t('homeDashboard.equipment.columns.temperature')}</Table.Th>
            <Table.Th>{t('homeDashboard.equipment.columns.lastChange')}</Table.Th>
            <Table.Th>{t('homeDashboard.equipment.columns.polarity')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((oil) => {
            const hasData =
              oil.temperature !== null || oil.polarity !== null || oil.last_change_at !== null;
            return (
              <Table.Tr key={oil.id} data-testid="home-oil-row" data-element-id={oil.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {oil.name}
                  </Text>
                </Table.Td>
                {hasData ? (
                  <>
                    <Table.Td data-testid="home-oil-temperature">
                      {oil.temperature === null ? '—' : `${formatNumber(oil.temperature)} °C`}
                    </Table.Td>
                    <Table.Td data-testid="home-oil-last-change">
                      {oil.last_change_at === null
                        ? '—'
                        : formatStoreDate(oil.last_change_at, timeZone)}
                    </Table.Td>
                    <Table.Td data-testid="home-oil-polarity">
                      {oil.polarity === null ? '—' : `${formatNumber(oil.polarity)} %`}
                    </Table.Td>
                  </>
                ) : (
                  <Table.Td colSpan={3}>
                    <Badge variant="light" color="gray" data-testid="home-oil-no-data">
                      {t('homeDashboard.equipment.noData')}
                    </Badge>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Equipment temperatures (spec 000 §2): today's state of each fridge and delivery element
 * (in range, mixed, out of range, no data) and each oil's last temperature, last change and
 * polarity. A tab whose module is hidden on the store is not shown.
 */
export function EquipmentPanel({ equipment, hiddenModules, timeZone }: EquipmentPanelProps) {
  const { t } = useTranslation();
  const tabs = visibleEquipmentTabs(hiddenModules);
  const [selectedTab, setSelectedTab] = useState<EquipmentTab | null>(null);
  const tab = selectedTab && tabs.includes(selectedTab) ? selectedTab : tabs[0];
  if (!tab) return null;
  // Today's anomalies of the visible fridges and delivery tabs: manual or probe readings.
  const anomalyCount = tabs
    .flatMap((key) => (key === 'oils' ? [] : equipment[key]))
    .filter((item) => item.has_anomaly).length;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-equipment">
      <Group gap="xs" wrap="wrap" mb="sm">
        <IconTemperature size={20} stroke={1.6} />
        <Title order={2} size="h4">
          {t('homeDashboard.equipment.title')}
        </Title>
        {anomalyCount > 0 ? (
          <Badge color="red" variant="light" data-testid="home-equipment-anomalies">
            {t('homeDashboard.equipment.anomalies', { count: anomalyCount })}
          </Badge>
        ) : null}
      </Group>
      <Tabs
        value={tab}
        onChange={(value) => value && setSelectedTab(value as EquipmentTab)}
        keepMounted={false}
      >
        <Tabs.List>
          {tabs.map((key) => (
            <Tabs.Tab key={key} value={key} data-testid={`home-equipment-tab-${key}`}>
              {t(`homeDashboard.equipment.tabs.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((key) => (
          <Tabs.Panel key={key} value={key} pt="sm">
            {equipment[key].length === 0 ? (
              <EmptyState
                title={t(`homeDashboard.equipment.empty.${key}`)}
                testId="home-equipment-empty"
              />
            ) : key === 'oils' ? (
              <OilsTable items={equipment.oils} timeZone={timeZone} />
            ) : (
              <ReadingsTable
                items={equipment[key]}
                timeZone={timeZone}
                testId={`home-equipment-${key}`}
              />
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}
