import { SimpleGrid, Stack } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../../shared/ui/query-content';
import { AlertsPanel } from '../../alerts/panels';
import { AuditsHomePanel } from '../../audit-results/panels';
import { CommunicationsHomePanel } from '../../communications/panels';
import { EmployeeSchedulePanel } from '../../punch-cards/panels';
import { TrainingsHomePanel } from '../../trainings/panels';
import { useStoreHome } from '../api/get-store-home';
import { useStoreEvents } from '../api/use-store-events';
import { EquipmentPanel, visibleEquipmentTabs } from './equipment-panel';
import { ScorePanel } from './score-panel';
import { TasksPanel } from './tasks-panel';

/*
 * The home's panels of a chosen store or database, and the distributor's alerts (spec 000 §2),
 * apart from the home page so that its first screen (the selection and the best stores, where
 * admins land) does not download them: home-page.tsx loads this module when one is shown.
 */

type StorePanelsProps = {
  storeId: string;
  selectionCard: ReactNode;
  /** Set when the store came from a link (`/home?storeId=`, a push notification's). */
  onLinkedStoreLoaded?: (store: { id: string; name: string }) => void;
};

/**
 * The chosen store's panels: score, open alerts, then today's tasks and equipment
 * temperatures (the server sends those two as null for managers, who do not see them). A
 * tablet's "task" event and the alert engine's "alert" events read the store's home again.
 */
export function StorePanels({ storeId, selectionCard, onLinkedStoreLoaded }: StorePanelsProps) {
  const { t } = useTranslation();
  const home = useStoreHome(storeId);
  useStoreEvents(storeId);
  const data = home.data;
  const linkedStore = data && onLinkedStoreLoaded ? data.store : null;
  useEffect(() => {
    if (linkedStore) onLinkedStoreLoaded?.({ id: linkedStore.id, name: linkedStore.name });
  }, [linkedStore, onLinkedStoreLoaded]);
  const hasEquipment =
    data?.equipment !== null &&
    data?.equipment !== undefined &&
    visibleEquipmentTabs(data.hidden_modules).length > 0;

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {selectionCard}
        <QueryContent query={home} isEmpty={() => false} emptyTitle={t('common.nothingFound')}>
          {(storeHome) => <ScorePanel storeId={storeId} score={storeHome.score} />}
        </QueryContent>
      </SimpleGrid>
      <AlertsPanel storeId={storeId} timeZone={data?.store.timezone_name} />
      {data && (data.tasks || hasEquipment) ? (
        <SimpleGrid cols={{ base: 1, lg: data.tasks && hasEquipment ? 2 : 1 }} spacing="md">
          {data.tasks ? (
            <TasksPanel storeId={storeId} timeZone={data.store.timezone_name} tasks={data.tasks} />
          ) : null}
          {data.equipment && hasEquipment ? (
            <EquipmentPanel
              equipment={data.equipment}
              hiddenModules={data.hidden_modules}
              timeZone={data.store.timezone_name}
            />
          ) : null}
        </SimpleGrid>
      ) : null}
      {/* Communication and training panel (spec 000 §2): its two halves side by side. */}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <CommunicationsHomePanel storeId={storeId} />
        <TrainingsHomePanel storeId={storeId} />
      </SimpleGrid>
      <EmployeeSchedulePanel storeId={storeId} timeZone={data?.store.timezone_name} />
    </Stack>
  );
}

/** A chosen database's panels beside the best stores: audits, communications, trainings. */
export function DatabasePanels({ databaseId }: { databaseId: string }) {
  return (
    <>
      <AuditsHomePanel databaseId={databaseId} />
      {/* Communication and training panel (spec 000 §2): communications, then trainings. */}
      <CommunicationsHomePanel databaseId={databaseId} />
      <TrainingsHomePanel databaseId={databaseId} />
    </>
  );
}

/** The distributor's home: the open alerts of the stores they see (the escalation's last rung). */
export function DistributorAlerts() {
  return <AlertsPanel storeId={null} />;
}
