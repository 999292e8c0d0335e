import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../api/api-error';
import { errorMessage } from '../i18n/error-message';
import { openConfirmDialog } from '../ui/confirm-dialog';
import { notifyError, notifySuccess } from '../ui/notify';
import { useUnsavedChangesPrompt } from '../ui/use-unsaved-changes-prompt';

/** A save's problem shown in the editor: an error code, and what it is about. */
export type DraftIssue = { code: string };

type DraftEditorOptions<Item, Draft, Issue extends DraftIssue> = {
  /** The record as read; null for a new one (created on its first save). */
  record: Item | null;
  draftOf: (record: Item | null) => Draft;
  /** The server's checks, run first: the first problem, or null. */
  validate: (draft: Draft) => Issue | null;
  /** Refusals of the server shown as an issue (the others are toasts). */
  issueCodes: readonly string[];
  /** Creates (no record yet) or saves the draft; answers the saved record. */
  save: (draft: Draft, saved: Item | null) => Promise<Item>;
  /** Reads the record again (after someone else saved it: 409). */
  reload: (saved: Item) => Promise<Item>;
  /** Where a created record is edited from then on. */
  pathOf: (created: Item) => string;
  /** The reload button of the conflict dialog. */
  reloadLabel: string;
  /** Shows what an issue is about (selects the question at fault...). */
  onIssue?: (issue: Issue) => void;
  /** The draft became a saved or reloaded record's. */
  onReset?: (draft: Draft) => void;
};

/**
 * The editing of a communication or a training (spec 002 §4, §5): a copy of the record that
 * Save sends. The server's checks run first; a created record's editor moves to its address;
 * someone else's save (409) offers to reload; leaving with changes asks first.
 */
export function useDraftEditor<Item, Draft, Issue extends DraftIssue>(
  options: DraftEditorOptions<Item, Draft, Issue>,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saved, setSaved] = useState<Item | null>(options.record);
  const [baseline, setBaseline] = useState<Draft>(() => options.draftOf(options.record));
  const [draft, setDraftState] = useState<Draft>(baseline);
  const [issue, setIssue] = useState<Issue | null>(null);

  // Reference equality: any edit makes a new draft; a save makes the answer the baseline.
  const prompt = useUnsavedChangesPrompt(draft !== baseline);

  const draftRef = useRef(draft);
  draftRef.current = draft;

  function setDraft(change: (current: Draft) => Draft) {
    const next = change(draftRef.current);
    draftRef.current = next;
    setDraftState(next);
  }

  function reset(next: Item) {
    const nextDraft = options.draftOf(next);
    setSaved(next);
    setBaseline(nextDraft);
    draftRef.current = nextDraft;
    setDraftState(nextDraft);
    options.onReset?.(nextDraft);
  }

  function showIssue(found: Issue) {
    setIssue(found);
    options.onIssue?.(found);
  }

  async function reload() {
    if (!saved) return;
    try {
      reset(await options.reload(saved));
    } catch (error) {
      notifyError(errorMessage(t, error));
    }
  }

  async function handleSave() {
    const current = draftRef.current;
    const found = options.validate(current);
    if (found) {
      showIssue(found);
      return;
    }
    setIssue(null);
    try {
      const response = await options.save(current, saved);
      notifySuccess(t('errors.saved-successfully'));
      if (!saved) {
        prompt.suppress();
        void navigate(options.pathOf(response), { replace: true });
        return;
      }
      reset(response);
    } catch (caught) {
      if (isApiError(caught, 'conflict/stale-version')) {
        openConfirmDialog({
          title: t('errors.save-error'),
          message: t('errors.conflict/stale-version'),
          confirmLabel: options.reloadLabel,
          onConfirm: () => void reload(),
        });
        return;
      }
      if (isApiError(caught) && options.issueCodes.includes(caught.code)) {
        showIssue({ code: caught.code } as Issue);
        return;
      }
      notifyError(errorMessage(t, caught), { title: t('errors.save-error') });
    }
  }

  return {
    /** The record as last saved or read; null until a new one is created. */
    saved,
    draft,
    /** The latest draft, for handlers that run before the next render. */
    draftRef,
    setDraft,
    issue,
    setIssue,
    handleSave,
  };
}

type IssueAlertProps = { title: string; issue: DraftIssue; onClose: () => void; testId: string };

/** A refused save's text above the editor's form. */
export function IssueAlert({ title, issue, onClose, testId }: IssueAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title={title}
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={onClose}
      role="alert"
      data-testid={testId}
    >
      <Text size="sm">{t(`errors.${issue.code}`)}</Text>
    </Alert>
  );
}
