import { IconSchool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import {
  ContentHomeItem,
  ContentHomeList,
  ContentHomePanel,
} from '../../../shared/content/home-panel';
import { QueryContent } from '../../../shared/ui/query-content';
import { type HomeTraining, useHomeTrainings } from '../api/get-home-trainings';
import { trainingStatsPath } from './training-paths';

const itemTestIds = {
  item: 'home-training',
  name: 'home-training-name',
  detail: 'home-training-type',
  share: 'home-training-trained',
};

function TrainingItem({ item }: { item: HomeTraining }) {
  const { t } = useTranslation();
  const type = t(`trainings.types.${item.type}`);
  const trained = t('trainings.home.trained', { value: item.percentage });
  return (
    <ContentHomeItem
      to={trainingStatsPath(item.id)}
      id={item.id}
      name={item.name}
      detail={type}
      percentage={item.percentage}
      shareText={trained}
      label={t('trainings.home.open', { name: item.name, type, trained })}
      testIds={itemTestIds}
    />
  );
}

type TrainingsHomePanelProps = {
  /** The database chosen in the home's selector (no store chosen). */
  databaseId?: string | null;
  /** The store chosen: the trainings reaching it, completed by its employees. */
  storeId?: string | null;
};

/**
 * The trainings' half of the home's communication and training panel (spec 000 §2): the active
 * trainings reaching the chosen database or store (global, its distributor's, its database's,
 * the store's), each with its type and the share of the employees aimed at who completed it; a
 * card opens its statistics. Hidden when the API refuses.
 */
export function TrainingsHomePanel({ databaseId = null, storeId = null }: TrainingsHomePanelProps) {
  const { t } = useTranslation();
  const home = useHomeTrainings({ databaseId, storeId });
  const isRefused = [home.store.error, home.trainings.error].some(
    (error) => isApiError(error) && error.status === 403,
  );
  const hasNoDatabase = storeId !== null && home.store.isSuccess && !home.databaseId;
  if ((!storeId && !databaseId) || hasNoDatabase || isRefused) return null;

  // With a store, its database is read first.
  const query = storeId && !home.store.isSuccess ? home.store : home.trainings;
  return (
    <ContentHomePanel
      icon={<IconSchool size={18} stroke={1.6} />}
      title={t('trainings.home.title')}
      testId="home-trainings"
    >
      <QueryContent<unknown>
        query={query}
        isEmpty={() => !home.trainings.data?.items.length}
        emptyTitle={t('trainings.home.empty')}
      >
        {() => (
          <ContentHomeList>
            {home.trainings.data?.items.map((item) => (
              <TrainingItem key={item.id} item={item} />
            ))}
          </ContentHomeList>
        )}
      </QueryContent>
    </ContentHomePanel>
  );
}
