export type ElementLevel = 'database' | 'store';

/** Every query of the elements feature lives under this key. */
export const elementsQueryKey = ['elements'] as const;
/** Element lists (database and store): invalidated after every element write. */
export const elementListsQueryKey = [...elementsQueryKey, 'list'] as const;

export const elementQueryKey = (level: ElementLevel, id: string) =>
  [...elementsQueryKey, 'detail', level, id] as const;
export const originElementQueryKey = (storeId: string, originId: string) =>
  [...elementsQueryKey, 'origin', storeId, originId] as const;
export const elementTypesQueryKey = (level: ElementLevel, ownerId: string) =>
  [...elementsQueryKey, 'types', level, ownerId] as const;
export const stockImagesQueryKey = (query: string) =>
  [...elementsQueryKey, 'stockImages', query] as const;

/** REST path of one element (`/databaseElements/:id` or `/storeElements/:id`). */
export function elementPath(level: ElementLevel, id: string): string {
  return `/${level === 'database' ? 'databaseElements' : 'storeElements'}/${encodeURIComponent(id)}`;
}

/** REST path of an element's owner (`/databases/:id` or `/stores/:id`). */
export function ownerPath(level: ElementLevel, ownerId: string): string {
  return `/${level === 'database' ? 'databases' : 'stores'}/${encodeURIComponent(ownerId)}`;
}
