import { Center, Loader, SimpleGrid } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { SelectionPopup } from '../../../shared/selection/selection-popup';
import { useSelection } from '../../../shared/selection/use-selection';
import { PageHeader } from '../../../shared/ui/page-header';
import { BestStoresPanel } from '../components/best-stores-panel';
import { SelectionCard } from '../components/selection-card';

/** The panels of a chosen store or database, loaded when shown (components/home-panels.tsx). */
const homePanels = () => import('../components/home-panels');
const StorePanels = lazy(async () => ({ default: (await homePanels()).StorePanels }));
const DatabasePanels = lazy(async () => ({ default: (await homePanels()).DatabasePanels }));
const DistributorAlerts = lazy(async () => ({ default: (await homePanels()).DistributorAlerts }));

/** A loader while the panels' chunk arrives, after what is already on screen (`before`). */
function PanelsLoader({ before, children }: { before?: ReactNode; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {before}
          <Center py="xl" data-testid="home-panels-loader">
            <Loader size="sm" />
          </Center>
        </SimpleGrid>
      }
    >
      {children}
    </Suspense>
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
        <PanelsLoader>
          <DistributorAlerts />
        </PanelsLoader>
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
        <PanelsLoader before={selectionCard}>
          <StorePanels
            key={storeId}
            storeId={storeId}
            selectionCard={selectionCard}
            onLinkedStoreLoaded={linkedStoreId ? handleLinkedStoreLoaded : undefined}
          />
        </PanelsLoader>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {selectionCard}
          <BestStoresPanel databaseId={databaseId} onSelectStore={selectStore} />
          {databaseId ? (
            <PanelsLoader>
              <DatabasePanels databaseId={databaseId} />
            </PanelsLoader>
          ) : null}
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
