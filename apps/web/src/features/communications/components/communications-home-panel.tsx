import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import {
  ContentHomeItem,
  ContentHomeList,
  ContentHomePanel,
} from '../../../shared/content/home-panel';
import { QueryContent } from '../../../shared/ui/query-content';
import { type HomeCommunication, useHomeCommunications } from '../api/get-home-communications';
import { useStoreDatabase } from '../api/get-store-database';
import { communicationStatsPath } from './communication-paths';

/** A chosen day (YYYY-MM-DD) as dd/mm/yyyy: the communication's own days, whatever the browser's zone. */
function formatDay(day: string): string {
  return day.split('-').reverse().join('/');
}

const itemTestIds = {
  item: 'home-communication',
  name: 'home-communication-name',
  detail: 'home-communication-dates',
  share: 'home-communication-seen',
};

function CommunicationItem({ item }: { item: HomeCommunication }) {
  const { t } = useTranslation();
  const seen = t('communications.home.seen', { value: item.percentage });
  return (
    <ContentHomeItem
      to={communicationStatsPath(item.id)}
      id={item.id}
      name={item.name}
      detail={t('communications.period', {
        start: formatDay(item.start_day),
        end: formatDay(item.end_day),
      })}
      percentage={item.percentage}
      shareText={seen}
      label={t('communications.home.open', { name: item.name, seen })}
      testIds={itemTestIds}
    />
  );
}

type CommunicationsHomePanelProps = {
  /** The database chosen in the home's selector (no store chosen). */
  databaseId?: string | null;
  /** The store chosen: its database's communications, seen by its employees. */
  storeId?: string | null;
};

/**
 * The home's communications (spec 000 §2 "communication and training panel"): the running,
 * active communications of the chosen database or store, each with its dates and the share of
 * the employees aimed at who saw it; a card opens its statistics. Hidden when the API refuses
 * (403). The trainings' cards are the panel's other half (features/trainings/panels.ts).
 */
export function CommunicationsHomePanel({
  databaseId = null,
  storeId = null,
}: CommunicationsHomePanelProps) {
  const { t } = useTranslation();
  const store = useStoreDatabase(storeId);
  const effectiveDatabaseId = storeId ? (store.data?.databaseId ?? null) : databaseId;
  const communications = useHomeCommunications(effectiveDatabaseId, storeId);
  // The dates are 00:00 and 23:59:59 on the database's clock: a store's zone reads them right.

  if (!storeId && !databaseId) return null;
  if (storeId && store.isSuccess && !store.data.databaseId) return null;
  if (isApiError(communications.error) && communications.error.status === 403) return null;
  if (isApiError(store.error) && store.error.status === 403) return null;

  return (
    <ContentHomePanel
      icon={<IconSpeakerphone size={18} stroke={1.6} />}
      title={t('communications.home.title')}
      testId="home-communications"
    >
      {storeId && !store.isSuccess ? (
        // The store's database is read first.
        <QueryContent query={store} isEmpty={() => false} emptyTitle="">
          {() => null}
        </QueryContent>
      ) : (
        <QueryContent
          query={communications}
          isEmpty={(data) => data.items.length === 0}
          emptyTitle={t('communications.home.empty')}
        >
          {(data) => (
            <ContentHomeList>
              {data.items.map((item) => (
                <CommunicationItem key={item.id} item={item} />
              ))}
            </ContentHomeList>
          )}
        </QueryContent>
      )}
    </ContentHomePanel>
  );
}
