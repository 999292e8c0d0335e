import { useSearchParams } from 'react-router';
import { useElement } from '../api/get-element';
import { useElementOwner } from '../api/get-element-owner';
import { ElementEditor } from '../components/element-editor';
import { ElementPageState } from '../components/element-page-state';

/** /databaseElement?id=<elementId> (edit) and /databaseElement?database=<databaseId> (create). */
export function DatabaseElementPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const databaseId = id ? null : searchParams.get('database');
  const element = useElement('database', id);
  const database = useElementOwner('database', databaseId);

  if (id) {
    if (element.isError) return <ElementPageState error={element.error} />;
    // The editor starts from the element read now, never from an older cached version.
    if (element.isPending || !element.isFetchedAfterMount) return <ElementPageState isPending />;
    return (
      <ElementEditor
        key={`database:${id}`}
        level="database"
        mode="edit"
        element={element.data}
        ownerId={element.data.database_id ?? ''}
        hiddenModules={element.data.hidden_modules}
        isEditable={element.data.editable}
      />
    );
  }
  if (databaseId) {
    if (database.isPending) return <ElementPageState isPending />;
    if (database.isError) return <ElementPageState error={database.error} />;
    return (
      <ElementEditor
        key={`database-new:${databaseId}`}
        level="database"
        mode="create"
        element={null}
        ownerId={databaseId}
        hiddenModules={database.data.hidden_modules}
        isEditable={!database.data.isReadOnly}
      />
    );
  }
  return <ElementPageState isMissing />;
}
