import { Alert, Button, Card, Grid, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  type AuditIssue,
  changeQuestionType,
  dropConditionsOn,
  expandedSectionsOnOpen,
  newQuestion,
  removalArchives,
  removeItem,
  validateAudit,
} from '@mise/shared/audits/rules';
import { type Audit, type AuditSection, auditLimits } from '@mise/shared/audits/schemas';
import { IconAlertTriangle, IconArrowLeft, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { auditQueryOptions } from '../api/get-audit';
import { useDuplicateAudit, useSaveAudit } from '../api/save-audit';
import { type BuilderActions, BuilderActionsProvider } from './builder-actions';
import {
  type AuditDraft,
  dropQuestion,
  findQuestion,
  isLive,
  moveQuestionTo,
  moveSection,
  updateQuestion,
  updateSection,
  visibleSections,
} from './builder-state';
import { QuestionEditor } from './question-editor';
import { questionLabel, sectionLabel } from './question-row';
import { SectionEditor } from './section-editor';
import { StructurePanel } from './structure-panel';

/** The list screen, on the audit's database. */
export function auditingPath(databaseId: string): string {
  return `/auditing?database=${encodeURIComponent(databaseId)}`;
}

/** The builder of an audit: the selection travels in the query, as for other records. */
export function auditConfigurationPath(auditId: string): string {
  return `/auditingConfiguration?id=${encodeURIComponent(auditId)}`;
}

/** Navigation state of a builder opened by its own save or duplicate: no published warning. */
export type AuditBuilderLocationState = { isOpenedByEditor?: boolean };

type Selection = { sectionId: string | null; questionId: string | null };

function draftOf(audit: Audit | null): AuditDraft {
  return audit
    ? {
        name: audit.name,
        active: audit.active,
        self_evaluation: audit.self_evaluation,
        published: audit.published,
        sections: audit.sections,
      }
    : { name: '', active: true, self_evaluation: false, published: false, sections: [] };
}

function firstSelection(sections: AuditSection[]): Selection {
  const first = visibleSections(sections)[0];
  return { sectionId: first?.id ?? null, questionId: first?.questions[0]?.id ?? null };
}

const newId = () => crypto.randomUUID();

/** Phones stack the panels: the editor is below the structure, brought into view on selection. */
const stackedPanelsQuery = '(max-width: 62em)';

type AuditBuilderProps = {
  /** Null for a new audit of `databaseId`. */
  audit: Audit | null;
  databaseId: string;
};

/**
 * The audit configuration screen (spec 002 §2, §4, §5): name and the active, self-evaluation
 * and published toggles, duplicate and save; the structure on the left, the selected
 * question's editor on the right.
 */
export function AuditBuilder({ audit, databaseId }: AuditBuilderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const saveMutation = useSaveAudit();
  const duplicateMutation = useDuplicateAudit();

  const [saved, setSaved] = useState<Audit | null>(audit);
  const [baseline, setBaseline] = useState<AuditDraft>(() => draftOf(audit));
  const [draft, setDraftState] = useState<AuditDraft>(baseline);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () =>
      new Set(
        visibleSections(baseline.sections)
          .slice(0, expandedSectionsOnOpen)
          .map((section) => section.id),
      ),
  );
  const [selection, setSelection] = useState<Selection>(() => firstSelection(baseline.sections));
  const [issue, setIssue] = useState<AuditIssue | null>(null);
  const editorRef = useRef<HTMLDivElement>(null);

  // Reference equality: any edit makes a new draft; a save makes the answer the baseline.
  const isDirty = draft !== baseline;
  const prompt = useUnsavedChangesPrompt(isDirty);

  // The handlers below read the latest state through these (they are created once).
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const savedRef = useRef(saved);
  savedRef.current = saved;
  const tRef = useRef(t);
  tRef.current = t;

  function setDraft(change: (current: AuditDraft) => AuditDraft) {
    const next = change(draftRef.current);
    draftRef.current = next;
    setDraftState(next);
  }

  const sections = useMemo(() => visibleSections(draft.sections), [draft.sections]);

  const [actions] = useState<BuilderActions>(() => {
    const setSections = (change: (current: AuditSection[]) => AuditSection[]) =>
      setDraft((current) => ({ ...current, sections: change(current.sections) }));
    /** Removals archive once the audit was published (spec 002 §4). */
    const archivedAt = () =>
      savedRef.current && removalArchives(savedRef.current) ? new Date().toISOString() : null;
    const expand = (sectionId: string) =>
      setExpanded((current) =>
        current.has(sectionId) ? current : new Set(current).add(sectionId),
      );
    // On phones the panels stack: the editor comes into view once it shows the selection.
    const reveal = () =>
      requestAnimationFrame(() => {
        if (window.matchMedia(stackedPanelsQuery).matches) {
          editorRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }
      });
    const confirmRemoval = (message: string, onConfirm: () => void) =>
      openConfirmDialog({
        title: tRef.current('audits.builder.removeTitle'),
        message,
        confirmLabel: tRef.current('dialog.yes'),
        cancelLabel: tRef.current('dialog.no'),
        isDanger: true,
        onConfirm,
      });

    return {
      newId,
      getSections: () => visibleSections(draftRef.current.sections),
      selectSection: (sectionId) => {
        const section = visibleSections(draftRef.current.sections).find((s) => s.id === sectionId);
        setSelection({ sectionId, questionId: section?.questions[0]?.id ?? null });
        expand(sectionId);
        reveal();
      },
      selectQuestion: (questionId) => {
        const place = findQuestion(draftRef.current.sections, questionId);
        setSelection({ sectionId: place?.section.id ?? null, questionId });
        reveal();
      },
      toggleSection: (sectionId) =>
        setExpanded((current) => {
          const next = new Set(current);
          if (!next.delete(sectionId)) next.add(sectionId);
          return next;
        }),
      addSection: () => {
        const section: AuditSection = {
          id: newId(),
          title: tRef.current('audits.builder.newSectionTitle'),
          questions: [],
          archived_at: null,
        };
        setSections((current) => [...current, section]);
        expand(section.id);
        setSelection({ sectionId: section.id, questionId: null });
        reveal();
      },
      renameSection: (sectionId, title) =>
        setSections((current) => updateSection(current, sectionId, (s) => ({ ...s, title }))),
      removeSection: (sectionId) =>
        confirmRemoval(tRef.current('audits.confirmRemoveSection'), () => {
          setSections((current) =>
            removeItem(current, { kind: 'section', sectionId }, archivedAt()),
          );
          setSelection((current) =>
            current.sectionId === sectionId ? { sectionId: null, questionId: null } : current,
          );
        }),
      addQuestion: (sectionId) => {
        const question = newQuestion('text_input', newId);
        setSections((current) =>
          updateSection(current, sectionId, (s) => ({
            ...s,
            questions: [...s.questions, question],
          })),
        );
        expand(sectionId);
        setSelection({ sectionId, questionId: question.id });
        reveal();
      },
      updateQuestion: (questionId, update) =>
        setSections((current) => updateQuestion(current, questionId, update)),
      changeQuestionType: (questionId, type) =>
        setSections((current) => {
          const before = findQuestion(current, questionId)?.question;
          const next = updateQuestion(current, questionId, (q) =>
            changeQuestionType(q, type, newId),
          );
          // A question that is no longer yes/no cannot stay another one's condition.
          return before?.type === 'yes_or_no' && type !== 'yes_or_no'
            ? dropConditionsOn(next, new Set([questionId]))
            : next;
        }),
      removeQuestion: (questionId) =>
        confirmRemoval(tRef.current('audits.confirmRemoveQuestion'), () => {
          const place = findQuestion(draftRef.current.sections, questionId);
          setSections((current) =>
            removeItem(current, { kind: 'question', questionId }, archivedAt()),
          );
          if (!place) return;
          // The first remaining question of its section is selected, or none (spec 002 §4).
          const section = visibleSections(draftRef.current.sections).find(
            (s) => s.id === place.section.id,
          );
          setSelection((current) =>
            current.questionId === questionId
              ? { sectionId: place.section.id, questionId: section?.questions[0]?.id ?? null }
              : current,
          );
        }),
      removeChoice: (questionId, choiceId) =>
        confirmRemoval(tRef.current('audits.confirmRemoveChoice'), () =>
          setSections((current) =>
            removeItem(current, { kind: 'choice', questionId, choiceId }, archivedAt()),
          ),
        ),
      moveSection: (sectionId, overSectionId) =>
        setSections((current) => moveSection(current, sectionId, overSectionId)),
      dropQuestion: (questionId, drop) => {
        setSections((current) => dropQuestion(current, questionId, drop));
        const place = findQuestion(draftRef.current.sections, questionId);
        setSelection((current) =>
          current.questionId === questionId && place
            ? { sectionId: place.section.id, questionId }
            : current,
        );
      },
      moveQuestionToSection: (questionId, sectionId) => {
        setSections((current) => moveQuestionTo(current, questionId, sectionId, 'end'));
        setSelection((current) =>
          current.questionId === questionId ? { sectionId, questionId } : current,
        );
      },
    };
  });

  /* ---------- Opening a published audit warns (spec 002 §4) ---------- */
  const hasWarnedRef = useRef(false);
  const [isPublishedOnOpen] = useState(() => Boolean(audit?.published));
  const isOpenedByEditor = Boolean(
    (location.state as AuditBuilderLocationState | null)?.isOpenedByEditor,
  );
  useEffect(() => {
    if (hasWarnedRef.current || !isPublishedOnOpen || isOpenedByEditor) return;
    hasWarnedRef.current = true;
    openConfirmDialog({
      title: t('audits.builder.publishedTitle'),
      message: t('audits.builder.publishedWarning'),
      confirmLabel: t('audits.builder.edit'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => undefined,
      onCancel: () => void navigate(auditingPath(databaseId)),
    });
  }, [isPublishedOnOpen, isOpenedByEditor, t, navigate, databaseId]);

  /* ---------- Settings ---------- */
  function handlePublished(isPublished: boolean) {
    setDraft((current) => ({ ...current, published: isPublished }));
    if (!isPublished) return;
    // Turning published on asks; cancelling turns it back off (spec 002 §4).
    openConfirmDialog({
      title: t('audits.builder.publishTitle'),
      message: t('audits.builder.publishConfirm'),
      confirmLabel: t('audits.builder.publish'),
      onConfirm: () => undefined,
      onCancel: () => setDraft((current) => ({ ...current, published: false })),
    });
  }

  /* ---------- Save, conflict, duplicate ---------- */
  function reset(next: Audit) {
    const nextDraft = draftOf(next);
    setSaved(next);
    setBaseline(nextDraft);
    draftRef.current = nextDraft;
    setDraftState(nextDraft);
  }

  async function reload() {
    if (!saved) return;
    try {
      reset(await queryClient.fetchQuery({ ...auditQueryOptions(saved.id), staleTime: 0 }));
    } catch (error) {
      notifyError(errorMessage(t, error));
    }
  }

  function showIssue(found: AuditIssue) {
    setIssue(found);
    if (found.sectionId) {
      const sectionId = found.sectionId;
      setExpanded((current) =>
        current.has(sectionId) ? current : new Set(current).add(sectionId),
      );
      setSelection({ sectionId, questionId: found.questionId ?? null });
    }
  }

  async function handleSave() {
    const current = draftRef.current;
    const found = validateAudit(current);
    if (found) {
      showIssue(found);
      return;
    }
    setIssue(null);
    try {
      let result: Audit;
      if (saved) {
        result = await saveMutation.mutateAsync({
          kind: 'update',
          auditId: saved.id,
          body: { version: saved.version, ...current },
        });
      } else {
        result = await saveMutation.mutateAsync({
          kind: 'create',
          databaseId,
          body: {
            name: current.name,
            active: current.active,
            self_evaluation: current.self_evaluation,
            sections: current.sections,
          },
        });
        // Creation takes no published flag: publishing is the save that follows.
        if (current.published) {
          result = await saveMutation.mutateAsync({
            kind: 'update',
            auditId: result.id,
            body: { version: result.version, ...current },
          });
        }
      }
      notifySuccess(t('errors.saved-successfully'));
      if (!saved) {
        prompt.suppress();
        void navigate(auditConfigurationPath(result.id), {
          replace: true,
          state: { isOpenedByEditor: true } satisfies AuditBuilderLocationState,
        });
        return;
      }
      reset(result);
    } catch (caught) {
      if (isApiError(caught, 'conflict/stale-version')) {
        openConfirmDialog({
          title: t('errors.save-error'),
          message: t('errors.conflict/stale-version'),
          confirmLabel: t('audits.builder.reload'),
          onConfirm: () => void reload(),
        });
        return;
      }
      notifyError(errorMessage(t, caught), { title: t('errors.save-error') });
    }
  }

  function handleDuplicate() {
    if (!saved) return;
    const auditId = saved.id;
    openConfirmDialog({
      title: t('audits.builder.duplicate'),
      message: t('audits.confirmDuplicate'),
      confirmLabel: t('dialog.yes'),
      cancelLabel: t('dialog.no'),
      onConfirm: () => {
        duplicateMutation.mutate(auditId, {
          onSuccess: (copy) => {
            notifySuccess(t('audits.duplicated-successfully'));
            void navigate(auditConfigurationPath(copy.id), {
              state: { isOpenedByEditor: true } satisfies AuditBuilderLocationState,
            });
          },
          onError: (error) => notifyError(errorMessage(t, error)),
        });
      },
    });
  }

  /* ---------- What is selected ---------- */
  const selectedPlace = selection.questionId
    ? findQuestion(draft.sections, selection.questionId)
    : null;
  const selectedQuestion =
    selectedPlace && isLive(selectedPlace.question) && isLive(selectedPlace.section)
      ? selectedPlace.question
      : null;
  const selectedSectionId = selectedPlace?.section.id ?? selection.sectionId;
  const selectedSection = sections.find((section) => section.id === selectedSectionId) ?? null;
  const isArchiving = saved ? removalArchives(saved) : false;
  const issuePlace = issue ? describeIssuePlace(issue, draft.sections, t) : '';

  return (
    <BuilderActionsProvider value={actions}>
      <PageHeader
        title={draft.name.trim() || t('audits.builder.newTitle')}
        subtitle={t('areas.auditingConfiguration')}
        actions={
          <>
            <Button
              component={Link}
              to={auditingPath(databaseId)}
              variant="subtle"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              data-testid="audit-back"
            >
              {t('audits.builder.back')}
            </Button>
            {saved ? (
              <Button
                variant="default"
                leftSection={<IconCopy size={16} aria-hidden />}
                onClick={handleDuplicate}
                loading={duplicateMutation.isPending}
                data-testid="audit-duplicate"
              >
                {t('audits.builder.duplicate')}
              </Button>
            ) : null}
            <LoadingButton onClick={handleSave} data-testid="audit-save">
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Stack gap="md">
        {issue ? (
          <Alert
            color="red"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('audits.builder.issueTitle')}
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={() => setIssue(null)}
            role="alert"
            data-testid="audit-issue"
          >
            <Text size="sm">{t(`errors.${issue.code}`)}</Text>
            {issuePlace ? (
              <Text size="sm" c="dimmed" data-testid="audit-issue-place">
                {issuePlace}
              </Text>
            ) : null}
          </Alert>
        ) : null}
        <Card withBorder radius="md">
          <Stack gap="sm">
            <TextInput
              label={t('audits.builder.name')}
              value={draft.name}
              onChange={(event) => {
                const name = event.currentTarget.value;
                setDraft((current) => ({ ...current, name }));
              }}
              maxLength={auditLimits.nameMax}
              withAsterisk
              data-testid="audit-name"
            />
            <Group gap="lg" wrap="wrap">
              <Switch
                label={t('common.active')}
                checked={draft.active}
                onChange={(event) => {
                  const active = event.currentTarget.checked;
                  setDraft((current) => ({ ...current, active }));
                }}
                data-testid="audit-active"
              />
              <Switch
                label={t('audits.selfEvaluation')}
                checked={draft.self_evaluation}
                onChange={(event) => {
                  const isSelfEvaluation = event.currentTarget.checked;
                  setDraft((current) => ({ ...current, self_evaluation: isSelfEvaluation }));
                }}
                data-testid="audit-self-evaluation"
              />
              <Switch
                label={t('audits.published')}
                checked={draft.published}
                onChange={(event) => handlePublished(event.currentTarget.checked)}
                data-testid="audit-published"
              />
            </Group>
          </Stack>
        </Card>
        {isArchiving ? (
          <Alert
            color="blue"
            icon={<IconInfoCircle size={18} aria-hidden />}
            data-testid="audit-archiving"
          >
            {t('audits.builder.archivingNotice')}
          </Alert>
        ) : null}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <StructurePanel
              sections={sections}
              expandedSectionIds={expanded}
              selectedSectionId={selectedSectionId}
              selectedQuestionId={selectedQuestion?.id ?? null}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md" ref={editorRef}>
              {selectedSection ? <SectionEditor section={selectedSection} /> : null}
              {selectedQuestion ? (
                <QuestionEditor
                  key={selectedQuestion.id}
                  question={selectedQuestion}
                  sections={draft.sections}
                />
              ) : selectedSection ? null : (
                <EmptyState
                  title={
                    sections.length === 0
                      ? t('audits.builder.noSection')
                      : t('audits.builder.nothingSelected')
                  }
                  testId="audit-editor-empty"
                />
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </BuilderActionsProvider>
  );
}

/** "Section «…» › Question «…»": where a validation issue is. */
function describeIssuePlace(issue: AuditIssue, sections: AuditSection[], t: TFunction): string {
  const section = sections.find((item) => item.id === issue.sectionId);
  if (!section) return '';
  const sectionText = t('audits.builder.issueSection', {
    name: sectionLabel(section.title, t('audits.builder.untitledSection')),
  });
  const question = issue.questionId ? findQuestion(sections, issue.questionId)?.question : null;
  if (!question) return sectionText;
  return `${sectionText} › ${t('audits.builder.issueQuestion', {
    name: questionLabel(question.text, t('audits.builder.untitledQuestion')),
  })}`;
}
