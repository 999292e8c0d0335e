import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useElement, useOriginElement } from '../api/get-element';
import { useElementOwner } from '../api/get-element-owner';
import { ElementEditor } from '../components/element-editor';
import { ElementPageState } from '../components/element-page-state';

/**
 * /storeElement?id=<storeElementId> (edit), /storeElement?store=<storeId>&origin=<id> (a
 * database element seen from the store, saved as the store's own on first save) and
 * /newElement?store=<storeId> (create).
 */
export function StoreElementPage() {
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const isCreation = pathname === '/newElement';
  const id = isCreation ? null : searchParams.get('id');
  const storeId = searchParams.get('store');
  const originId = isCreation || id ? null : searchParams.get('origin');
  const element = useElement('store', id);
  const origin = useOriginElement(originId ? storeId : null, originId);
  const store = useElementOwner('store', isCreation ? storeId : null);

  if (id) {
    if (element.isError) return <ElementPageState error={element.error} />;
    // The editor starts from the element read now, never from an older cached version.
    if (element.isPending || !element.isFetchedAfterMount) return <ElementPageState isPending />;
    return (
      <ElementEditor
        key={`store:${id}`}
        level="store"
        mode="edit"
        element={element.data}
        ownerId={element.data.store_id ?? ''}
        hiddenModules={element.data.hidden_modules}
        isEditable={element.data.editable}
      />
    );
  }
  if (storeId && originId) {
    if (origin.isError) return <ElementPageState error={origin.error} />;
    if (origin.isPending || !origin.isFetchedAfterMount) return <ElementPageState isPending />;
    // Already overridden by the store: its own element is the one to edit.
    if (origin.data.id) {
      return <Navigate to={`/storeElement?id=${encodeURIComponent(origin.data.id)}`} replace />;
    }
    return (
      <ElementEditor
        key={`store-origin:${storeId}:${originId}`}
        level="store"
        mode="origin"
        element={origin.data}
        ownerId={storeId}
        hiddenModules={origin.data.hidden_modules}
        isEditable={origin.data.editable}
      />
    );
  }
  if (isCreation && storeId) {
    if (store.isPending) return <ElementPageState isPending />;
    if (store.isError) return <ElementPageState error={store.error} />;
    return (
      <ElementEditor
        key={`store-new:${storeId}`}
        level="store"
        mode="create"
        element={null}
        ownerId={storeId}
        hiddenModules={store.data.hidden_modules}
        isEditable={!store.data.isReadOnly}
      />
    );
  }
  return <ElementPageState isMissing />;
}
