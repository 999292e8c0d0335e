import type { ElementLockKey } from '@mise/shared/catalogue/constants';
import type { Attachment, Element, ElementValues } from '@mise/shared/catalogue/schemas';
import { createContext, useContext } from 'react';
import type { ResumableUpload } from '../../../shared/upload/use-resumable-upload';
import type { ElementLevel } from '../api/element-query-keys';
import type { ElementDraft } from './element-form';

export type ElementFormApi = {
  level: ElementLevel;
  /** The database (database level) or the store (store level) the element belongs to. */
  ownerId: string;
  /** Store level: the probe binding as last saved (the missing-probe warning is about it). */
  savedProbeId: string | null;
  draft: ElementDraft;
  /** The whole form is read-only (the element is not editable by this user). */
  isReadOnly: boolean;
  /** Read-only because of the form or, at store level, a database lock. */
  isFieldReadOnly: (key: ElementLockKey) => boolean;
  setValue: <Key extends keyof ElementValues>(key: Key, value: ElementValues[Key]) => void;
  toggleLock: (key: ElementLockKey) => void;
  /** Store level: follow the database again (sends null). */
  resetField: (key: ElementLockKey) => void;
  update: (change: (draft: ElementDraft) => ElementDraft) => void;
  /** The saved element's id (uploads need it); null before the first save. */
  elementId: string | null;
  /** The element's version the screen holds (uploads send it; a stale one answers 409). */
  version: number;
  /** Runs an upload: Save waits (disabled) until every upload has answered. */
  runUpload: <T>(task: () => Promise<T>) => Promise<T>;
  /**
   * An upload answered the element: its images, attachments, their states and version are
   * taken, and it becomes the cached detail (reopening the screen reads that version).
   */
  acceptServerElement: (element: Element) => void;
  /** An attachment upload answered the attachment only: it is saved already. */
  acceptUploadedAttachment: (attachment: Attachment) => void;
  /**
   * The encyclopedia's resumable attachment upload: it lives with the editor, so it goes on
   * (with its progress) while another tab is shown.
   */
  attachmentUpload: ResumableUpload;
};

const ElementFormContext = createContext<ElementFormApi | null>(null);
export const ElementFormProvider = ElementFormContext.Provider;

export function useElementForm(): ElementFormApi {
  const form = useContext(ElementFormContext);
  if (!form) throw new Error('useElementForm outside the element editor');
  return form;
}
