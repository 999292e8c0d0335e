import { SimpleGrid, Stack } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { SelectionPopup } from '../../../shared/selection/selection-popup';
import { useSelection } from '../../../shared/selection/use-selection';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { AlertsPanel } from '../../alerts/panels';
import { AuditsHomePanel } from '../../audit-results/panels';
import { CommunicationsHomePanel } from '../../communications/panels';
import { EmployeeSchedulePanel } from '../../punch-cards/panels';
import { TrainingsHomePanel } from '../../trainings/panels';
import { useStoreHome } from '../api/get-store-home';
import { useStoreEvents } from '../api/use-store-events';
import { BestStoresPanel } from '../components/best-stores-panel';
import { EquipmentPanel, visibleEquipmentTabs } from '../components/equipment-panel';
import { ScorePanel } from '../components/score-panel';
import { SelectionCard } from '../components/selection-card';
import { TasksPanel } from '../components/tasks-panel';

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
function StorePanels({ storeId, selectionCard, onLinkedStoreLoaded }: StorePanelsProps) {
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

/**
 * Home (spec 000 §2). A distributor sees a welcome message and the open alerts of the stores
 * they see (the last rung of the escalation). Admins, managers and customers choose a store
 * or a database in the selection popup: with a store, its score, alerts, tasks and equipment
 * panels; with none (or a database), the best stores, and with a database its audits panel.
 * `?storeId=` (a notification's link) opens that store and makes it the selection once it
 * loads.
 */
export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const welcome = t('home.welcome', { name: user.name });
  const { selection, storeId: selectedStoreId, databaseId, selectStore } = useSelection();
  const [isSelectionOpen, setIsSelectionOpen] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedStoreId = searchParams.get('storeId');
  const storeId = linkedStoreId ?? selectedStoreId;
  const handleLinkedStoreLoaded = useCallback(
    (store: { id: string; name: string }) => {
      selectStore(store);
      setSearchParams({}, { replace: true });
    },
    [selectStore, setSearchParams],
  );

  if (user.role === 'distributor') {
    return (
      <>
        <PageHeader title={welcome} subtitle={t('home.distributorMessage')} />
        <AlertsPanel storeId={null} />
      </>
    );
  }

  const selectionCard = (
    <SelectionCard selection={selection} onSelect={() => setIsSelectionOpen(true)} />
  );

  return (
    <>
      <PageHeader title={welcome} />
      {storeId ? (
        <StorePanels
          key={storeId}
          storeId={storeId}
          selectionCard={selectionCard}
          onLinkedStoreLoaded={linkedStoreId ? handleLinkedStoreLoaded : undefined}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {selectionCard}
          <BestStoresPanel databaseId={databaseId} onSelectStore={selectStore} />
          {databaseId ? <AuditsHomePanel databaseId={databaseId} /> : null}
          {/* Communication and training panel (spec 000 §2): communications, then trainings. */}
          {databaseId ? <CommunicationsHomePanel databaseId={databaseId} /> : null}
          {databaseId ? <TrainingsHomePanel databaseId={databaseId} /> : null}
        </SimpleGrid>
      )}
      <SelectionPopup
        opened={isSelectionOpen}
        onClose={() => setIsSelectionOpen(false)}
        viewerRole={user.role}
      />
    </>
  );
}
