import { useSearchParams } from 'react-router';
import { useTaskConfiguration } from '../api/get-task-configuration';
import { TaskConfigurationEditor } from '../components/task-configuration-editor';
import { TaskConfigurationPageState } from '../components/task-configuration-page-state';

/** /taskConf?id=<configurationId> (edit) and /taskConf?database=<databaseId> (create). */
export function DatabaseTaskConfigurationPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const databaseId = id ? null : searchParams.get('database');
  const configuration = useTaskConfiguration('database', id);

  if (id) {
    if (configuration.isPending) return <TaskConfigurationPageState isPending />;
    if (configuration.isError) return <TaskConfigurationPageState error={configuration.error} />;
    return (
      <TaskConfigurationEditor
        key={`database:${id}`}
        level="database"
        mode="edit"
        configuration={configuration.data}
        ownerId={configuration.data.database_id ?? ''}
        isEditable={configuration.data.editable}
      />
    );
  }
  if (databaseId) {
    return (
      <TaskConfigurationEditor
        key={`database-new:${databaseId}`}
        level="database"
        mode="create"
        configuration={null}
        ownerId={databaseId}
        isEditable
      />
    );
  }
  return <TaskConfigurationPageState isMissing />;
}
