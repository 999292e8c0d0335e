/**
 * What the elements feature offers the rest of the web app (the element lists reuse these
 * keys and hooks). The element screens themselves are reached through their routes.
 */
export {
  type ElementLevel,
  elementListsQueryKey,
  elementQueryKey,
  elementsQueryKey,
  elementTypesQueryKey,
  originElementQueryKey,
} from './api/element-query-keys';
export { elementQueryOptions, useElement, useOriginElement } from './api/get-element';
export { elementTypesQueryOptions, useElementTypes } from './api/get-element-types';
export { useSaveElementType } from './api/save-element-type';
