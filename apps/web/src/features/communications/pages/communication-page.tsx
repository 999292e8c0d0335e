import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import { useCommunication } from '../api/get-communication';
import { CommunicationEditor } from '../components/communication-editor';

function NoEditPermission() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('areas.communication')} />
      <EmptyState
        title={t('errors.permission/denied')}
        icon={<IconLock size={28} />}
        testId="communication-no-permission"
      />
    </>
  );
}

/**
 * /communication?id=<communicationId> (edit) and /communication?database=<databaseId> (a new
 * communication, created on its first save). Customers only read the statistics (spec 002 §6):
 * they never reach the editor.
 */
export function CommunicationPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const databaseId = id ? null : searchParams.get('database');
  const communication = useCommunication(user.role === 'customer' ? null : id);

  if (user.role === 'customer') return <NoEditPermission />;
  if (id) {
    if (!communication.isSuccess) {
      return (
        <PageQueryState
          title={t('areas.communication')}
          query={communication}
          noneTitle={t('communications.noneSelected')}
        />
      );
    }
    if (!communication.data.can_edit) return <NoEditPermission />;
    return (
      <CommunicationEditor
        key={id}
        communication={communication.data.communication}
        databaseId={communication.data.communication.database_id}
      />
    );
  }
  if (databaseId) {
    return (
      <CommunicationEditor key={`new:${databaseId}`} communication={null} databaseId={databaseId} />
    );
  }
  return (
    <PageQueryState
      title={t('areas.communication')}
      query={null}
      noneTitle={t('communications.noneSelected')}
    />
  );
}
