import { trainingTypeFor } from '@mise/shared/trainings/rules';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import { useTraining } from '../api/get-training';
import { TrainingEditor } from '../components/training-editor';

function Message({ title, testId }: { title: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('areas.training')} />
      <EmptyState title={title} icon={<IconLock size={28} />} testId={testId} />
    </>
  );
}

/**
 * /training?id=<trainingId> (edit) and /training?new=1[&database=|&store=] (a new training of
 * the list's source, created on its first save; spec 002 §4: its type and source come from the
 * role and the selection). Only the trainings the caller may edit open (spec 002 §6).
 */
export function TrainingPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const training = useTraining(id);

  if (id) {
    if (!training.isSuccess) {
      return (
        <PageQueryState
          title={t('areas.training')}
          query={training}
          noneTitle={t('trainings.noneSelected')}
        />
      );
    }
    const read = training.data.training;
    if (!read.can_edit) {
      return <Message title={t('errors.permission/denied')} testId="training-no-permission" />;
    }
    return (
      <TrainingEditor
        key={id}
        training={read}
        owner={{ type: read.type, source: read.source }}
        source={{ databaseId: null, storeId: null }}
      />
    );
  }
  if (searchParams.get('new')) {
    const source = { databaseId: searchParams.get('database'), storeId: searchParams.get('store') };
    const owner = trainingTypeFor(user.role, { ...source, distributorId: user.distributor });
    if (!owner) {
      return <Message title={t('errors.training/select-source')} testId="training-no-source" />;
    }
    return (
      <TrainingEditor
        key={`new:${source.databaseId}:${source.storeId}`}
        training={null}
        owner={owner}
        source={source}
      />
    );
  }
  return (
    <PageQueryState
      title={t('areas.training')}
      query={null}
      noneTitle={t('trainings.noneSelected')}
    />
  );
}
