import { Navigate, useSearchParams } from 'react-router';
import { useOriginTaskConfiguration, useTaskConfiguration } from '../api/get-task-configuration';
import { useTaskConfigurationStore } from '../api/get-task-owner';
import { TaskConfigurationEditor } from '../components/task-configuration-editor';
import { TaskConfigurationPageState } from '../components/task-configuration-page-state';

/**
 * /storeTaskConf?id=<storeConfigurationId> (edit), /storeTaskConf?store=<storeId>&origin=<id>
 * (a database configuration seen from the store, saved as the store's own on first save; when
 * the store already overrides it, redirects to ?id=<override>) and /storeTaskConf?store=<storeId>
 * (create).
 */
export function StoreTaskConfigurationPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const storeId = id ? null : searchParams.get('store');
  const originId = storeId ? searchParams.get('origin') : null;
  const configuration = useTaskConfiguration('store', id);
  const origin = useOriginTaskConfiguration(originId ? storeId : null, originId);
  const store = useTaskConfigurationStore(storeId && !originId ? storeId : null);

  if (id) {
    if (configuration.isPending) return <TaskConfigurationPageState isPending />;
    if (configuration.isError) return <TaskConfigurationPageState error={configuration.error} />;
    return (
      <TaskConfigurationEditor
        key={`store:${id}`}
        level="store"
        mode="edit"
        configuration={configuration.data}
        ownerId={configuration.data.store_id ?? ''}
        isEditable={configuration.data.editable}
      />
    );
  }
  if (storeId && originId) {
    if (origin.isPending) return <TaskConfigurationPageState isPending />;
    if (origin.isError) return <TaskConfigurationPageState error={origin.error} />;
    // Already overridden: edit the store's own version (its id), not a second override.
    if (origin.data.id) {
      return <Navigate to={`/storeTaskConf?id=${encodeURIComponent(origin.data.id)}`} replace />;
    }
    return (
      <TaskConfigurationEditor
        key={`store-origin:${storeId}:${originId}`}
        level="store"
        mode="origin"
        configuration={origin.data}
        ownerId={storeId}
        isEditable={origin.data.editable}
      />
    );
  }
  if (storeId) {
    if (store.isPending) return <TaskConfigurationPageState isPending />;
    if (store.isError) return <TaskConfigurationPageState error={store.error} />;
    return (
      <TaskConfigurationEditor
        key={`store-new:${storeId}`}
        level="store"
        mode="create"
        configuration={null}
        ownerId={storeId}
        isEditable={!store.data.isReadOnly}
      />
    );
  }
  return <TaskConfigurationPageState isMissing />;
}
