import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { StoreDayTasks } from './store-day-tasks';
import { TaskConfigurationList } from './task-configuration-list';

export type StoreTasksTabProps = {
  storeId: string;
  /** A manager on a store that is not manager-owned: New and expert mode are refused. */
  isReadOnly: boolean;
  /** The store's time zone name (task times on the store's clock). */
  timeZone?: string;
};

/** The store list's sub-tab travels in the URL, beside the screen's own `tab`. */
export const taskTabParam = 'taskTab';
const subTabs = ['configurations', 'day'] as const;
type SubTab = (typeof subTabs)[number];

/** The store screen's Tasks tab: the configurations and the store's day. */
export function StoreTasksTab({ storeId, isReadOnly, timeZone }: StoreTasksTabProps) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(taskTabParam);
  const tab: SubTab = subTabs.includes(requested as SubTab) ? (requested as SubTab) : subTabs[0];

  function handleTab(value: string | null) {
    const next = new URLSearchParams(searchParams);
    next.set(taskTabParam, value ?? subTabs[0]);
    setSearchParams(next, { replace: true });
  }

  return (
    <Tabs value={tab} onChange={handleTab} variant="pills" keepMounted={false}>
      <Tabs.List mb="md">
        {subTabs.map((key) => (
          <Tabs.Tab key={key} value={key} data-testid={`store-tasks-tab-${key}`}>
            {t(`storeTasks.tabs.${key}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="configurations">
        <TaskConfigurationList level="store" storeId={storeId} isReadOnly={isReadOnly} />
      </Tabs.Panel>
      <Tabs.Panel value="day">
        <StoreDayTasks storeId={storeId} timeZone={timeZone} />
      </Tabs.Panel>
    </Tabs>
  );
}
